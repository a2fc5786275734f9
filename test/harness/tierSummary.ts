/**
 * The table `npm test` ends with: per tier its result, wall time, CPU time, the cores it kept busy,
 * its tests, and the machine's load meanwhile; then one line with every test counted, which CI reads.
 */
import { withoutColours } from './failureDigest';

export interface TestCounts {
  passed: number;
  failed: number;
  pending: number;
}

/**
 * What a tier's output says it ran: mocha's closing counts, added up over every report in it (the
 * integration tier prints one per window), or the bench runner's line per benchmark. Undefined when
 * the output has neither (lint, types).
 */
export function countTests(output: string): TestCounts | undefined {
  const counts: TestCounts = { passed: 0, failed: 0, pending: 0 };
  let found = false;
  for (const line of withoutColours(output).split(/\r?\n/)) {
    const mocha = /^\s*(\d+) (passing|failing|pending)\b/.exec(line);
    const bench = /^\[bench\] \S+\.bench\.js (done|FAILED)\b/.exec(line);
    if (mocha) {
      found = true;
      const key = ({ passing: 'passed', failing: 'failed', pending: 'pending' } as const)[mocha[2] as 'passing' | 'failing' | 'pending'];
      counts[key] += Number(mocha[1]);
    } else if (bench) {
      found = true;
      counts[bench[1] === 'done' ? 'passed' : 'failed']++;
    }
  }
  return found ? counts : undefined;
}

export interface TierResult {
  name: string;
  /** 'passed', 'FAILED', or why it did not run. */
  outcome: string;
  wallMs?: number;
  /** Its processes' CPU time (user + system), where the platform tells. */
  cpuMs?: number;
  tests?: TestCounts;
  /** The 1-minute load average sampled while it ran: mean and highest. */
  load?: { mean: number; max: number };
}

const secondsText = (ms: number | undefined): string => (ms === undefined ? '-' : `${(ms / 1000).toFixed(1)} s`);

function testsText(tests: TestCounts | undefined): string {
  if (!tests) return '-';
  return [`${tests.passed} passed`, tests.failed > 0 && `${tests.failed} failed`, tests.pending > 0 && `${tests.pending} pending`].filter(Boolean).join(', ');
}

export function summaryTable(results: readonly TierResult[], run: { wallMs: number; cpuMs?: number; cores: number; load: { mean: number; max: number } }): string[] {
  const rows = [
    ['tier', 'result', 'wall', 'cpu', 'cores', 'tests', 'load mean/max'],
    ...results.map((result) => [
      result.name,
      result.outcome,
      secondsText(result.wallMs),
      secondsText(result.cpuMs),
      result.cpuMs !== undefined && result.wallMs ? (result.cpuMs / result.wallMs).toFixed(2) : '-',
      testsText(result.tests),
      result.load ? `${result.load.mean.toFixed(1)}/${result.load.max.toFixed(1)}` : '-',
    ]),
    [
      'total',
      results.every((result) => result.outcome === 'passed') ? 'passed' : 'FAILED',
      secondsText(run.wallMs),
      secondsText(run.cpuMs),
      run.cpuMs !== undefined ? (run.cpuMs / run.wallMs).toFixed(2) : '-',
      testsText(totalCounts(results)),
      `${run.load.mean.toFixed(1)}/${run.load.max.toFixed(1)} on ${run.cores} cores`,
    ],
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd());
}

export function totalCounts(results: readonly TierResult[]): TestCounts {
  const total: TestCounts = { passed: 0, failed: 0, pending: 0 };
  for (const result of results) {
    total.passed += result.tests?.passed ?? 0;
    total.failed += result.tests?.failed ?? 0;
    total.pending += result.tests?.pending ?? 0;
  }
  return total;
}
