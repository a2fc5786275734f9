/** Requests-per-minute limit per key over a sliding 60 s window. */
import { ApiError } from './errors';

const WINDOW_MS = 60_000;

export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  /** Counts one request for `keyId`, or throws 429 with Retry-After when the window is full. */
  hit(keyId: string, rpm: number, now = Date.now()): { remaining: number } {
    const recent = (this.hits.get(keyId) ?? []).filter((t) => t > now - WINDOW_MS);
    if (recent.length >= rpm) {
      const retryAfter = Math.max(1, Math.ceil((recent[0] + WINDOW_MS - now) / 1000));
      this.hits.set(keyId, recent);
      throw new ApiError(429, 'rate_limit_error', 'rate_limit_exceeded',
        `Rate limit of ${rpm} requests per minute exceeded. Retry after ${retryAfter} s.`,
        { 'retry-after': String(retryAfter), 'x-ratelimit-remaining-requests': '0' });
    }
    recent.push(now);
    this.hits.set(keyId, recent);
    return { remaining: rpm - recent.length };
  }

  reset(): void {
    this.hits.clear();
  }
}
