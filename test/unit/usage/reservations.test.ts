import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { ReservationStore } from '../../../src/core/usage/reservations';

describe('spending reservations shared by windows', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await fs.mkdtemp(path.join(os.tmpdir(), 'reservations-'));
  });
  afterEach(async () => {
    await fs.rm(directory, { recursive: true, force: true });
  });

  const alive = new Set([101, 202]);
  const store = (pid: number, clock: () => number = Date.now) => new ReservationStore(directory, { pid, clock, isAlive: (p) => alive.has(p) });

  it('lets only one of two windows pass the last credit when both decide at the same time', async () => {
    const limit = 10;
    const measured = 9.5;
    const windows = [store(101), store(202)];
    const results = await Promise.all(windows.map((w) => w.reserve('production', 1, async (reserved) => {
      // Both read the ledger "at the same time": the check is slow, yet the lock orders them.
      await new Promise((resolve) => setTimeout(resolve, 20));
      return measured + reserved < limit;
    })));
    assert.equal(results.filter((id) => id !== undefined).length, 1, 'exactly one passes');
    assert.equal(await windows[0].reserved('production'), 1);
  });

  it('frees the credits when a reservation is released, and keeps environments apart', async () => {
    const window = store(101);
    const id = await window.reserve('production', 2, () => true);
    await window.reserve('preview', 5, () => true);
    assert.equal(await store(202).reserved('production'), 2, 'another window sees it');
    await window.release(id ?? '');
    await window.release(id ?? '');
    assert.equal(await window.reserved('production'), 0);
    assert.equal(await window.reserved('preview'), 5);
  });

  it('ignores the reservations of a process that is gone, and those past their time to live', async () => {
    let now = 1_000_000;
    await new ReservationStore(directory, { pid: 999, isAlive: () => true, clock: () => now }).reserve('production', 3, () => true);
    assert.equal(await store(101, () => now).reserved('production'), 0, 'pid 999 is not running');
    const living = new ReservationStore(directory, { pid: 101, isAlive: () => true, clock: () => now, reservationTtlMs: 60_000 });
    await living.reserve('production', 4, () => true);
    assert.equal(await living.reserved('production'), 7);
    now += 60_000;
    assert.equal(await living.reserved('production'), 0, 'an hour-old reservation is over');
  });

  it('takes over a lock left by a crashed process instead of waiting for ever', async () => {
    await fs.writeFile(path.join(directory, 'reservations.lock'), JSON.stringify({ pid: 999, at: Date.now() }));
    const id = await store(101).reserve('production', 1, () => true);
    assert.ok(id);
    await assert.rejects(fs.stat(path.join(directory, 'reservations.lock')), 'the lock is released after use');
  });

  it('reserves nothing when the check refuses', async () => {
    const window = store(101);
    assert.equal(await window.reserve('production', 1, () => false), undefined);
    assert.equal(await window.reserved('production'), 0);
  });

  it('tells the check what each budget\'s requests in flight hold, across environments, by its key', async () => {
    const window = store(101);
    await window.reserve('production', 2, () => true, ['token:a']);
    await window.reserve('preview', 3, () => true, ['token:a', 'kind:suggestion']);
    await window.reserve('production', 5, () => true);
    await window.reserve('preview', 0.5, () => true, ['kind:suggestion']);
    const seen: unknown[] = [];
    await store(202).reserve('production', 1, (reserved, byBudget) => {
      seen.push([reserved, Object.fromEntries(byBudget)]);
      return true;
    }, ['token:a', 'kind:suggestion', 'token:b']);
    await window.reserve('preview', 1, (reserved, byBudget) => {
      seen.push([reserved, Object.fromEntries(byBudget)]);
      return false;
    });
    assert.deepEqual(seen, [[7, { 'token:a': 5, 'kind:suggestion': 3.5, 'token:b': 0 }], [3.5, {}]]);
  });
});
