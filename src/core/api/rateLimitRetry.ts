import * as l10n from '@vscode/l10n';
import { ApiError, isApiError } from './errors';

/**
 * When a call answered 429 is tried again: after the service's Retry-After, or a short backoff when it
 * sent none, at most `maxRetries` times. A wait longer than LONGEST_AUTOMATIC_WAIT_SECONDS is not
 * sat out automatically: the error goes to the user, who decides.
 */

export const LONGEST_AUTOMATIC_WAIT_SECONDS = 120;

/** Without Retry-After: 2, 4, 8 … seconds, never more than this. */
const LONGEST_BACKOFF_SECONDS = 30;

export interface RetryWait {
  /** What is waited for, as the countdown names it. */
  label: string;
  seconds: number;
  /** 1 for the first retry. */
  retry: number;
  maxRetries: number;
  /** The 429 that made this wait. */
  error: ApiError;
}

/**
 * Sits out one wait (the host shows a cancellable countdown). Resolves true when the time is up, false
 * when the user cancelled; `signal` aborting ends it too (the policy does not depend on that).
 */
export type Wait = (wait: RetryWait, signal: AbortSignal | undefined) => Promise<boolean>;

export interface RateLimitRetry {
  label: string;
  maxRetries: number;
  wait: Wait;
  signal?: AbortSignal | undefined;
}

/** The wait before retry number `retry` (1-based), or undefined when the error is not waited out. */
export function retryDelaySeconds(error: ApiError, retry: number): number | undefined {
  const seconds = error.retryAfterSeconds ?? Math.min(2 ** retry, LONGEST_BACKOFF_SECONDS);
  return seconds > LONGEST_AUTOMATIC_WAIT_SECONDS ? undefined : seconds;
}

/** Runs `attempt` (given its 0-based number), trying again after each 429 as the policy above says. */
export async function withRateLimitRetry<T>(attempt: (attemptNumber: number) => Promise<T>, options: RateLimitRetry): Promise<T> {
  const { signal } = options;
  const maxRetries = Math.max(0, options.maxRetries);
  for (let attemptNumber = 0; ; attemptNumber++) {
    try {
      return await attempt(attemptNumber);
    } catch (error) {
      if (!isApiError(error) || error.kind !== 'rateLimited' || attemptNumber >= maxRetries || signal?.aborted) throw error;
      const retry = attemptNumber + 1;
      const seconds = retryDelaySeconds(error, retry);
      if (seconds === undefined) throw error;
      const waited = await untilAborted(options.wait({ label: options.label, seconds, retry, maxRetries, error }, signal), signal);
      if (!waited) throw new ApiError('cancelled', l10n.t('The retry was cancelled.'), { ...(error.meta && { meta: error.meta }) });
    }
  }
}

/** `waiting`, or false as soon as `signal` aborts, whatever the wait does. */
function untilAborted(waiting: Promise<boolean>, signal: AbortSignal | undefined): Promise<boolean> {
  if (!signal) return waiting;
  if (signal.aborted) return Promise.resolve(false);
  return new Promise<boolean>((resolve, reject) => {
    const onAbort = () => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
    waiting.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
