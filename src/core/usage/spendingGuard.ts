import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import { ApiError } from '../api/errors';
import type { EndpointCaller } from '../localEndpoint/namedTokens';
import type { BillingWindow, BillingWindows } from './billingWindows';
import type { Clock } from './ledger';
import { environmentSpend, limitReached, tokenSpend, type ReachedLimit } from './limitCheck';
import type { SpendSums } from './periodSums';
import { ReservationStore } from './reservations';
import { LIMIT_PERIODS, limitReachedMessage, parseSpendingLimits, type PeriodSpend, type SpendingLimit } from './spendingLimits';

/** A request refused by a spending limit (the environment's, or its endpoint token's when `token` names one): nothing was sent. */
export class SpendingLimitError extends ApiError {
  constructor(message: string, readonly environment: string, readonly spend: PeriodSpend, readonly token?: string) {
    super('spendingLimit', message);
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

  /** The user consented to one request past the limit: the next one of `environment` is not checked. */
  allowOnce(environment: string): void {
    this.#allowedOnce.set(environment, (this.#allowedOnce.get(environment) ?? 0) + 1);
  }

  /**
   * Where the environment stands against its limits now: every window's spend, plus `reserved` (by
   * default what requests in flight hold in the reservation file; views pass 0: they show spend).
   */
  async spend(environment: string, limit: SpendingLimit, reserved?: number): Promise<PeriodSpend[]> {
    const sums = await this.#usage.periodSums();
    return environmentSpend(sums, environment, limit, this.#settings.unmeasuredRequestCredits(), reserved ?? (await this.#reservations.reserved(environment)));
  }

  /** An endpoint token's spend today (every environment's requests through it) against its daily limit; views pass no reservation. */
  async tokenSpend(tokenId: string, dailyLimit: number): Promise<PeriodSpend> {
    return tokenSpend(await this.#usage.periodSums(), tokenId, dailyLimit, this.#settings.unmeasuredRequestCredits(), 0);
  }

  /**
   * Before a billed request of `environment` is sent (`caller`: the endpoint token it came through,
   * whose daily limit holds like the environment's). Throws SpendingLimitError past a limit.
   */
  async open(environment: string, caller?: EndpointCaller): Promise<BillingWindow> {
    const limit = this.limitOf(environment);
    const dailyLimit = caller?.dailyLimit;
    const token = caller && dailyLimit !== undefined ? { id: caller.token.id, name: caller.token.name, dailyLimit } : undefined;
    if (!limit && !token) return this.#windows.open(environment);
    const consented = limit !== undefined && (this.#allowedOnce.get(environment) ?? 0) > 0;
    if (consented) this.#allowedOnce.set(environment, (this.#allowedOnce.get(environment) ?? 1) - 1);
    const allowance = this.#settings.unmeasuredRequestCredits();
    let reached: ReachedLimit | undefined;
    const id = await this.#reservations.reserve(environment, allowance, async (reserved, reservedByToken) => {
      reached = limitReached({ sums: await this.#usage.periodSums(), environment, ...(limit && { limit }), consented, ...(token && { token }), allowance, reserved, reservedByToken });
      return reached === undefined;
    }, token?.id);
    if (id === undefined || reached) {
      const { spend, token: tokenName } = reached as ReachedLimit;
      const resets = new Date(spend.resetsAt);
      const message = limitReachedMessage(spend, tokenName === undefined ? environment : l10n.t('endpoint token {0}', tokenName), LIMIT_PERIODS[spend.period].resetText(spend.resetsAt));
      const whose = tokenName === undefined ? '' : ` through endpoint token "${tokenName}" (its own limit)`;
      this.#log.warn(`Spending limit: a request of ${environment}${whose} was refused before sending (${spend.period}: ${spend.counted} of ${spend.limit} credits counted, resets ${resets.toISOString()})`);
      throw new SpendingLimitError(message, environment, spend, tokenName);
    }
    if (consented) this.#log.info(`Spending limit: one request of ${environment} sent past the limit, as the user chose (Send Anyway)`);
    let window: BillingWindow;
    try {
      window = await this.#windows.open(environment);
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
        setImmediate(() => {
          void this.#usage.written().then(() => this.#reservations.release(id)).catch((error: unknown) => {
            this.#log.warn(`Spending limit: reservation not released: ${error instanceof Error ? error.message : String(error)}`);
          });
        });
      },
    };
  }
}
