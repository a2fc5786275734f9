import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { serializeEntry, toUsageEntry, type UsageEntry } from '../../../src/core/usage/ledger';
import { compactLedger, oldestLedgerEntry, readLedgerSince, streamLedger } from '../../../src/core/usage/ledgerFile';

const DAY = 86_400_000;
const NOW = new Date(2026, 10, 22, 9, 30).getTime();

/** `days` days of `perDay` entries each, oldest first, the last one at NOW; model names not all ASCII, so that pieces cut characters. */
function ledger(days: number, perDay: number): UsageEntry[] {
  const entries: UsageEntry[] = [];
  for (let day = days - 1; day >= 0; day--) {
    for (let i = 0; i < perDay; i++) {
      const at = NOW - day * DAY - (perDay - 1 - i) * 60_000;
      entries.push(toUsageEntry({ requestId: `req-${day}-${i}`, model: i % 3 ? 'chat-a' : 'modèle-漢字', environment: 'production', kind: 'chat', credits: i % 7 ? 0.001 * i : null }, at));
    }
  }
  return entries;
}

describe('usage ledger file (reading what is shown, streaming the rest)', () => {
  let dir: string;
  let file: string;
  const write = (entries: UsageEntry[], extra = '') => fs.writeFileSync(file, entries.map(serializeEntry).join('') + extra);
  /** What `read` returns, and the bytes it read through file handles. */
  const readCounted = async <T>(read: () => Promise<T>) => {
    const opened = fs.promises.open;
    let bytes = 0;
    // Counts what is read through the file handle.
    (fs.promises as { open: typeof opened }).open = async (...args: Parameters<typeof opened>) => {
      const handle = await opened(...args);
      const read = handle.read.bind(handle) as (buffer: Buffer, offset: number, length: number, position: number) => Promise<fs.promises.FileReadResult<Buffer>>;
      (handle as unknown as { read: typeof read }).read = async (buffer, offset, length, position) => {
        const result = await read(buffer, offset, length, position);
        bytes += result.bytesRead;
        return result;
      };
      return handle;
    };
    try {
      return { result: await read(), bytes };
    } finally {
      (fs.promises as { open: typeof opened }).open = opened;
    }
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-test-'));
    file = path.join(dir, 'ledger.jsonl');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads today from the end of a 400-day ledger: the same entries as a full read, a small part of the bytes', async () => {
    const all = ledger(400, 100);
    write(all);
    const startOfToday = new Date(2026, 10, 22).getTime();
    const { result: entries, bytes } = await readCounted(() => readLedgerSince(file, startOfToday));
    assert.deepEqual(entries, all.filter((e) => e.at >= startOfToday));
    assert.equal(entries.length, 100);
    assert.ok(bytes > 0 && bytes < fs.statSync(file).size / 50, `read ${bytes} of ${fs.statSync(file).size} bytes`);
    const month = await readLedgerSince(file, startOfToday - 29 * DAY);
    assert.deepEqual(month, all.filter((e) => e.at >= startOfToday - 29 * DAY));
  });

  it('finds the oldest entry in the head of a 400-day ledger, past unreadable lines, and in a last line without a newline', async () => {
    const all = ledger(400, 100);
    write(all);
    const { result: oldest, bytes } = await readCounted(() => oldestLedgerEntry(file));
    assert.equal(oldest, all[0].at);
    assert.ok(bytes > 0 && bytes < fs.statSync(file).size / 50, `read ${bytes} of ${fs.statSync(file).size} bytes`);
    fs.writeFileSync(file, `not json\n\n{"v":1,"requestId":"torn\n${serializeEntry(all[1]).trimEnd()}`);
    assert.equal(await oldestLedgerEntry(file), all[1].at);
    fs.writeFileSync(file, 'not json\n');
    assert.equal(await oldestLedgerEntry(file), undefined);
  });

  it('reads a small ledger whole, skips unreadable and torn lines, and a missing file is empty', async () => {
    const all = ledger(3, 5);
    write(all, 'not json\n{"v":1,"requestId":"torn');
    assert.deepEqual(await readLedgerSince(file, 0), all);
    assert.deepEqual(await readLedgerSince(path.join(dir, 'none.jsonl'), 0), []);
    assert.deepEqual(await oldestLedgerEntry(path.join(dir, 'none.jsonl')), undefined);
  });

  it('tolerates entries a little out of order across windows (an append overtaken by another window\'s)', async () => {
    const all = ledger(5, 2000);
    const late = toUsageEntry({ requestId: 'late', model: 'm', environment: 'production', kind: 'chat', credits: 1 }, NOW - 2 * DAY + 1000);
    // Written after a day's worth of newer lines: found when reading back to two days ago.
    write([...all.slice(0, -2000), late, ...all.slice(-2000)]);
    const found = await readLedgerSince(file, NOW - 2 * DAY);
    assert.ok(found.some((e) => e.requestId === 'late'));
  });

  it('streams every entry in file order, and compacts by streaming through a temporary file', async () => {
    const all = ledger(10, 3);
    write(all);
    const streamed: UsageEntry[] = [];
    for await (const entry of streamLedger(file)) streamed.push(entry);
    assert.deepEqual(streamed, all);
    assert.equal(await oldestLedgerEntry(file), all[0].at);
    const keepSince = NOW - 4.5 * DAY;
    assert.equal(await compactLedger(file, keepSince, 77), all.filter((e) => e.at >= keepSince).length);
    assert.deepEqual(await readLedgerSince(file, 0), all.filter((e) => e.at >= keepSince));
    assert.deepEqual(fs.readdirSync(dir), ['ledger.jsonl'], 'no temporary file left');
  });
});
