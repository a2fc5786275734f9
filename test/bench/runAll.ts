import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * `npm run bench`: every `*.bench.js` next to this file, one after the other (each in its own
 * process, so one's heap and JIT state never colour another's figures). Arguments are passed on;
 * INFERENCE_BENCH_SMOKE=1 (the `bench` tier of `npm test`) makes each a run of seconds.
 * INFERENCE_BENCH_ONLY=render,client runs a subset.
 */
const only = process.env.INFERENCE_BENCH_ONLY?.split(',').map((name) => name.trim());
const benches = fs.readdirSync(__dirname)
  .filter((file) => file.endsWith('.bench.js'))
  .filter((file) => !only || only.includes(file.replace(/\.bench\.js$/, '')))
  .sort();
const failed: string[] = [];
for (const file of benches) {
  const started = Date.now();
  console.log(`\n[bench] ── ${file} ─────────────────────────────`);
  const result = spawnSync(process.execPath, [path.join(__dirname, file), ...process.argv.slice(2)], { stdio: 'inherit' });
  const ok = result.status === 0;
  if (!ok) failed.push(file);
  console.log(`[bench] ${file} ${ok ? 'done' : `FAILED (${result.status ?? result.signal})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
if (benches.length === 0) failed.push('(no *.bench.js found: build the tests first)');
console.log(`\n[bench] ${benches.length} benchmark(s), ${failed.length ? `failed: ${failed.join(', ')}` : 'all ran'}; JSON in test-results/bench/`);
process.exitCode = failed.length ? 1 : 0;
