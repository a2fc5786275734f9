/**
 * When a cached model list may answer instead of a request. VS Code asks the language model provider
 * for the list in the background (at start, after every change event, now and then), and every
 * `GET /models` counts against the key's requests per minute: those questions must be answered from
 * the cache while it is current, and the questions that arrive together must share one request.
 */

/** A model list as stored (versionless on purpose: an entry of another shape is simply not current). */
export interface CachedModelList {
  ids: string[];
  /** Milliseconds since the epoch. */
  fetchedAt: number;
  /** The base URL the list came from: an environment pointed elsewhere is another service. */
  baseUrl?: string;
}

/** What the list is wanted for now. */
export interface ListWanted {
  now: number;
  lifetimeMs: number;
  baseUrl: string;
  /**
   * A tag of the key the list would be fetched with, and of the key the cached one was fetched with
   * (kept in memory only; undefined when unknown, e.g. after a restart or for a list the key check
   * fetched with the key that is stored next). Only two known, different tags make a list stale.
   */
  keyTag?: string;
  listedWithKeyTag?: string;
}

/**
 * Whether the cached list still answers: fetched from this base URL, for this key, within the
 * lifetime (a time in the future, from a clock set back, does not count as fresh).
 */
export function isCurrent(entry: CachedModelList | undefined, wanted: ListWanted): entry is CachedModelList {
  if (!entry || !Array.isArray(entry.ids) || typeof entry.fetchedAt !== 'number') return false;
  const age = wanted.now - entry.fetchedAt;
  if (age < 0 || age >= wanted.lifetimeMs) return false;
  if (entry.baseUrl !== wanted.baseUrl) return false;
  return wanted.keyTag === undefined || wanted.listedWithKeyTag === undefined || wanted.keyTag === wanted.listedWithKeyTag;
}

/**
 * One operation per key at a time: a caller that asks while the same operation is under way gets
 * its result instead of starting another (N background refreshes at once cost one request).
 */
export class SharedOperations<T> {
  readonly #running = new Map<string, Promise<T>>();

  run(key: string, operation: () => Promise<T>): Promise<T> {
    const running = this.#running.get(key);
    if (running) return running;
    const started = operation().finally(() => this.#running.delete(key));
    this.#running.set(key, started);
    return started;
  }
}

/**
 * Waits for `promise`, or rejects as soon as `signal` aborts: a caller that gives up stops waiting
 * for an operation that others still share.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined, reason: () => Error): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(reason());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reason());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
