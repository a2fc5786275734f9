/**
 * When a cached model list may answer instead of a request. VS Code asks the language model provider
 * for the list in the background (at start, after every change event, now and then), and every
 * `GET /models` counts against the key's requests per minute: those questions must be answered from
 * the cache while it is current, and the questions that arrive together must share one request.
 * How lists persist across windows: persistedModelLists.ts.
 */

/** A model list as stored (versionless on purpose: an entry of another shape is simply not current). */
export interface CachedModelList {
  ids: string[];
  /** Milliseconds since the epoch. */
  fetchedAt: number;
  /** The base URL the list came from: an environment pointed elsewhere is another service. */
  baseUrl?: string;
  /** The tag of the key the list was fetched with (keyTag.ts; never the key): another key may see other models. */
  keyTag?: string;
  /** When a window last started refreshing this list in the background (see persistedModelLists.ts). */
  refreshStartedAt?: number;
}

/** Where a list would come from now: the environment's address and the tag of its key. */
export interface ListSource {
  baseUrl: string;
  /** Undefined without a key: no list is anyone's then. */
  keyTag: string | undefined;
}

/** Whether the entry is a list of this source: same address, same key (an entry without a tag is no one's). */
export function isFromSource(entry: CachedModelList | undefined, source: ListSource): entry is CachedModelList {
  if (!entry || !Array.isArray(entry.ids) || typeof entry.fetchedAt !== 'number') return false;
  return entry.baseUrl === source.baseUrl && source.keyTag !== undefined && entry.keyTag === source.keyTag;
}

/** Whether `at` lies within the lifetime before `now` (a time in the future, from a clock set back, does not). */
export function isWithinLifetime(at: number | undefined, now: number, lifetimeMs: number): boolean {
  if (at === undefined) return false;
  const age = now - at;
  return age >= 0 && age < lifetimeMs;
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
