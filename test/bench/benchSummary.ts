/**
 * The one results file of `npm run bench`: every benchmark's table of `what | target | measured |
 * met?` rows and its machine lines, picked out of what it printed, under test-results/ (ignored by
 * git). test/bench/README.md summarises what these files showed; no figures are kept by hand.
 */

export interface BenchRun {
  /** The benchmark's file, e.g. render.bench.js. */
  file: string;
  ok: boolean;
  seconds: number;
  /** Everything it printed to stdout. */
  output: string;
}

export interface SummaryContext {
  at: Date;
  smoke: boolean;
  args: string[];
  cpus: number;
  node: string;
}

/** A row of a results table (`a | b | c`, with or without outer pipes), or a line saying how busy the machine was. */
const RESULT_LINE = /\S\s+\|\s+\S|^\s*\|?\s*-{3,}\s*\||^\s*machine\b/i;

export function resultLines(output: string): string[] {
  return output.split('\n').map((line) => line.trimEnd()).filter((line) => RESULT_LINE.test(line));
}

export function benchSummary(runs: BenchRun[], context: SummaryContext): string {
  const lines = [
    `# Benchmark results${context.smoke ? ' (smoke run: sizes and rounds too small for the targets)' : ''}`,
    '',
    `\`npm run bench${context.args.length ? ` -- ${context.args.join(' ')}` : ''}\`, ${context.at.toISOString()}, ${context.cpus} CPUs, Node ${context.node}.`,
    'Written by test/bench/runAll.ts; each benchmark\'s raw figures are in test-results/bench/<topic>.json.',
  ];
  for (const run of runs) {
    const rows = resultLines(run.output);
    lines.push('', `## ${run.file.replace(/\.bench\.js$/, '')}: ${run.ok ? 'ran' : 'FAILED'} in ${run.seconds.toFixed(1)} s`, '');
    lines.push(...(rows.length ? ['```text', ...rows, '```'] : ['(no results table printed)']));
  }
  return `${lines.join('\n')}\n`;
}
