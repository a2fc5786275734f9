import type { ModelType } from '../api/types';
import { isFromSource, isWithinLifetime, type CachedModelList, type ListSource } from './modelListCache';

export type ModelKind = Extract<ModelType, 'chat' | 'image'>;

/** Where lists are kept: the extension's globalState in the host (shared by all windows), a map in tests. */
export interface StateStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** What the stored list of an environment can do for a question now. */
export type ListLookup =
  | { state: 'current'; ids: string[] }
  /** Of this source but past its lifetime: it may answer while a refresh runs; `refreshDue` when no window started one within the lifetime. */
  | { state: 'stale'; ids: string[]; refreshDue: boolean }
  /** None, or one of another address or key. */
  | { state: 'none' };

const STORE_KEY = (env: string, kind: ModelKind) => `inference.models.${env}.${kind}`;

/**
 * The model lists, persisted across windows: one entry per environment and kind, which answers only
 * for the address and key (by its tag, never the key) it was fetched from. A window that starts
 * while the list is current makes no request; one that finds it past its lifetime answers with it
 * and refreshes it in the background, and the start of that refresh is stored too, so that all
 * windows together refresh a list at most once per lifetime (two windows starting in the same
 * instant may both refresh: globalState reaches other windows shortly after a write).
 */
export class PersistedModelLists {
  readonly #store: StateStore;
  readonly #now: () => number;

  constructor(store: StateStore, now: () => number) {
    this.#store = store;
    this.#now = now;
  }

  entry(env: string, kind: ModelKind): CachedModelList | undefined {
    return this.#store.get<CachedModelList>(STORE_KEY(env, kind));
  }

  lookup(env: string, kind: ModelKind, source: ListSource, lifetimeMs: number): ListLookup {
    const entry = this.entry(env, kind);
    const now = this.#now();
    if (!isFromSource(entry, source)) return { state: 'none' };
    if (isWithinLifetime(entry.fetchedAt, now, lifetimeMs)) return { state: 'current', ids: entry.ids };
    return { state: 'stale', ids: entry.ids, refreshDue: !isWithinLifetime(entry.refreshStartedAt, now, lifetimeMs) };
  }

  /** Records that this window refreshes the stale list now; false when it is not stale or a refresh started within the lifetime. */
  async claimRefresh(env: string, kind: ModelKind, source: ListSource, lifetimeMs: number): Promise<boolean> {
    const found = this.lookup(env, kind, source, lifetimeMs);
    const entry = this.entry(env, kind);
    if (found.state !== 'stale' || !found.refreshDue || !entry) return false;
    await this.#store.update(STORE_KEY(env, kind), { ...entry, refreshStartedAt: this.#now() } satisfies CachedModelList);
    return true;
  }

  /** Stores a fetched list; true when its ids differ from the ones stored before (listeners re-read only then). */
  async save(env: string, kind: ModelKind, ids: string[], source: ListSource): Promise<boolean> {
    const previous = this.entry(env, kind)?.ids;
    const entry: CachedModelList = { ids, fetchedAt: this.#now(), baseUrl: source.baseUrl, ...(source.keyTag !== undefined && { keyTag: source.keyTag }) };
    await this.#store.update(STORE_KEY(env, kind), entry);
    return !Array.isArray(previous) || previous.length !== ids.length || previous.some((id, i) => id !== ids[i]);
  }

  /** Forgets the list; true when there was one. */
  async forget(env: string, kind: ModelKind): Promise<boolean> {
    if (this.entry(env, kind) === undefined) return false;
    await this.#store.update(STORE_KEY(env, kind), undefined);
    return true;
  }
}
