import * as l10n from '@vscode/l10n';
import { ApiError } from '../../api/errors';

/**
 * How many of a comparison's requests stream at once. The service states a key's limit as requests
 * per minute (`x-ratelimit-limit-requests`), not as concurrency: a comparison's burst should take a
 * small share of the minute, leaving the rest to what else uses the key meanwhile (inline suggestions
 * at each pause in typing, other windows, tools through the local endpoint).
 */

/**
 * Until a response has told the key's limit: two at a time. Side by side from the first second, yet
 * a burst even a key of a few requests per minute takes without a 429; the first response's header
 * then raises (or lowers) it for the columns still waiting.
 */
export const DEFAULT_CONCURRENT_REQUESTS = 2;

/** One request of the burst per this many of the key's requests per minute: a fifth of the minute at most. */
const REQUESTS_PER_MINUTE_PER_SLOT = 5;

/** The requests a comparison streams at once for a key of `requestsPerMinute`; at least one. */
export function concurrentRequestsFor(requestsPerMinute: number | undefined, most: number): number {
  if (requestsPerMinute === undefined || !Number.isFinite(requestsPerMinute) || requestsPerMinute <= 0) return Math.min(DEFAULT_CONCURRENT_REQUESTS, most);
  return Math.max(1, Math.min(most, Math.floor(requestsPerMinute / REQUESTS_PER_MINUTE_PER_SLOT)));
}

/** A request's place among those streaming. */
export interface Slot {
  /** Gives the place up (the stream ended, or a 429 is being waited out). Harmless twice. */
  release(): void;
  /** Takes a place again after a release (a 429's retry), behind the requests already waiting. */
  again(signal: AbortSignal): Promise<void>;
}

interface Waiter {
  grant(): void;
}

/**
 * At most `limit` holders at once, granted in the order asked (first come, first served: a request
 * back from a 429's wait does not jump the columns that waited meanwhile). Lowering the limit lets the
 * holders finish and grants no more until they are under it.
 */
export class RequestSlots {
  #limit: number;
  #held = 0;
  readonly #queue: Waiter[] = [];

  constructor(limit: number) {
    this.#limit = Math.max(1, limit);
  }

  get limit(): number {
    return this.#limit;
  }

  /** Requests streaming now. */
  get held(): number {
    return this.#held;
  }

  setLimit(limit: number): void {
    this.#limit = Math.max(1, limit);
    this.#grant();
  }

  /** Resolves with a slot once one is free; rejects (cancelled) when `signal` aborts first. */
  async acquire(signal: AbortSignal): Promise<Slot> {
    await this.#take(signal);
    let holding = true;
    return {
      release: () => {
        if (!holding) return;
        holding = false;
        this.#held--;
        this.#grant();
      },
      again: async (againSignal) => {
        if (holding) return;
        await this.#take(againSignal);
        holding = true;
      },
    };
  }

  #take(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(cancelled());
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          this.#held++;
          resolve();
        },
      };
      const onAbort = () => {
        const index = this.#queue.indexOf(waiter);
        if (index >= 0) this.#queue.splice(index, 1);
        reject(cancelled());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
      this.#grant();
    });
  }

  #grant(): void {
    while (this.#held < this.#limit && this.#queue.length) this.#queue.shift()?.grant();
  }
}

function cancelled(): ApiError {
  return new ApiError('cancelled', l10n.t('The request was cancelled.'));
}
