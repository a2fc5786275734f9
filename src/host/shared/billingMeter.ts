import type { BillingMeter } from '../../core/usage/billedCall';
import type { Services } from './services';
import { readSettledBalance, type SettledBalanceServices } from './settledBalance';

/** The spending guard opens the call, the account knows the balance, the ledger records the spend. */
export type MeterServices = SettledBalanceServices & Pick<Services, 'billing' | 'account' | 'usage'>;

/** The meter of every billed call, on the extension's services; `quiet`: readings nobody is watching (no 429 countdown). */
export function servicesMeter(services: MeterServices, who: string, quiet = false): BillingMeter {
  return {
    openBillingWindow: (env, caller) => services.billing.open(env, caller),
    balance: (env) => services.account.get(env).balanceCredits,
    readSettledBalance: (env) => readSettledBalance(services, env, who, quiet),
    usage: services.usage,
  };
}
