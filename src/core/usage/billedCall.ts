import type { EndpointCaller } from '../localEndpoint/namedTokens';
import { answerSpend, type BalanceReading } from './answerSpend';
import type { BillingGroup, BillingWindow } from './billingWindows';
import type { SpendNotMeasured, UsageRecord, UsageRecorder } from './ledger';
import type { SpendConsent } from './spendConsent';
import { tokenBudget, type SpendBudget } from './spendBudget';

/** What a billed call cost, or why that is not known. */
export type BilledSpend = { credits: number } | { notMeasured: SpendNotMeasured };

/**
 * How every billed call ends (chat panel answers, answers given through VS Code's language models,
 * image generations, answers the local endpoint forwards): the one place its spend goes into the
 * usage ledger. A measured call with its credits; a call that overlapped another of its wallet, or
 * whose balance could not be read before and after it, without a cost: it was billed all the same,
 * so spending limits count `inference.unmeasuredRequestCredits` for it. `credits` is the measured
 * difference, undefined when there was none to take.
 */
export function recordBilledCall(recorder: UsageRecorder, who: string, entry: Omit<UsageRecord, 'credits'>, overlapped: boolean, credits: number | undefined): BilledSpend {
  if (overlapped || credits === undefined) {
    const reason: SpendNotMeasured = overlapped ? 'overlapped' : 'noReading';
    recorder.recordUnmeasured(entry, who, reason);
    return { notMeasured: reason };
  }
  recorder.record({ ...entry, credits });
  return { credits };
}

/** What measuring a billed call needs from the extension (the chat engine's backend is one). */
export interface BillingMeter {
  /**
   * Opens the call's billing window once the readings of calls that ended are in (billingWindows.ts);
   * a spending limit, the environment's or one of `budgets` (spendBudget.ts), refuses here
   * (SpendingLimitError), before anything is sent. `consent`: the user's consent the call carries past
   * the environment's limits (spendConsent.ts); `group`: the calls measured together it is one of.
   */
  openBillingWindow(env: string, budgets: readonly SpendBudget[], consent?: SpendConsent, group?: BillingGroup): Promise<BillingWindow>;
  /** The last balance known for the environment: what the call's spend starts from. */
  balance(env: string): number | undefined;
  /** One fresh reading after a stream was billed; undefined when none can be had (turned off, failed). */
  readSettledBalance(env: string): Promise<BalanceReading | undefined>;
  readonly usage: UsageRecorder;
}

type CallEntry = Omit<UsageRecord, 'credits'>;

export interface BilledCallOptions {
  caller?: EndpointCaller;
  budget?: SpendBudget;
  /** Consent given for this call (with others) past the environment's limits: a comparison's, asked once. */
  consent?: SpendConsent;
  /** The calls measured together that this call is one of (a comparison's: billingWindows.ts). */
  group?: BillingGroup;
  now?: () => number;
}

/**
 * One billed call of any path, measured one way: opened before anything is sent (the limits hold
 * there), the balance it starts from noted then, and ended exactly once: not billed (the service
 * did not take it), billed with the balance its response reported after the charge, or billed by a
 * stream, whose headers left before the charge, with one reading of the settled balance. A billed
 * call always reaches the ledger (recordBilledCall), measured or not.
 */
export class BilledCall {
  #ended = false;

  readonly #meter: BillingMeter;
  readonly #who: string;
  readonly #window: BillingWindow;
  readonly #balanceBefore: number | undefined;
  readonly #openedAt: number;
  readonly #now: () => number;

  private constructor(
    meter: BillingMeter,
    who: string,
    readonly env: string,
    window: BillingWindow,
    balanceBefore: number | undefined,
    openedAt: number,
    now: () => number,
  ) {
    this.#meter = meter;
    this.#who = who;
    this.#window = window;
    this.#balanceBefore = balanceBefore;
    this.#openedAt = openedAt;
    this.#now = now;
  }

  /**
   * Opens the call (see BillingMeter.openBillingWindow); `who` names the feature in the log. `caller`:
   * the endpoint token the request came through, whose daily limit (if any) is a budget of the call;
   * `budget`: another budget of its own the call counts against (the suggestions').
   */
  static async open(meter: BillingMeter, who: string, env: string, options: BilledCallOptions = {}): Promise<BilledCall> {
    const budgets = [tokenBudget(options.caller), options.budget].filter((budget): budget is SpendBudget => budget !== undefined);
    const window = await meter.openBillingWindow(env, budgets, options.consent, options.group);
    const now = options.now ?? Date.now;
    return new BilledCall(meter, who, env, window, meter.balance(env), now(), now);
  }

  /** Whether another call of the wallet was in flight meanwhile (its spend is then in any difference). */
  get overlapped(): boolean {
    return this.#window.overlapped;
  }

  /** The service did not take it (refused, failed or cancelled before a response): nothing was billed. Nothing once ended. */
  notBilled(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#window.close();
  }

  /** Billed, and its response reported the balance after the charge (a whole answer, an image). */
  billed(entry: CallEntry, reading: BalanceReading | undefined): BilledSpend {
    return this.#record(entry, reading, this.#openedAt);
  }

  /**
   * Billed by a stream that has ended: one reading of the settled balance, which calls opened from
   * now on wait for; taken once `readAfter` (earlier readings of the same feature) has settled.
   */
  async billedStream(entry: CallEntry, readAfter?: Promise<unknown>): Promise<BilledSpend> {
    const answeredAt = this.#now();
    this.#window.settling();
    await readAfter?.catch(() => undefined);
    const reading = await this.#meter.readSettledBalance(this.env).catch(() => undefined);
    return this.#record(entry, reading, answeredAt);
  }

  #record(entry: CallEntry, reading: BalanceReading | undefined, readableFrom: number): BilledSpend {
    // Ended once by construction (each path ends its call in one place): a second end records nothing.
    if (this.#ended) return { notMeasured: 'noReading' };
    this.#ended = true;
    try {
      const credits = this.#balanceBefore === undefined ? undefined : answerSpend(this.#balanceBefore, reading, readableFrom);
      return recordBilledCall(this.#meter.usage, this.#who, entry, this.#window.overlapped, credits);
    } finally {
      this.#window.close();
    }
  }
}
