import * as path from 'node:path';
import { ApiError } from '../api/errors';
import type { BillingGroup, BillingWindow, BillingWindows } from './billingWindows';
import type { Clock, UsageKind } from './ledger';
import { budgetSpend, environmentSpend, kindSpendToday, limitReached, type KindSpend, type ReachedLimit } from './limitCheck';
import type { SpendSums } from './periodSums';
import { ReservationStore } from './reservations';
import type { SpendConsent } from './spendConsent';
import { budgetLogName, budgetRefusal, isTokenBudget, tokenBudgetKey, type SpendBudget } from './spendBudget';
import { LIMIT_PERIODS, limitReachedMessage, parseSpendingLimits, type PeriodSpend, type SpendingLimit } from './spendingLimits';

/**
 * A request refused by a spending limit: the environment's, or a budget of its own (`budget`; `token`
 * names the endpoint token when the budget is that token's daily limit). Nothing was sent.
 */
export class SpendingLimitError extends ApiError {
  readonly token: string | undefined;

  constructor(message: string, readonly environment: string, readonly spend: PeriodSpend, readonly budget?: SpendBudget) {
    super('spendingLimit', message);
    this.token = budget && isTokenBudget(budget) ? budget.name : undefined;
  }
}


/** What the guard reads of the usage ledger: every window's spend, and when the last record landed. */
export interface SpendLedger {
  readonly clock: Clock;
  /** The current day's and month's spend of every window (the ledger is shared). */
  periodSums(): Promise<SpendSums>;
  /** Resolves once every record queued so far is in the ledger file. */
  written(): Promise<void>;
}

/** The user's settings the guard applies, read when it decides (they change while it runs). */
export interface LimitSettings {
  /** `inference.spendingLimits`, as the user wrote it. */
  spendingLimits(): unknown;
  /** `inference.unmeasuredRequestCredits`: what a request whose spend could not be measured counts. */
  unmeasuredRequestCredits(): number;
}

export interface WarningLog {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * Every billed request of every path (chat panel, images, language models, local endpoint) opens a
 * billing window before anything is sent; this is where spending limits hold. With a limit set for
 * the environment, the request is checked against the spend of every window (the ledger is shared)
 * and, when it passes, holds `inference.unmeasuredRequestCredits` in the shared reservation file
 * until its window closes (its spend is in the ledger by then), so that two windows near the limit
 * cannot both pass. A refusal throws SpendingLimitError.
 */
export class SpendingGuard {
  readonly #reservations: ReservationStore;
  /** Environments whose next request the user let through past the limit ("Send Anyway"). */
  readonly #allowedOnce = new Map<string, number>();
  /** Releases that closed windows began and that have not finished writing the reservation file. */
  readonly #releasing = new Set<Promise<void>>();

  readonly #windows: BillingWindows;
  readonly #usage: SpendLedger;
  readonly #log: WarningLog;
  readonly #settings: LimitSettings;

  constructor(windows: BillingWindows, usage: SpendLedger, log: WarningLog, settings: LimitSettings, reservationsDirectory: string) {
    this.#windows = windows;
    this.#usage = usage;
    this.#log = log;
    this.#settings = settings;
    this.#reservations = new ReservationStore(path.join(reservationsDirectory, 'usage'), { clock: usage.clock });
  }

  limitOf(environment: string): SpendingLimit | undefined {
    return parseSpendingLimits(this.#settings.spendingLimits()).get(environment);
  }

  /** Calls to be measured together (a comparison's): checked against the limits one by one, as they open. */
  openGroup(environment: string): Promise<BillingGroup> {
    return this.#windows.openGroup(environment);
  }

  /** The user consented to one request past the limit: the next one of `environment` is not checked. */
  allowOnce(environment: string): void {
    this.#allowedOnce.set(environment, (this.#allowedOnce.get(environment) ?? 0) + 1);
  }

  #takeAllowedOnce(environment: string): boolean {
    const left = this.#allowedOnce.get(environment) ?? 0;
    if (left > 0) this.#allowedOnce.set(environment, left - 1);
    return left > 0;
  }

  /**
   * Where the environment stands against its limits now: every window's spend, plus `reserved` (by
   * default what requests in flight hold in the reservation file; views pass 0: they show spend).
   */
  async spend(environment: string, limit: SpendingLimit, reserved?: number): Promise<PeriodSpend[]> {
    const sums = await this.#usage.periodSums();
    return environmentSpend(sums, environment, limit, this.#settings.unmeasuredRequestCredits(), reserved ?? (await this.#reservations.reserved(environment)));
  }

  /** A budget's spend today (every environment's under its key) against its daily limit; views pass no reservation. */
  async budgetSpend(budget: SpendBudget): Promise<PeriodSpend> {
    return budgetSpend(await this.#usage.periodSums(), budget, this.#settings.unmeasuredRequestCredits(), 0);
  }

  /** An endpoint token's spend today (every environment's requests through it) against its daily limit; views pass no reservation. */
  async tokenSpend(tokenId: string, dailyLimit: number): Promise<PeriodSpend> {
    return this.budgetSpend({ key: tokenBudgetKey(tokenId), name: tokenId, dailyLimit });
  }

  /** Today's spend of one kind of request, every environment's (the suggestions' status bar item reads it): from the sums, not the ledger. */
  async kindSpendToday(kind: UsageKind): Promise<KindSpend> {
    return kindSpendToday(await this.#usage.periodSums(), kind, this.#settings.unmeasuredRequestCredits());
  }

  /**
   * Before a billed request of `environment` is sent (`budgets`: its budgets of their own, an endpoint
   * token's daily limit, the suggestions' budget, each holding like the environment's limits).
   * `consent`: the user's consent this request carries (spendConsent.ts), used before Send Anyway's.
   * `group`: the calls measured together that this one is part of (billingWindows.ts BillingGroup).
   * Throws SpendingLimitError past a limit.
   */
  async open(environment: string, budgets: readonly SpendBudget[] = [], consent?: SpendConsent, group?: BillingGroup): Promise<BillingWindow> {
    const limit = this.limitOf(environment);
    if (!limit && budgets.length === 0) return this.#windows.open(environment, group);
    const consented = limit !== undefined && (consent?.take(environment) === true || this.#takeAllowedOnce(environment));
    const allowance = this.#settings.unmeasuredRequestCredits();
    let reached: ReachedLimit | undefined;
    const id = await this.#reservations.reserve(environment, allowance, async (reserved, reservedByBudget) => {
      reached = limitReached({ sums: await this.#usage.periodSums(), environment, ...(limit && { limit }), consented, budgets, allowance, reserved, reservedByBudget });
      return reached === undefined;
    }, budgets.map((budget) => budget.key));
    if (id === undefined || reached) {
      const { spend, budget } = reached as ReachedLimit;
      const resets = new Date(spend.resetsAt);
      const message = budget ? budgetRefusal(budget, spend) : limitReachedMessage(spend, environment, LIMIT_PERIODS[spend.period].resetText(spend.resetsAt));
      const whose = budget ? ` ${budgetLogName(budget)}` : '';
      this.#log.warn(`Spending limit: a request of ${environment}${whose} was refused before sending (${spend.period}: ${spend.counted} of ${spend.limit} credits counted, resets ${resets.toISOString()})`);
      throw new SpendingLimitError(message, environment, spend, budget);
    }
    if (consented) this.#log.info(`Spending limit: one request of ${environment} sent past the limit, as the user chose (${consent ? 'consent given once for a comparison' : 'Send Anyway'})`);
    let window: BillingWindow;
    try {
      window = await this.#windows.open(environment, group);
    } catch (error) {
      await this.#reservations.release(id);
      throw error;
    }
    return {
      get overlapped() {
        return window.overlapped;
      },
      settling: () => window.settling(),
      close: () => {
        window.close();
        // The reservation stands until the request's spend is in the ledger file, where other windows
        // read it: features record right before closing, or (images) right after; a turn of the event
        // loop later the record is queued, and the release waits for the queue.
        const releasing: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
          .then(() => this.#usage.written())
          .then(() => this.#reservations.release(id))
          .catch((error: unknown) => {
            this.#log.warn(`Spending limit: reservation not released: ${error instanceof Error ? error.message : String(error)}`);
          })
          .finally(() => this.#releasing.delete(releasing));
        this.#releasing.add(releasing);
      },
    };
  }

  /** Resolves once every reservation that closed windows let go is released in the file (tests wait for it before removing the folder). */
  async settled(): Promise<void> {
    while (this.#releasing.size > 0) await Promise.all(this.#releasing);
  }
}
