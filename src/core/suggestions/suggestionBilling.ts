import { BilledCall, type BillingMeter } from '../usage/billedCall';
import type { SpendBudget } from '../usage/spendBudget';
import { SpendingLimitError } from '../usage/spendingGuard';

const WHO = 'Inline suggestions';
/** The pauses' key for the budget's (no environment name can be it). */
const ALL = '\u0000every environment';

/** Why suggestions are off, and until when (the refused period's end). */
export interface SuggestionsPause {
  message: string;
  until: number;
  /** The suggestions' own budget refused (every environment is off), not the environment's limit. */
  budget: boolean;
}

/**
 * How an inline suggestion request is billed: each one opens a BilledCall carrying the suggestions'
 * budget, so that the environment's spending limits and the budget hold before anything is sent. A
 * refusal turns suggestions off until the refused period ends (the budget's: every environment; an
 * environment's limit: that environment), so that the keystrokes meanwhile send nothing and do not
 * take the shared reservation lock each time. No Send Anyway: a suggestion nobody asked for is not
 * worth a consent prompt.
 */
export class SuggestionBilling {
  /** Environment name, or ALL for the budget → the pause. */
  readonly #paused = new Map<string, SuggestionsPause>();

  readonly #meter: BillingMeter;
  readonly #budget: () => SpendBudget | undefined;
  readonly #clock: () => number;

  /** `budget`: read at each request (the setting changes while the extension runs). */
  constructor(meter: BillingMeter, budget: () => SpendBudget | undefined, clock: () => number = Date.now) {
    this.#meter = meter;
    this.#budget = budget;
    this.#clock = clock;
  }

  /** Why suggestions of `environment` are off now, if they are. */
  pausedFor(environment: string): SuggestionsPause | undefined {
    const now = this.#clock();
    for (const key of [ALL, environment]) {
      const pause = this.#paused.get(key);
      if (pause && pause.until <= now) this.#paused.delete(key);
    }
    return this.#paused.get(ALL) ?? this.#paused.get(environment);
  }

  /**
   * Opens the billed call of one suggestion request, or undefined while suggestions are off (a limit
   * refused one earlier in the period, or refuses this one). Other failures are thrown.
   */
  async open(environment: string): Promise<BilledCall | undefined> {
    if (this.pausedFor(environment)) return undefined;
    const budget = this.#budget();
    try {
      return await BilledCall.open(this.#meter, WHO, environment, { ...(budget && { budget }) });
    } catch (error) {
      if (!(error instanceof SpendingLimitError)) throw error;
      const byBudget = error.budget !== undefined && error.budget.key === budget?.key;
      this.#paused.set(byBudget ? ALL : environment, { message: error.message, until: error.spend.resetsAt, budget: byBudget });
      return undefined;
    }
  }

  /** A limit or the budget changed: suggestions try again at the next request (refused again if still reached). */
  resume(): void {
    this.#paused.clear();
  }
}
