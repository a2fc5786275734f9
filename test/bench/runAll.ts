import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../harness/paths';
import { exitWhenOutputCloses } from '../harness/processes';
import { benchSummary, type BenchRun } from './benchSummary';

/**
 * `npm run bench`: every `*.bench.js` next to this file, one after the other (each in its own
 * process, so one's heap and JIT state never colour another's figures). Arguments are passed on;
 * INFERENCE_BENCH_SMOKE=1 (the `bench` tier of `npm test`) makes each a run of seconds.
 * INFERENCE_BENCH_ONLY=render,client runs a subset. What each printed is shown as it runs, and its
 * results tables are gathered into test-results/bench/summary.md (summary.smoke.md for a smoke run).
 */
const SMOKE = process.env.INFERENCE_BENCH_SMOKE === '1';
const SUMMARY_FILE = path.join(REPO_ROOT, 'test-results', 'bench', `summary${SMOKE ? '.smoke' : ''}.md`);
const only = process.env.INFERENCE_BENCH_ONLY?.split(',').map((name) => name.trim());
const benches = fs.readdirSync(__dirname)
  .filter((file) => file.endsWith('.bench.js'))
  .filter((file) => !only || only.includes(file.replace(/\.bench\.js$/, '')))
  .sort();

/** Runs one benchmark, echoing its output while keeping a copy for the summary. */
function run(file: string): Promise<BenchRun> {
  const started = Date.now();
  const chunks: Buffer[] = [];
  const child = spawn(process.execPath, [path.join(__dirname, file), ...process.argv.slice(2)], { stdio: ['inherit', 'pipe', 'inherit'] });
  child.stdout.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    process.stdout.write(chunk);
  });
  return new Promise((resolve) => {
    child.on('close', (status, signal) => {
      const ok = status === 0;
      const seconds = (Date.now() - started) / 1000;
      console.log(`[bench] ${file} ${ok ? 'done' : `FAILED (${status ?? signal})`} in ${seconds.toFixed(1)} s`);
      resolve({ file, ok, seconds, output: Buffer.concat(chunks).toString('utf8') });
    });
  });
}

async function main(): Promise<void> {
  exitWhenOutputCloses();
  const runs: BenchRun[] = [];
  for (const file of benches) {
    console.log(`\n[bench] ── ${file} ─────────────────────────────`);
    runs.push(await run(file));
  }
  const failed = runs.filter((r) => !r.ok).map((r) => r.file);
  if (benches.length === 0) failed.push('(no *.bench.js found: build the tests first)');
  fs.mkdirSync(path.dirname(SUMMARY_FILE), { recursive: true });
  fs.writeFileSync(SUMMARY_FILE, benchSummary(runs, { at: new Date(), smoke: SMOKE, args: process.argv.slice(2), cpus: os.cpus().length, node: process.version }));
  console.log(`\n[bench] ${benches.length} benchmark(s), ${failed.length ? `failed: ${failed.join(', ')}` : 'all ran'}; tables in ${path.relative(REPO_ROOT, SUMMARY_FILE)}, JSON in test-results/bench/`);
  process.exitCode = failed.length ? 1 : 0;
}

void main();
