import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseLedger, serializeEntry, toUsageEntry } from '../../src/core/usage/ledger';
import { readLedgerSince } from '../../src/core/usage/ledgerFile';
import { buildUsageReport, REPORT_DAYS, windowStart } from '../../src/core/usage/report';
import { fmtMs, ROUNDS, runBench, SMOKE, stats, type Row } from './benchReport';

/**
 * Benchmark (issue 28, rows "activation with a 400-day ledger" and "usage view first paint"): the
 * ledger reads the extension does, on a ledger of 400 days of 100 requests a day. Activation reads
 * today (what the status bar shows) and is compared, alternately, with the same read of an empty
 * ledger; the usage view reads its 30 days and builds the report it posts. The previous read (the
 * whole file parsed) is shown as context.
 *
 *   node out/test/bench/usageLedger.bench.js [--rounds=5]   INFERENCE_BENCH_SMOKE=1: 40 days
 */

const DAYS = SMOKE ? 40 : 400;
const PER_DAY = 100;
const DAY_MS = 86_400_000;
const MODELS = ['chat-small', 'chat-large', 'image-1', 'modèle-漢字'];

/**
 * Each day's requests fall between that day's local midnight and the time of day it is now, so that
 * today holds all of its requests at any hour (a run just after midnight included).
 */
function writeLedger(file: string, now: number): number {
  const todayStart = windowStart(now, 1);
  const spacing = Math.min(300_000, (now - todayStart) / (PER_DAY + 1));
  let text = '';
  for (let day = DAYS - 1; day >= 0; day--) {
    for (let i = 0; i < PER_DAY; i++) {
      const at = Math.floor(todayStart - day * DAY_MS + (i + 1) * spacing);
      const model = MODELS[i % MODELS.length];
      text += serializeEntry(toUsageEntry({ requestId: `req_${day}_${i}`, model, environment: i % 5 ? 'production' : 'staging', kind: model.startsWith('image') ? 'image' : 'chat', credits: i % 13 ? 0.0001 * (i + 1) : null }, at));
    }
  }
  fs.writeFileSync(file, text);
  return Buffer.byteLength(text);
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await run();
  return { ms: performance.now() - started, result };
}

async function main(): Promise<Row[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'usage-ledger-bench-'));
  try {
    // A minute into the day at least, so that today's requests are not all within a millisecond.
    const now = Math.max(Date.now(), windowStart(Date.now(), 1) + 60_000);
    const full = path.join(dir, 'ledger.jsonl');
    const empty = path.join(dir, 'empty.jsonl');
    const bytes = writeLedger(full, now);
    fs.writeFileSync(empty, '');
    const today = windowStart(now, 1);
    const activation: Record<'full' | 'empty', number[]> = { full: [], empty: [] };
    const view: number[] = [];
    const whole: number[] = [];
    // Warm the code paths once, as a window's second start would find them.
    await readLedgerSince(full, today);
    for (let round = 0; round < ROUNDS; round++) {
      for (const which of round % 2 === 0 ? (['full', 'empty'] as const) : (['empty', 'full'] as const)) {
        const { ms, result } = await timed(() => readLedgerSince(which === 'full' ? full : empty, today));
        if (which === 'full' && result.length < PER_DAY / 2) throw new Error(`today has ${result.length} entries`);
        activation[which].push(ms);
      }
      const shown = await timed(async () => buildUsageReport(await readLedgerSince(full, windowStart(now, REPORT_DAYS)), now));
      if (shown.result.requests === 0) throw new Error('the report is empty');
      view.push(shown.ms);
      whole.push((await timed(async () => parseLedger(await fs.promises.readFile(full, 'utf8')))).ms);
    }
    // Min against min and median against median: a difference per round would carry both runs' noise.
    const min = stats(activation.full).min - stats(activation.empty).min;
    const median = stats(activation.full).median - stats(activation.empty).median;
    const ledger = `${DAYS}-day ledger of ${PER_DAY} requests a day (${(bytes / 1024 / 1024).toFixed(1)} MB)`;
    const signed = (ms: number) => `${ms < 0 ? '-' : '+'}${fmtMs(Math.abs(ms))}`;
    const range = (values: number[]) => `${fmtMs(stats(values).min)} / ${fmtMs(stats(values).median)}`;
    return [
      { what: `activation's ledger read (today), ${ledger}, minus an empty ledger's`, target: '<= +5 ms', measured: `${signed(min)} / ${signed(median)} (${range(activation.full)} against ${range(activation.empty)})`, met: SMOKE ? undefined : median <= 5, data: activation },
      { what: `usage view first data (30 days read, report built), ${ledger}`, target: '<= 300 ms', measured: range(view), met: SMOKE ? undefined : stats(view).median <= 300, data: { ms: view } },
      { what: `  context: the whole file parsed (every window's start-up before)`, target: '(context)', measured: range(whole) },
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

runBench('usageLedger', main);
