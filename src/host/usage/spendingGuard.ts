import * as path from 'node:path';
import vscode = require('vscode');
import { ApiError } from '../../core/api/errors';
import type { BillingWindow, BillingWindows } from '../../core/usage/billingWindows';
import { ReservationStore } from '../../core/usage/reservations';
import { monthPeriod } from '../../core/usage/spendPeriods';
import { limitReachedMessage, parseSpendingLimits, reachedLimit, spendAgainstLimits, type PeriodSpend, type SpendingLimit } from '../../core/usage/spendingLimits';
import { readSetting } from '../config';
import type { UsageLedger } from './usageLedger';

/** A request refused by a spending limit: nothing was sent. */
export class SpendingLimitError extends ApiError {
  constructor(message: string, readonly environment: string, readonly spend: PeriodSpend) {
    super('spendingLimit', message);
  }
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

  constructor(private readonly windows: BillingWindows, private readonly usage: UsageLedger, private readonly log: vscode.LogOutputChannel, reservationsDirectory: string) {
    this.#reservations = new ReservationStore(path.join(reservationsDirectory, 'usage'), { clock: usage.clock });
  }

  limitOf(environment: string): SpendingLimit | undefined {
    return parseSpendingLimits(readSetting('inference.spendingLimits')).get(environment);
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
    const now = this.usage.clock();
    const entries = (await this.usage.since(monthPeriod(now, undefined).start)).filter((entry) => entry.environment === environment);
    return spendAgainstLimits({ entries, limit, now, allowance: readSetting('inference.unmeasuredRequestCredits'), reserved: reserved ?? (await this.#reservations.reserved(environment)) });
  }

  async open(environment: string): Promise<BillingWindow> {
    const limit = this.limitOf(environment);
    if (!limit) return this.windows.open(environment);
    const consented = (this.#allowedOnce.get(environment) ?? 0) > 0;
    if (consented) this.#allowedOnce.set(environment, (this.#allowedOnce.get(environment) ?? 1) - 1);
    let reached: PeriodSpend | undefined;
    const id = await this.#reservations.reserve(environment, readSetting('inference.unmeasuredRequestCredits'), async (reserved) => {
      if (consented) return true;
      reached = reachedLimit(await this.spend(environment, limit, reserved));
      return reached === undefined;
    });
    if (id === undefined || reached) {
      const spend = reached as PeriodSpend;
      const resets = new Date(spend.resetsAt);
      const message = limitReachedMessage(spend, environment, spend.period === 'day' ? resets.toLocaleTimeString() : resets.toLocaleString());
      this.log.warn(`Spending limit: a request of ${environment} was refused before sending (${spend.period}: ${spend.counted} of ${spend.limit} credits counted, resets ${resets.toISOString()})`);
      throw new SpendingLimitError(message, environment, spend);
    }
    if (consented) this.log.info(`Spending limit: one request of ${environment} sent past the limit, as the user chose (Send Anyway)`);
    let window: BillingWindow;
    try {
      window = await this.windows.open(environment);
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
          void this.usage.written().then(() => this.#reservations.release(id)).catch((error: unknown) => {
            this.log.warn(`Spending limit: reservation not released: ${error instanceof Error ? error.message : String(error)}`);
          });
        });
      },
    };
  }
}
