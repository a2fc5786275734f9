/** When a stored model list answers VS Code's questions, in this window and the next, and when it is refreshed. */
import assert from 'node:assert/strict';
import type { CachedModelList, ListSource } from '../../../src/core/models/modelListCache';
import { PersistedModelLists, type StateStore } from '../../../src/core/models/persistedModelLists';

const BASE = 'https://api.example.test/api/v1';
const SOURCE: ListSource = { baseUrl: BASE, keyTag: 'tag-of-key-a' };
const MINUTE = 60_000;
const LIFETIME = 60 * MINUTE;

/** globalState as all windows share it: one map. */
class FakeStore implements StateStore {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, structuredClone(value));
  }
}

describe('persisted model lists', () => {
  let store: FakeStore;
  let now: number;
  /** A window: its own PersistedModelLists (nothing in memory), the shared store, the shared clock. */
  const window = () => new PersistedModelLists(store, () => now);

  beforeEach(() => {
    store = new FakeStore();
    now = 1_700_000_000_000;
  });

  it('a list saved by one window is current in the next window for the same address and key', async () => {
    await window().save('production', 'chat', ['a', 'b'], SOURCE);
    now += LIFETIME - 1;
    assert.deepEqual(window().lookup('production', 'chat', SOURCE, LIFETIME), { state: 'current', ids: ['a', 'b'] });
  });

  it('keeps the tag of the key and the address, never anything else of the key', async () => {
    await window().save('production', 'chat', ['a'], SOURCE);
    assert.deepEqual(store.values.get('inference.models.production.chat'), { ids: ['a'], fetchedAt: now, baseUrl: BASE, keyTag: 'tag-of-key-a' });
  });

  it('answers no one of another key, another address, without a key, or another kind or environment', async () => {
    await window().save('production', 'chat', ['a'], SOURCE);
    const lists = window();
    assert.equal(lists.lookup('production', 'chat', { ...SOURCE, keyTag: 'tag-of-key-b' }, LIFETIME).state, 'none');
    assert.equal(lists.lookup('production', 'chat', { ...SOURCE, baseUrl: 'https://other.example.test/api/v1' }, LIFETIME).state, 'none');
    assert.equal(lists.lookup('production', 'chat', { ...SOURCE, keyTag: undefined }, LIFETIME).state, 'none');
    assert.equal(lists.lookup('production', 'image', SOURCE, LIFETIME).state, 'none');
    assert.equal(lists.lookup('preview', 'chat', SOURCE, LIFETIME).state, 'none');
  });

  it('a list stored before key tags (no tag) or of another shape is no one\'s', async () => {
    store.values.set('inference.models.production.chat', { ids: ['a'], fetchedAt: now, baseUrl: BASE });
    assert.equal(window().lookup('production', 'chat', SOURCE, LIFETIME).state, 'none');
    store.values.set('inference.models.production.chat', { ids: 'a', fetchedAt: now, baseUrl: BASE, keyTag: SOURCE.keyTag });
    assert.equal(window().lookup('production', 'chat', SOURCE, LIFETIME).state, 'none');
  });

  it('past its lifetime, from a clock set back, or with a lifetime of 0 the list is stale: it may answer while it is refreshed', async () => {
    await window().save('production', 'chat', ['a'], SOURCE);
    assert.deepEqual(window().lookup('production', 'chat', SOURCE, 0), { state: 'stale', ids: ['a'], refreshDue: true });
    now += LIFETIME;
    assert.deepEqual(window().lookup('production', 'chat', SOURCE, LIFETIME), { state: 'stale', ids: ['a'], refreshDue: true });
    now -= LIFETIME + 1;
    assert.equal(window().lookup('production', 'chat', SOURCE, LIFETIME).state, 'stale');
  });

  it('all windows together start at most one background refresh per lifetime; a saved list ends the wait', async () => {
    await window().save('production', 'chat', ['a'], SOURCE);
    now += LIFETIME + MINUTE;
    const [first, second] = [window(), window()];
    assert.equal(await first.claimRefresh('production', 'chat', SOURCE, LIFETIME), true);
    assert.equal(await second.claimRefresh('production', 'chat', SOURCE, LIFETIME), false, 'another window already refreshes it');
    assert.deepEqual(second.lookup('production', 'chat', SOURCE, LIFETIME), { state: 'stale', ids: ['a'], refreshDue: false }, 'a failed refresh is not retried at once');
    now += LIFETIME - 1;
    assert.equal(await window().claimRefresh('production', 'chat', SOURCE, LIFETIME), false);
    now += 1;
    assert.equal(await window().claimRefresh('production', 'chat', SOURCE, LIFETIME), true, 'once a lifetime has passed since the last start');
    await first.save('production', 'chat', ['a', 'b'], SOURCE);
    assert.deepEqual(second.lookup('production', 'chat', SOURCE, LIFETIME), { state: 'current', ids: ['a', 'b'] });
  });

  it('claims no refresh for a current list or for none of this source', async () => {
    assert.equal(await window().claimRefresh('production', 'chat', SOURCE, LIFETIME), false);
    await window().save('production', 'chat', ['a'], SOURCE);
    assert.equal(await window().claimRefresh('production', 'chat', SOURCE, LIFETIME), false);
    now += LIFETIME;
    assert.equal(await window().claimRefresh('production', 'chat', { ...SOURCE, keyTag: 'tag-of-key-b' }, LIFETIME), false);
  });

  it('save says whether the ids changed (listeners re-read only then); forget says whether there was a list', async () => {
    const lists = window();
    assert.equal(await lists.save('production', 'chat', ['a', 'b'], SOURCE), true);
    assert.equal(await lists.save('production', 'chat', ['a', 'b'], { ...SOURCE, keyTag: 'tag-of-key-b' }), false);
    assert.equal(lists.entry('production', 'chat')?.keyTag, 'tag-of-key-b', 'the same ids under another key are stored with that key');
    assert.equal(await lists.save('production', 'chat', ['b', 'a'], SOURCE), true);
    assert.equal(await lists.forget('production', 'chat'), true);
    assert.equal(await lists.forget('production', 'chat'), false);
    assert.equal(lists.entry('production', 'chat'), undefined);
  });

  it('a refreshed list starts a new lifetime and drops the refresh mark', async () => {
    await window().save('production', 'chat', ['a'], SOURCE);
    now += LIFETIME;
    await window().claimRefresh('production', 'chat', SOURCE, LIFETIME);
    await window().save('production', 'chat', ['a'], SOURCE);
    const entry = store.values.get('inference.models.production.chat') as CachedModelList;
    assert.equal(entry.fetchedAt, now);
    assert.equal(entry.refreshStartedAt, undefined);
  });
});
