import * as assert from 'node:assert/strict';
import { countTests, summaryTable, totalCounts } from '../../harness/tierSummary';

describe('npm test: the closing table', () => {
  it("adds up mocha's counts over every report in a tier's output (one per integration window), colours or not", () => {
    const output = ['  12 passing (3s)', '  \u001b[32m 7 passing\u001b[0m (1s)', '  \u001b[31m2 failing\u001b[0m', '  1 pending', 'the 3 passing tests were fine'].join('\n');
    assert.deepEqual(countTests(output), { passed: 19, failed: 2, pending: 1 });
  });

  it("counts the bench runner's line per benchmark, and nothing for output without tests (lint, types)", () => {
    const bench = ['[bench] ── render.bench.js ──', '[bench] render.bench.js done in 3.1 s', '[bench] client.bench.js FAILED (1) in 0.4 s'].join('\n');
    assert.deepEqual(countTests(bench), { passed: 1, failed: 1, pending: 0 });
    assert.equal(countTests('src/a.ts:1:1 error no-unused-vars\n'), undefined);
  });

  it('shows each tier with its wall and CPU time, the cores it kept busy, its tests and the load, then the total', () => {
    const results = [
      { name: 'unit', outcome: 'passed', wallMs: 30_000, cpuMs: 27_000, tests: { passed: 700, failed: 0, pending: 0 }, load: { mean: 1.5, max: 2.25 } },
      { name: 'lint', outcome: 'FAILED', wallMs: 20_000 },
    ];
    const lines = summaryTable(results, { wallMs: 40_000, cpuMs: 50_000, cores: 2, load: { mean: 1.8, max: 2.5 } });
    assert.match(lines[0], /^tier\s+result\s+wall\s+cpu\s+cores\s+tests\s+load mean\/max$/);
    assert.match(lines[1], /^unit\s+passed\s+30\.0 s\s+27\.0 s\s+0\.90\s+700 passed\s+1\.5\/2\.3$/);
    assert.match(lines[2], /^lint\s+FAILED\s+20\.0 s\s+-\s+-\s+-\s+-$/);
    assert.match(lines[3], /^total\s+FAILED\s+40\.0 s\s+50\.0 s\s+1\.25\s+700 passed\s+1\.8\/2\.5 on 2 cores$/);
    assert.deepEqual(totalCounts(results), { passed: 700, failed: 0, pending: 0 });
  });
});
