import { spawn } from 'node:child_process';
import { pathWithProjectNode, REPO_ROOT } from './paths';
import { pruneStaleOutputs } from './staleOutputs';
import { seconds } from './wait';

/**
 * `npm test` after the build: every tier in turn, each timed, all of them run even after a failure so
 * that one report shows everything; exits non-zero when any failed. INFERENCE_TEST_TIERS=unit,ui
 * runs a subset.
 */
interface Tier {
  name: string;
  command: string;
  args: string[];
  timeoutMs: number;
  env?: Record<string, string>;
}

const MINUTE = 60_000;

const TIERS: Tier[] = [
  { name: 'lint', command: 'npm', args: ['run', '--silent', 'lint'], timeoutMs: 5 * MINUTE },
  { name: 'types', command: 'npm', args: ['run', '--silent', 'typecheck'], timeoutMs: 5 * MINUTE },
  { name: 'unit', command: 'mocha', args: ['--config', 'test/unit/.mocharc.json'], timeoutMs: 5 * MINUTE },
  // The first run also provisions code-server into the cache (~5 min).
  { name: 'integration', command: 'node', args: ['out/test/harness/runIntegration.js'], timeoutMs: 15 * MINUTE },
  { name: 'ui', command: 'mocha', args: ['--config', 'test/ui/.mocharc.json'], timeoutMs: 12 * MINUTE },
  // Every benchmark in its smoke mode (seconds): keeps `npm run bench` from rotting; asserts no target.
  { name: 'bench', command: 'node', args: ['out/test/bench/runAll.js'], timeoutMs: 3 * MINUTE, env: { INFERENCE_BENCH_SMOKE: '1' } },
];

let current: ReturnType<typeof spawn> | undefined;

function runTier(tier: Tier): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(tier.command, tier.args, {
      cwd: REPO_ROOT,
      env: { ...process.env, PATH: pathWithProjectNode(), ...tier.env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    current = child;
    const timer = setTimeout(() => {
      console.error(`[test] ${tier.name} exceeded ${tier.timeoutMs / MINUTE} min; stopping it`);
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
    }, tier.timeoutMs);
    child.on('error', (error) => console.error(`[test] ${tier.name}: ${error.message}`));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      current = undefined;
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

// Children clean up after themselves on SIGTERM (see processes.ts); pass the signal on and wait.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    current?.kill(signal);
    process.exitCode = 130;
  });
}

async function main(): Promise<void> {
  pruneStaleOutputs();
  const selected = process.env.INFERENCE_TEST_TIERS?.split(',').map((name) => name.trim());
  const tiers = selected ? TIERS.filter((tier) => selected.includes(tier.name)) : TIERS;
  const started = Date.now();
  const results: { name: string; code: number; time: string }[] = [];
  for (const tier of tiers) {
    if (process.exitCode === 130) break;
    const tierStarted = Date.now();
    console.log(`\n[test] ── ${tier.name} ─────────────────────────────`);
    const code = await runTier(tier);
    results.push({ name: tier.name, code, time: seconds(tierStarted) });
    console.log(`[test] ${tier.name} ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds(tierStarted)}`);
  }
  const failed = results.filter((result) => result.code !== 0);
  console.log('\n[test] summary');
  for (const result of results) {
    console.log(`[test]   ${result.name.padEnd(12)} ${(result.code === 0 ? 'passed' : 'FAILED').padEnd(7)} ${result.time}`);
  }
  console.log(`[test] total ${seconds(started)}: ${failed.length === 0 ? 'all tiers passed' : `${failed.length} tier(s) failed`}`);
  console.log('[test] screenshots: test-results/screenshots/, logs: test-results/integration/, test-results/ui/');
  if (failed.length > 0 || results.length < tiers.length) process.exitCode = process.exitCode || 1;
}

void main();
