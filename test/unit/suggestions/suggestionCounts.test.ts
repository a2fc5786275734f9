import * as assert from 'node:assert/strict';
import { KEEP_DAYS, parseSuggestionCounts, SuggestionCounts, type StoredSuggestionCounts, type SuggestionCountsStore } from '../../../src/core/suggestions/suggestionCounts';
import { dayKey, lastDays } from '../../../src/core/usage/report';

/** A store shared like VS Code's global state: every instance reads what any wrote last. */
function fakeStore(): SuggestionCountsStore & { value: unknown; writes: StoredSuggestionCounts[]; fail: boolean } {
  const store = {
    value: undefined as unknown,
    writes: [] as StoredSuggestionCounts[],
    fail: false,
    read: () => store.value,
    write: async (value: StoredSuggestionCounts) => {
      if (store.fail) throw new Error('disk full');
      store.writes.push(value);
      store.value = JSON.parse(JSON.stringify(value)) as unknown;
    },
  };
  return store;
}

const NOW = new Date(2026, 4, 20, 15).getTime();
const DAY_MS = 86_400_000;

describe('suggestion counts: requested, shown, accepted and cancelled per day and environment (core/suggestions/suggestionCounts)', () => {
  it('counts in memory and writes them in one batch, never once per event', async () => {
    const store = fakeStore();
    const counts = new SuggestionCounts(store, { clock: () => NOW, flushAfterMs: 60_000 });
    for (let i = 0; i < 500; i++) counts.record('requested', 'production');
    for (let i = 0; i < 200; i++) counts.record('shown', 'production');
    counts.record('accepted', 'production');
    counts.record('cancelled', 'preview');
    assert.equal(store.writes.length, 0);
    assert.deepEqual(counts.totals([dayKey(NOW)]), { requested: 500, shown: 200, accepted: 1, cancelled: 1 }, 'what is not yet written counts too');
    await counts.flush();
    await counts.flush();
    assert.equal(store.writes.length, 1, 'an empty flush writes nothing');
    assert.deepEqual(counts.totals([dayKey(NOW)], 'preview'), { requested: 0, shown: 0, accepted: 0, cancelled: 1 });
    assert.deepEqual(counts.totals([dayKey(NOW - DAY_MS)]), { requested: 0, shown: 0, accepted: 0, cancelled: 0 });
    await counts.dispose();
  });

  it('writes on its own once the batch has waited, and adds to what other windows wrote meanwhile', async () => {
    const store = fakeStore();
    const first = new SuggestionCounts(store, { clock: () => NOW, flushAfterMs: 5 });
    const second = new SuggestionCounts(store, { clock: () => NOW, flushAfterMs: 60_000 });
    second.record('accepted', 'production');
    first.record('requested', 'production');
    first.record('requested', 'production');
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(store.writes.length, 1);
    await second.flush();
    assert.deepEqual(parseSuggestionCounts(store.value), { [dayKey(NOW)]: { production: { requested: 2, shown: 0, accepted: 1, cancelled: 0 } } });
    await Promise.all([first.dispose(), second.dispose()]);
  });

  it('keeps the last KEEP_DAYS days only, so that its size does not grow with use', async () => {
    const store = fakeStore();
    let now = NOW;
    const counts = new SuggestionCounts(store, { clock: () => now, flushAfterMs: 60_000 });
    const sizes: number[] = [];
    for (let day = 0; day < 3 * KEEP_DAYS; day++) {
      now = NOW + day * DAY_MS;
      for (let i = 0; i < 20; i++) counts.record('requested', 'production');
      counts.record('accepted', 'preview');
      await counts.flush();
      sizes.push(JSON.stringify(store.value).length);
    }
    const stored = parseSuggestionCounts(store.value);
    assert.equal(Object.keys(stored).length, KEEP_DAYS);
    assert.deepEqual(Object.keys(stored).sort(), lastDays(now, KEEP_DAYS));
    assert.ok(sizes[sizes.length - 1] <= sizes[KEEP_DAYS], `bounded: ${sizes[KEEP_DAYS]} → ${sizes[sizes.length - 1]} characters`);
    assert.deepEqual(counts.totals(lastDays(now, 7)), { requested: 140, shown: 0, accepted: 7, cancelled: 0 });
    await counts.dispose();
  });

  it('keeps a failed write\'s counts for the next one, and counts nothing once disposed', async () => {
    const store = fakeStore();
    const errors: unknown[] = [];
    const counts = new SuggestionCounts(store, { clock: () => NOW, flushAfterMs: 60_000, onError: (error) => errors.push(error) });
    counts.record('shown', 'production');
    store.fail = true;
    await counts.flush();
    assert.equal(errors.length, 1);
    store.fail = false;
    counts.record('shown', 'production');
    await counts.dispose();
    counts.record('shown', 'production');
    await counts.flush();
    assert.deepEqual(counts.totals([dayKey(NOW)]), { requested: 0, shown: 2, accepted: 0, cancelled: 0 });
    assert.equal(store.writes.length, 1);
  });

  it('reads back only well-formed days, environments and counts', () => {
    const day = dayKey(NOW);
    assert.deepEqual(parseSuggestionCounts(undefined), {});
    assert.deepEqual(parseSuggestionCounts({ v: 2, days: { [day]: { p: { shown: 1 } } } }), {});
    assert.deepEqual(parseSuggestionCounts({ v: 1, days: { [day]: { p: { shown: 1, accepted: -1, requested: 'x' }, q: 3 }, yesterday: { p: { shown: 1 } } } }), {
      [day]: { p: { requested: 0, shown: 1, accepted: 0, cancelled: 0 } },
    });
  });
});
