/** When one model-list request is shared (when a stored list answers: persistedModelLists.test.ts). */
import assert from 'node:assert/strict';
import { SharedOperations, untilAborted } from '../../../src/core/models/modelListCache';

describe('model list cache', () => {
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
