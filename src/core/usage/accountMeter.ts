import type { BalanceReading } from './answerSpend';
import type { BillingMeter } from './billedCall';
import type { BillingGroup, BillingWindow } from './billingWindows';
import type { UsageRecorder } from './ledger';
import type { SpendBudget } from './spendBudget';
import type { SpendConsent } from './spendConsent';

/**
 * The billing meter every path measures its calls with (BilledCall), on the parts of the extension it
 * reads. Each port is the few methods used, so the host's services fit it as they are and a test's
 * fakes stand in for them.
 */

/** The balance the service last reported for an environment, and when it arrived, as the account keeps it. */
export interface AccountBalances {
  get(env: string): { balanceCredits?: number; balanceAt?: number };
}

/** The chat model list: asked afresh, its response carries the balance into the account. */
export interface BalanceRefresher {
  list(kind: 'chat', env: string, options: { refresh: true; quiet: boolean }): Promise<unknown>;
}

/** Where a billed call opens, and where the spending limits refuse it: the spending guard. */
export interface BillingOpener {
  open(env: string, budgets: readonly SpendBudget[], consent?: SpendConsent, group?: BillingGroup): Promise<BillingWindow>;
}

export interface MeterServices {
  readonly billing: BillingOpener;
  readonly account: AccountBalances;
  readonly models: BalanceRefresher;
  readonly usage: UsageRecorder;
  readonly log: { warn(message: string): void };
}

export interface MeterOptions {
  /** The path, as the log names it. */
  who: string;
  /** For readings nobody is watching: a 429 fails at once instead of showing a retry countdown. */
  quiet?: boolean;
  /** Whether a settled balance is read at all (a setting: each reading is one more request). */
  readBalanceAfterAnswer: () => boolean;
}

/** The account's last balance as a reading; none until both the balance and its time are known. */
export function balanceReading(account: AccountBalances, env: string): BalanceReading | undefined {
  const { balanceCredits, balanceAt } = account.get(env);
  return balanceCredits !== undefined && balanceAt !== undefined ? { credits: balanceCredits, at: balanceAt } : undefined;
}

/**
 * The balance after an answer was billed, read with one model-list request (a streamed answer
 * reports the balance before it is billed). The contract promises the balance header on chat and
 * image calls only: the model list may carry none, and then the reading is the older one (which
 * `answerSpend` refuses). A failed request is logged, not thrown: the call is then billed unmeasured.
 */
export async function readSettledBalance(services: Pick<MeterServices, 'models' | 'account' | 'log'>, env: string, options: MeterOptions): Promise<BalanceReading | undefined> {
  if (!options.readBalanceAfterAnswer()) return undefined;
  try {
    await services.models.list('chat', env, { refresh: true, quiet: options.quiet ?? false });
  } catch (error) {
    services.log.warn(`${options.who}: could not read the balance after an answer: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
  return balanceReading(services.account, env);
}

/** The meter of every billed call on the extension's services. */
export function accountMeter(services: MeterServices, options: MeterOptions): BillingMeter {
  return {
    openBillingWindow: (env, budgets, consent, group) => services.billing.open(env, budgets, consent, group),
    balance: (env) => services.account.get(env).balanceCredits,
    readSettledBalance: (env) => readSettledBalance(services, env, options),
    usage: services.usage,
  };
}
