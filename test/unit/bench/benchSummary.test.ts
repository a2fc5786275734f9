import * as assert from 'node:assert/strict';
import { benchSummary, resultLines } from '../../bench/benchSummary';

/** What benchmarks print: progress, a title, a machine line, and a table with or without outer pipes. */
const RENDER_OUTPUT = `  fast 10 KB: streamed 41 ms, one-shot 9 ms (3 s)
render benchmark
machine: 2 CPUs, load average 1.2 0.9 0.8
| what                            | target | measured (min / median ratio) | met?    |
|------|--------|-------------------------------|------|
| render, 10 KB mixed, fast model | <= 2x | 4.92x / 5.36x | NOT MET |
machine during the run: 61% busy, 3% stolen by the hypervisor (of all CPUs)
results: test-results/bench/render.json (12.0 s)
`;
const HISTORY_OUTPUT = `writing 1 MB ...
what | target | measured (min / median ratio) | met?
--- | --- | --- | ---
history bytes written / streamed byte | <= 10x | 2.00x / 2.30x | yes
`;

describe('bench summary (test-results/bench/summary.md)', () => {
  it('keeps each benchmark\'s table rows and machine lines, and drops its progress', () => {
    assert.deepEqual(resultLines(RENDER_OUTPUT), [
      'machine: 2 CPUs, load average 1.2 0.9 0.8',
      '| what                            | target | measured (min / median ratio) | met?    |',
      '|------|--------|-------------------------------|------|',
      '| render, 10 KB mixed, fast model | <= 2x | 4.92x / 5.36x | NOT MET |',
      'machine during the run: 61% busy, 3% stolen by the hypervisor (of all CPUs)',
    ]);
    assert.deepEqual(resultLines(HISTORY_OUTPUT), [
      'what | target | measured (min / median ratio) | met?',
      '--- | --- | --- | ---',
      'history bytes written / streamed byte | <= 10x | 2.00x / 2.30x | yes',
    ]);
  });

  it('gives every benchmark a section that says whether it ran, in one file', () => {
    const summary = benchSummary([
      { file: 'history.bench.js', ok: true, seconds: 4.25, output: HISTORY_OUTPUT },
      { file: 'render.bench.js', ok: false, seconds: 1, output: 'Error: no Chromium\n' },
    ], { at: new Date(Date.UTC(2026, 10, 25)), smoke: true, args: ['--rounds=3'], cpus: 2, node: 'v24.0.0' });
    assert.match(summary, /^# Benchmark results \(smoke run/);
    assert.match(summary, /`npm run bench -- --rounds=3`, 2026-11-25T00:00:00.000Z, 2 CPUs, Node v24\.0\.0\./);
    assert.match(summary, /## history: ran in 4\.3 s\n\n```text\nwhat \| target[^\n]*\n--- \| [^\n]*\nhistory bytes written[^\n]*\n```/);
    assert.match(summary, /## render: FAILED in 1\.0 s\n\n\(no results table printed\)/);
    assert.doesNotMatch(summary, /writing 1 MB/);
  });
});
