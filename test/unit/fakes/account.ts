import type { AccountBalances, BalanceRefresher, BillingOpener } from '../../../src/core/usage/accountMeter';
import type { BillingWindow } from '../../../src/core/usage/billingWindows';
import type { SpendNotMeasured, UsageRecord, UsageRecorder } from '../../../src/core/usage/ledger';
import type { SpendBudget } from '../../../src/core/usage/spendBudget';
import type { CheckedEnvironment } from '../../../src/core/settings/settingsCheck';

/** Fakes of the account's ports (core/usage/accountMeter.ts and the features built on them), shared by the host features' logic tests. */

/** The balances the account knows, per environment, as the service last reported them. */
export class FakeAccount implements AccountBalances {
  readonly #balances = new Map<string, { balanceCredits?: number; balanceAt?: number }>();
  get(env: string): { balanceCredits?: number; balanceAt?: number } {
    return this.#balances.get(env) ?? {};
  }
  set(env: string, balanceCredits: number | undefined, balanceAt?: number): void {
    this.#balances.set(env, { ...(balanceCredits !== undefined && { balanceCredits }), ...(balanceAt !== undefined && { balanceAt }) });
  }
}

/** The model list: each request recorded; `answer` runs for it (update the account as the response's header would, or throw). */
export class FakeModelList implements BalanceRefresher {
  readonly requests: Array<{ env: string; quiet: boolean }> = [];
  answer: (env: string) => void = () => {};
  async list(_kind: 'chat', env: string, options: { refresh: true; quiet: boolean }): Promise<string[]> {
    this.requests.push({ env, quiet: options.quiet });
    this.answer(env);
    return ['model-a'];
  }
}

/** A log channel's levels, each line kept. */
export class FakeLog {
  readonly lines: string[] = [];
  info(message: string): void {
    this.lines.push(`info: ${message}`);
  }
  warn(message: string): void {
    this.lines.push(`warn: ${message}`);
  }
  error(message: string): void {
    this.lines.push(`error: ${message}`);
  }
}

/** The usage ledger's writes: measured entries and unmeasured ones with who and why. */
export class FakeLedger implements UsageRecorder {
  readonly measured: UsageRecord[] = [];
  readonly unmeasured: Array<{ requestId: string; who: string; reason: SpendNotMeasured }> = [];
  record(entry: UsageRecord): void {
    this.measured.push(entry);
  }
  recordUnmeasured(entry: Omit<UsageRecord, 'credits'>, who: string, reason: SpendNotMeasured): void {
    this.unmeasured.push({ requestId: entry.requestId, who, reason });
  }
}

/** A spending guard that opens every call (or refuses with `refusal`), recording each open and close. */
export class FakeBilling implements BillingOpener {
  readonly events: string[] = [];
  refusal: Error | undefined;
  async open(env: string, budgets: readonly SpendBudget[] = []): Promise<BillingWindow> {
    if (this.refusal) throw this.refusal;
    this.events.push(`open ${env}${budgets.map((budget) => ` ${budget.name}`).join('')}`);
    return { overlapped: false, settling: () => void this.events.push('settling'), close: () => void this.events.push('close') };
  }
}

/** The meter's services, all fakes. */
export function fakeMeterServices(): { billing: FakeBilling; account: FakeAccount; models: FakeModelList; usage: FakeLedger; log: FakeLog } {
  return { billing: new FakeBilling(), account: new FakeAccount(), models: new FakeModelList(), usage: new FakeLedger(), log: new FakeLog() };
}

/** The key store: what was stored for each environment, and the origins it was bound to. */
export class FakeKeys {
  readonly stored = new Map<string, { key: string; origins: readonly string[] | undefined }>();
  async set(env: string, key: string, origins?: readonly string[]): Promise<void> {
    this.stored.set(env, { key, origins });
  }
  async get(env: string): Promise<string | undefined> {
    return this.stored.get(env)?.key;
  }
}

/** A user environment as the settings check hands it over (valid unless `problem` is given). */
export function checkedEnvironment(name: string, overrides: Partial<CheckedEnvironment> = {}): CheckedEnvironment {
  const origin = `https://${name}.example`;
  return { name, label: name, baseUrl: `${origin}/api/v1`, keyPrefix: '', origin, origins: [origin], ...overrides };
}
