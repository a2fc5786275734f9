import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../harness/paths';
import { exitWhenOutputCloses } from '../harness/processes';

/**
 * What every benchmark shares (see the conventions: one file per topic, alternated rounds, a table of
 * rows with target and met, JSON under test-results/bench/, a smoke mode of a few seconds).
 */

/** `INFERENCE_BENCH_SMOKE=1`: tiny sizes and few rounds; proves the machinery works, asserts no target. */
export const SMOKE = process.env.INFERENCE_BENCH_SMOKE === '1';

export function arg(name: string, fallback: number): number {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
}

/** Rounds of alternated variants: at least 5 in a real run. */
export const ROUNDS = arg('rounds', SMOKE ? 2 : 5);

export interface Row {
  what: string;
  target: string;
  /** What the table shows, e.g. "1.31x / 1.48x" (min / median ratio) plus context. */
  measured: string;
  /** Undefined for rows that only give context (no target of this issue, or not measured in smoke). */
  met?: boolean;
  /** Raw figures for the JSON. */
  data?: Record<string, unknown>;
}

export interface RatioStats {
  min: number;
  median: number;
  max: number;
  values: number[];
}

export function stats(values: number[]): RatioStats {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { min: sorted[0], median, max: sorted[sorted.length - 1], values };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Runs `measured` and `baseline` alternately for `rounds` rounds (the order flips every round so that
 * neither always runs on a warmer machine) and returns the per-round ratios measured / baseline.
 */
export async function alternate<T>(
  rounds: number,
  measured: (round: number) => Promise<T>,
  baseline: (round: number) => Promise<T>,
  value: (result: T) => number,
): Promise<{ ratios: RatioStats; measured: T[]; baseline: T[] }> {
  const m: T[] = [];
  const b: T[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      m.push(await measured(round));
      b.push(await baseline(round));
    } else {
      b.push(await baseline(round));
      m.push(await measured(round));
    }
  }
  return { ratios: stats(m.map((r, i) => value(r) / value(b[i]))), measured: m, baseline: b };
}

export const fmtRatio = (s: RatioStats): string => `${s.min.toFixed(2)}x / ${s.median.toFixed(2)}x`;
export const fmtMs = (ms: number): string => `${ms.toFixed(ms < 10 ? 2 : 0)} ms`;

export function printTable(title: string, rows: Row[]): void {
  const header = ['what', 'target', 'measured (min / median ratio)', 'met?'];
  const cells = rows.map((r) => [r.what, r.target, r.measured, r.met === undefined ? '-' : r.met ? 'met' : 'NOT MET']);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
  console.log(`\n${title}${SMOKE ? ' (smoke run: sizes and rounds too small for the targets)' : ''}`);
  console.log(`machine: ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const c of cells) console.log(line(c));
}

/** Writes test-results/bench/<topic>.json (smoke runs get their own file so they never mask a real run). */
export function writeResults(topic: string, rows: Row[], extra: Record<string, unknown> = {}): string {
  const dir = path.join(REPO_ROOT, 'test-results', 'bench');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${topic}${SMOKE ? '.smoke' : ''}.json`);
  const report = { topic, smoke: SMOKE, rounds: ROUNDS, at: new Date().toISOString(), cpus: os.cpus().length, loadAverage: os.loadavg(), rows, ...extra };
  fs.writeFileSync(file, JSON.stringify(report, null, 2));
  return file;
}

/** The machine's CPU counters (Linux /proc/stat, in ticks), or undefined elsewhere. */
function cpuTicks(): { busy: number; steal: number; total: number } | undefined {
  try {
    const [user, nice, system, idle, iowait, irq, softirq, steal] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return { busy: user + nice + system + irq + softirq, steal, total: user + nice + system + idle + iowait + irq + softirq + steal };
  } catch {
    return undefined;
  }
}

/**
 * How busy the machine was during a run, and how much CPU its hypervisor took away (steal): a
 * virtual machine's wall times include waiting for a core it was not given.
 */
function machineDuring(before: ReturnType<typeof cpuTicks>): string | undefined {
  const after = cpuTicks();
  if (!before || !after || after.total <= before.total) return undefined;
  const share = (a: number, b: number) => `${((100 * (a - b)) / (after.total - before.total)).toFixed(0)}%`;
  return `machine during the run: ${share(after.busy, before.busy)} busy, ${share(after.steal, before.steal)} stolen by the hypervisor (of all CPUs)`;
}

/** Runs a benchmark's main, printing its failure and setting the exit code. */
export function runBench(topic: string, main: () => Promise<Row[]>): void {
  exitWhenOutputCloses();
  const started = Date.now();
  const ticks = cpuTicks();
  main()
    .then((rows) => {
      printTable(`${topic} benchmark`, rows);
      const machine = machineDuring(ticks);
      if (machine) console.log(machine);
      console.log(`results: ${path.relative(REPO_ROOT, writeResults(topic, rows, { machine }))} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    })
    .catch((error: unknown) => {
      console.error(`[bench ${topic}] failed: ${error instanceof Error ? error.stack : String(error)}`);
      process.exitCode = 1;
    });
}
