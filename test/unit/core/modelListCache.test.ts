/** When a cached model list answers (VS Code's background refreshes) and when one request is shared. */
import assert from 'node:assert/strict';
import { isCurrent, SharedOperations, untilAborted, type CachedModelList, type ListWanted } from '../../../src/core/modelListCache';

const BASE = 'https://api.example.test/api/v1';
const entry: CachedModelList = { ids: ['a', 'b'], fetchedAt: 1_000_000, baseUrl: BASE };
const wanted: ListWanted = { now: 1_000_000 + 59_000, lifetimeMs: 60_000, baseUrl: BASE };

describe('model list cache', () => {
  describe('isCurrent', () => {
    it('answers from a list fetched within the lifetime from the same address', () => assert.equal(isCurrent(entry, wanted), true));
    it('not once the lifetime is over', () => assert.equal(isCurrent(entry, { ...wanted, now: entry.fetchedAt + 60_000 }), false));
    it('not with a lifetime of 0 (the setting turns the cache off)', () => assert.equal(isCurrent(entry, { ...wanted, lifetimeMs: 0, now: entry.fetchedAt }), false));
    it('not from a time in the future (a clock set back)', () => assert.equal(isCurrent(entry, { ...wanted, now: entry.fetchedAt - 1 }), false));
    it('not when the environment now points at another address', () => assert.equal(isCurrent(entry, { ...wanted, baseUrl: 'https://other.example.test/api/v1' }), false));
    it('not for a stored list without its address (stored before addresses were kept)', () => {
      const { baseUrl: _, ...withoutAddress } = entry;
      assert.equal(isCurrent(withoutAddress, wanted), false);
    });
    it('not when the key changed since the list was fetched', () => assert.equal(isCurrent(entry, { ...wanted, keyTag: 'new', listedWithKeyTag: 'old' }), false));
    it('with the same key, or when either key is unknown', () => {
      assert.equal(isCurrent(entry, { ...wanted, keyTag: 'k', listedWithKeyTag: 'k' }), true);
      assert.equal(isCurrent(entry, { ...wanted, keyTag: 'k' }), true);
      assert.equal(isCurrent(entry, { ...wanted, listedWithKeyTag: 'k' }), true);
    });
    it('not for nothing stored, or a stored value of another shape', () => {
      assert.equal(isCurrent(undefined, wanted), false);
      assert.equal(isCurrent({ ids: 'a', fetchedAt: entry.fetchedAt, baseUrl: BASE } as unknown as CachedModelList, wanted), false);
    });
  });

  describe('SharedOperations', () => {
    it('runs one operation for callers that ask while it is under way, and a new one afterwards', async () => {
      const shared = new SharedOperations<number>();
      let runs = 0;
      let finish: (value: number) => void = () => undefined;
      const operation = () => {
        runs++;
        return new Promise<number>((resolve) => (finish = resolve));
      };
      const waiting = [1, 2, 3, 4, 5].map(() => shared.run('production\nchat', operation));
      assert.equal(runs, 1);
      finish(7);
      assert.deepEqual(await Promise.all(waiting), [7, 7, 7, 7, 7]);
      const again = shared.run('production\nchat', operation);
      assert.equal(runs, 2, 'a finished operation is not reused');
      finish(8);
      assert.equal(await again, 8);
    });

    it('keeps operations of different keys apart, and forgets a failed one', async () => {
      const shared = new SharedOperations<string>();
      const keys: string[] = [];
      await Promise.all(['production', 'preview'].map((key) => shared.run(key, async () => {
        keys.push(key);
        return key;
      })));
      assert.deepEqual(keys, ['production', 'preview']);
      await assert.rejects(shared.run('production', () => Promise.reject(new Error('503'))), /503/);
      assert.equal(await shared.run('production', async () => 'recovered'), 'recovered');
    });
  });

  describe('untilAborted', () => {
    it('stops waiting when the signal aborts, while the operation goes on for others', async () => {
      let finish: (value: string) => void = () => undefined;
      const operation = new Promise<string>((resolve) => (finish = resolve));
      const controller = new AbortController();
      const mine = untilAborted(operation, controller.signal, () => new Error('cancelled'));
      controller.abort();
      await assert.rejects(mine, /cancelled/);
      finish('list');
      assert.equal(await operation, 'list');
      assert.equal(await untilAborted(operation, new AbortController().signal, () => new Error('cancelled')), 'list');
      await assert.rejects(untilAborted(operation, controller.signal, () => new Error('cancelled')), /cancelled/, 'an aborted signal rejects at once');
    });
  });
});
