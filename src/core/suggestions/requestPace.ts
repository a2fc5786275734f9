/**
 * How many suggestion requests a minute may take of the key's rate limit. Every suggestion is a
 * request (and its balance reading another), and the key's per-minute limit is shared with the chat,
 * VS Code's language models and the local endpoint: suggestions take at most a third of it, so that
 * typing never leaves the user's own questions waiting on a 429. The limit is what the service last
 * reported (`x-ratelimit-limit-requests`); until it has, nothing is held back.
 */

const WINDOW_MS = 60_000;
/** The share of the key's requests per minute that suggestions (with their readings) may use. */
export const SUGGESTIONS_SHARE_OF_RATE_LIMIT = 1 / 3;
/** Requests per suggestion: the completion, and the settled-balance reading after it. */
const REQUESTS_PER_SUGGESTION = 2;

export class SuggestionPace {
  /** When each suggestion request of the last minute was sent, oldest first. */
  readonly #sent: number[] = [];
  #limitPerMinute: number | undefined;

  /** The key's requests per minute, as a response reported it. */
  noteRateLimit(requestsPerMinute: number | undefined): void {
    if (requestsPerMinute !== undefined && Number.isFinite(requestsPerMinute) && requestsPerMinute > 0) this.#limitPerMinute = requestsPerMinute;
  }

  /** Suggestion requests allowed a minute; undefined while the key's limit is unknown. */
  get perMinute(): number | undefined {
    if (this.#limitPerMinute === undefined) return undefined;
    return Math.max(1, Math.floor((this.#limitPerMinute * SUGGESTIONS_SHARE_OF_RATE_LIMIT) / REQUESTS_PER_SUGGESTION));
  }

  /** Whether one more may be sent now; if so, it is counted as sent. */
  take(now: number): boolean {
    while (this.#sent.length > 0 && this.#sent[0]! <= now - WINDOW_MS) this.#sent.shift();
    const allowed = this.perMinute;
    if (allowed !== undefined && this.#sent.length >= allowed) return false;
    this.#sent.push(now);
    return true;
  }
}
