import type { BillingMeter } from '../../core/usage/billedCall';
import type { Services } from './services';
import { readSettledBalance } from './settledBalance';

/** The meter of every billed call, on the extension's services; `quiet`: readings nobody is watching (no 429 countdown). */
export function servicesMeter(services: Services, who: string, quiet = false): BillingMeter {
  return {
    openBillingWindow: (env, budgets) => services.billing.open(env, budgets),
    balance: (env) => services.account.get(env).balanceCredits,
    readSettledBalance: (env) => readSettledBalance(services, env, who, quiet),
    usage: services.usage,
  };
}
