import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { serializeEntry, toUsageEntry, type UsageEntry } from '../../src/core/usage/ledger';
import { readLedgerSince } from '../../src/core/usage/ledgerFile';
import { environmentSpend, tokenSpend } from '../../src/core/usage/limitCheck';
import { readPeriodSums, type PeriodSumsFiles } from '../../src/core/usage/periodSumsFile';
import { monthPeriod } from '../../src/core/usage/spendPeriods';
import { currentPeriods, spendAgainstLimits } from '../../src/core/usage/spendingLimits';
import { alternate, arg, fmtMs, fmtRatio, ROUNDS, runBench, SMOKE, stats, type Row } from './benchReport';

/**
 * Benchmark (issue 31, the spending-limit check per request): what the check reads before every billed
 * request when a limit is set, on ledgers of 1×, 10× and 100× the month's entries. Each check follows
 * one new ledger line (the request before it, recorded by this window or another), as in use. The
 * check reads the period sums beside the ledger and the lines appended since; its cost must not follow
 * the ledger's size: 10× and 100× are each alternated with 1× in the same run, round by round. The
 * check it replaced (the month read from the ledger and summed) is context, as is a rebuild (the
 * first check of a day).
 *
 *   node out/test/bench/spendingCheck.bench.js [--rounds=5] [--checks=40]   INFERENCE_BENCH_SMOKE=1: fewer entries and checks
 */

const BASE_ENTRIES = SMOKE ? 30 : 300;
const CHECKS = arg('checks', SMOKE ? 5 : 40);
const TOKEN = { id: '6f1d2c3b-0000-4000-8000-000000000001', name: 'bench tool' };
const LIMIT = { day: 1e9, month: 1e9, warningFraction: 0.8 };

interface Ledger {
  files: PeriodSumsFiles;
  entries: number;
  bytes: number;
}

function entryAt(i: number, at: number): UsageEntry {
  return toUsageEntry({ requestId: `req_${i}`, model: i % 3 ? 'chat-small' : 'modèle-漢字', environment: i % 5 ? 'production' : 'staging', kind: 'chat', credits: i % 13 ? 0.0001 * (i % 97 + 1) : null, ...(i % 2 ? { token: TOKEN } : {}) }, at);
}

/** `count` entries spread over the month so far, every one counted by the month's sums (the old check's worst case). */
function writeLedger(dir: string, name: string, count: number, monthStart: number, now: number): Ledger {
  const file = path.join(dir, `${name}.jsonl`);
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(serializeEntry(entryAt(i, monthStart + Math.floor(((now - monthStart) * i) / count))));
  const text = parts.join('');
  fs.writeFileSync(file, text);
  return { files: { ledger: file, sums: path.join(dir, `${name}.sums.json`), pid: process.pid }, entries: count, bytes: Buffer.byteLength(text) };
}

/** Milliseconds per check (median of CHECKS), each after one appended line. */
async function checks(ledger: Ledger, check: (ledger: Ledger, now: number) => Promise<number>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < CHECKS; i++) {
    const now = Date.now();
    fs.appendFileSync(ledger.files.ledger, serializeEntry(entryAt(ledger.entries++, now)));
    const started = performance.now();
    const counted = await check(ledger, now);
    times.push(performance.now() - started);
    if (!(counted > 0)) throw new Error('the check counted nothing');
  }
  return stats(times).median;
}

/** The check as the guard makes it: the sums, then the environment's limits and the token's. */
async function sumsCheck(ledger: Ledger, now: number): Promise<number> {
  const sums = await readPeriodSums(ledger.files, currentPeriods(now));
  const [day, month] = environmentSpend(sums, 'production', LIMIT, 1, 0);
  return day.counted + month.counted + tokenSpend(sums, TOKEN.id, 1e9, 1, 0).counted;
}

/** The check before the sums: the month read from the ledger and summed. */
async function monthReadCheck(ledger: Ledger, now: number): Promise<number> {
  const entries = (await readLedgerSince(ledger.files.ledger, monthPeriod(now, undefined).start)).filter((e) => e.environment === 'production');
  const [day, month] = spendAgainstLimits({ entries, limit: LIMIT, now, allowance: 1, reserved: 0 });
  return day.counted + month.counted;
}

async function main(): Promise<Row[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spending-check-bench-'));
  try {
    const now = Date.now();
    const monthStart = monthPeriod(now, undefined).start;
    const ledgers = { 1: writeLedger(dir, 'x1', BASE_ENTRIES, monthStart, now), 10: writeLedger(dir, 'x10', BASE_ENTRIES * 10, monthStart, now), 100: writeLedger(dir, 'x100', BASE_ENTRIES * 100, monthStart, now) };
    // The first check builds each sums file (a window's first check of the day); timed once as context.
    const rebuild: Record<number, number> = {};
    for (const [size, ledger] of Object.entries(ledgers)) {
      const started = performance.now();
      await sumsCheck(ledger, Date.now());
      rebuild[Number(size)] = performance.now() - started;
    }
    const rows: Row[] = [];
    const described = new Map(Object.values(ledgers).map((ledger) => [ledger, `${ledger.entries.toLocaleString('en-US')} entries this month, ${(ledger.bytes / 1024 / 1024).toFixed(2)} MB`]));
    const describe = (ledger: Ledger) => described.get(ledger) ?? '';
    for (const size of [10, 100] as const) {
      const run = await alternate(ROUNDS, () => checks(ledgers[size], sumsCheck), () => checks(ledgers[1], sumsCheck), (ms) => ms);
      rows.push({
        what: `spending-limit check per request, ${size}× ledger (${describe(ledgers[size])}) against 1× (${describe(ledgers[1])})`,
        target: '<= 1.5x (flat)',
        measured: `${fmtRatio(run.ratios)} (${fmtMs(stats(run.measured).median)} against ${fmtMs(stats(run.baseline).median)})`,
        met: SMOKE ? undefined : run.ratios.median <= 1.5,
        data: { ratios: run.ratios.values, measured: run.measured, baseline: run.baseline },
      });
    }
    const before = { 1: await checks(ledgers[1], monthReadCheck), 100: await checks(ledgers[100], monthReadCheck) };
    rows.push({ what: '  context: the check it replaced (the month read from the ledger), 1× / 100×', target: '(context)', measured: `${fmtMs(before[1])} / ${fmtMs(before[100])}`, data: before });
    rows.push({ what: '  context: the first check of a day (sums rebuilt from the ledger), 1× / 10× / 100×', target: '(context)', measured: `${fmtMs(rebuild[1])} / ${fmtMs(rebuild[10])} / ${fmtMs(rebuild[100])}`, data: rebuild });
    return rows;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

runBench('spendingCheck', main);
