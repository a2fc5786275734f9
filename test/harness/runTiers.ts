import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathWithProjectNode, REPO_ROOT, RESULTS_DIR } from './paths';
import { failureDigest } from './failureDigest';
import { PROVISION_FAILED, type ProvisionNeeds } from './provision';
import { pruneStaleOutputs } from './staleOutputs';
import { seconds } from './wait';

/**
 * `npm test` after the build: every tier, each timed, all of them run even after a failure so that one
 * report shows everything; exits non-zero when any failed. INFERENCE_TEST_TIERS=unit,ui runs a subset.
 *
 * Tiers of one stage run at once. The two real-VS-Code tiers mostly wait on workbenches, streams and
 * timeouts (one alone keeps ~2/3 of a 2-core machine busy), so side by side they take ~510 s where
 * one after the other took ~630 s, and every wait in them is a deadline, not a sleep.
 * INFERENCE_TEST_SERIAL=1 runs every tier alone, e.g. to read a failure without the other's load.
 */
interface Tier {
  name: string;
  command: string;
  args: string[];
  timeoutMs: number;
  env?: Record<string, string>;
  /** What it needs installed (Chromium, code-server): provisioned once, before it starts. */
  needs?: ProvisionNeeds;
  /** A tier of the same stage this one starts after (it runs alongside the others still running then). */
  after?: string;
}

type Stage = Tier[];

const MINUTE = 60_000;

/**
 * The UI files of the second UI tier, about a third of the UI tier's time. That tier starts when
 * integration ends: the first UI tier alone left a third of the machine idle for the last half of
 * the run, and the UI tier is what decides how long `npm test` takes.
 */
const LATE_UI_FILES = ['chatHistory', 'demo', 'environments', 'gettingStarted', 'images', 'localEndpoint', 'spendingLimits', 'usage', 'usageTokens', 'workbench'];

/** The built UI test files of one of the two UI tiers (every file is in exactly one). */
function uiFiles(late: boolean): string[] {
  const dir = path.join('out', 'test', 'ui');
  const files = fs.existsSync(path.join(REPO_ROOT, dir)) ? fs.readdirSync(path.join(REPO_ROOT, dir)) : [];
  return files.filter((file) => file.endsWith('.test.js') && LATE_UI_FILES.includes(file.slice(0, -'.test.js'.length)) === late)
    .sort().map((file) => path.join(dir, file));
}

const UI_NEEDS: ProvisionNeeds = { chromium: true, codeServer: true };

const STAGES: Stage[] = [
  // Both keep a core busy: side by side they save ~1 s of 17, so they stay one after the other.
  // Each of these keeps one core busy: side by side they take the time of the longest (unit), where
  // one after the other took ~50 s with the second core idle.
  [
    { name: 'unit', command: 'mocha', args: ['--config', 'test/unit/.mocharc.json'], timeoutMs: 5 * MINUTE },
    { name: 'lint', command: 'npm', args: ['run', '--silent', 'lint'], timeoutMs: 5 * MINUTE },
    { name: 'types', command: 'npm', args: ['run', '--silent', 'typecheck'], timeoutMs: 5 * MINUTE },
  ],
  // They start once provisioning (which began with lint) has finished, so they never install side by side.
  [
    { name: 'ui', command: 'mocha', args: ['--config', 'test/ui/.mocharc.json', ...uiFiles(false)], timeoutMs: 15 * MINUTE, needs: UI_NEEDS },
    { name: 'integration', command: 'node', args: ['out/test/harness/runIntegration.js'], timeoutMs: 15 * MINUTE, needs: UI_NEEDS },
    { name: 'ui-late', command: 'mocha', args: ['--config', 'test/ui/.mocharc.json', ...uiFiles(true)], timeoutMs: 10 * MINUTE, needs: UI_NEEDS, after: 'integration' },
    // Every benchmark in its smoke mode (seconds): keeps `npm run bench` from rotting; asserts no target.
    // It takes integration's place beside the UI tier, the longest, so it adds nothing to the run's time.
    { name: 'bench', command: 'node', args: ['out/test/bench/runAll.js'], timeoutMs: 3 * MINUTE, env: { INFERENCE_BENCH_SMOKE: '1' }, needs: { chromium: true }, after: 'integration' },
  ],
];

const running = new Set<ReturnType<typeof spawn>>();

/**
 * Provisions what the selected tiers need, in one child process started before the first tier, so
 * that it overlaps lint, types and unit (which need nothing installed). Its `[provision]` lines are
 * printed as they come, everything else (apt-get, npm) goes to test-results/provision.log. Resolves
 * to the one-line reason when it failed.
 */
function startProvisioning(needs: ProvisionNeeds): Promise<string | undefined> {
  const names = [needs.chromium && 'chromium', needs.codeServer && 'code-server'].filter((name): name is string => !!name);
  if (names.length === 0) return Promise.resolve(undefined);
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const logFile = path.join(RESULTS_DIR, 'provision.log');
  const log = fs.createWriteStream(logFile);
  return new Promise((resolve) => {
    const child = spawn('node', ['out/test/harness/provision.js', ...names], {
      cwd: REPO_ROOT,
      env: { ...process.env, PATH: pathWithProjectNode() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    let failure: string | undefined;
    let pending = '';
    const onData = (chunk: Buffer): void => {
      log.write(chunk);
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith(PROVISION_FAILED)) failure = line.slice(PROVISION_FAILED.length);
        else if (line.startsWith('[provision]')) console.log(line);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', (code) => {
      running.delete(child);
      log.end();
      resolve(code === 0 ? undefined : failure ?? `provisioning exited ${code}; see ${path.relative(REPO_ROOT, logFile)}`);
    });
  });
}

function tierLog(name: string): string {
  return path.join(RESULTS_DIR, `${name}.log`);
}

/**
 * Runs one tier. Its output always goes into test-results/<tier>.log (the failure digest reads it);
 * to the terminal as it comes when `live`, else printed whole when the tier ends so that two tiers
 * never interleave lines.
 */
function runTier(tier: Tier, live: boolean): Promise<number> {
  return new Promise((resolve) => {
    const logFile = tierLog(tier.name);
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    const log = fs.openSync(logFile, 'w');
    const child = spawn(tier.command, tier.args, {
      cwd: REPO_ROOT,
      env: { ...process.env, PATH: pathWithProjectNode(), ...tier.env, ...(live ? {} : { FORCE_COLOR: '0' }) },
      stdio: live ? ['ignore', 'pipe', 'pipe'] : ['ignore', log, log],
    });
    if (live) {
      for (const [from, to] of [[child.stdout, process.stdout], [child.stderr, process.stderr]] as const) {
        from?.on('data', (chunk: Buffer) => {
          to.write(chunk);
          fs.writeSync(log, chunk);
        });
      }
    }
    running.add(child);
    const timer = setTimeout(() => {
      console.error(`[test] ${tier.name} exceeded ${tier.timeoutMs / MINUTE} min; stopping it`);
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
    }, tier.timeoutMs);
    child.on('error', (error) => console.error(`[test] ${tier.name}: ${error.message}`));
    let finished = false;
    const finish = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      running.delete(child);
      child.stdout?.destroy();
      child.stderr?.destroy();
      fs.closeSync(log);
      if (!live) {
        console.log(`\n[test] ── ${tier.name} (ran alongside; its whole output, also in ${path.relative(REPO_ROOT, logFile)}) ──`);
        process.stdout.write(fs.readFileSync(logFile, 'utf8'));
      }
      resolve(code ?? (signal ? 128 : 1));
    };
    child.on('close', finish);
    // A process the tier left behind (a code-server that outlived mocha) may hold the pipes open, so
    // the tier ends at its own exit, after a moment for the output still in the pipes.
    child.on('exit', (code, signal) => setTimeout(() => finish(code, signal), 2_000));
  });
}

// Children clean up after themselves on SIGTERM (see processes.ts); pass the signal on and wait.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of running) child.kill(signal);
    process.exitCode = 130;
  });
}

async function main(): Promise<void> {
  pruneStaleOutputs();
  const selected = process.env.INFERENCE_TEST_TIERS?.split(',').map((name) => name.trim());
  const serial = process.env.INFERENCE_TEST_SERIAL === '1';
  const stages = STAGES.flatMap((stage) => (serial ? stage.map((tier) => [tier]) : [stage]))
    // `ui` selects both UI tiers.
    .map((stage) => stage.filter((tier) => !selected || selected.includes(tier.name) || selected.includes(tier.name.split('-')[0])))
    .filter((stage) => stage.length > 0);
  const tiers = stages.flat();
  const started = Date.now();
  const provisioning = startProvisioning({
    chromium: tiers.some((tier) => tier.needs?.chromium),
    codeServer: tiers.some((tier) => tier.needs?.codeServer),
  });
  let provisioned = false;
  void provisioning.then(() => (provisioned = true));
  let provisioningFailure: string | undefined;
  const results: { name: string; code: number; time: string }[] = [];
  for (const stage of stages) {
    if (process.exitCode === 130) break;
    const others = stage.slice(1).map((tier) => tier.name);
    console.log(`\n[test] ── ${stage[0].name}${others.length ? ` (alongside: ${others.join(', ')})` : ''} ─────────────────────────────`);
    if (stage.some((tier) => tier.needs)) {
      if (!provisioned) console.log('[test] waiting for provisioning to finish (its output: test-results/provision.log)…');
      provisioningFailure = await provisioning;
      if (provisioningFailure) console.error(`[test] provisioning failed: ${provisioningFailure}`);
    }
    const runs = new Map<string, Promise<void>>();
    for (const [index, tier] of stage.entries()) {
      const predecessor = (tier.after && runs.get(tier.after)) || Promise.resolve();
      runs.set(tier.name, predecessor.then(async () => {
        const tierStarted = Date.now();
        if (tier.needs && provisioningFailure) {
          results.push({ name: tier.name, code: 1, time: 'not run: provisioning failed' });
          return;
        }
        const code = await runTier(tier, index === 0);
        results.push({ name: tier.name, code, time: seconds(tierStarted) });
        console.log(`[test] ${tier.name} ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds(tierStarted)}`);
      }));
    }
    await Promise.all(runs.values());
  }
  const failed = results.filter((result) => result.code !== 0);
  results.sort((a, b) => tiers.findIndex((tier) => tier.name === a.name) - tiers.findIndex((tier) => tier.name === b.name));
  console.log('\n[test] summary');
  for (const result of results) {
    console.log(`[test]   ${result.name.padEnd(12)} ${(result.code === 0 ? 'passed' : 'FAILED').padEnd(7)} ${result.time}`);
  }
  console.log(`[test] total ${seconds(started)}: ${failed.length === 0 ? 'all tiers passed' : `${failed.length} tier(s) failed`}`);
  for (const result of failed) {
    if (!fs.existsSync(tierLog(result.name))) continue;
    console.log(`\n[test] why ${result.name} failed (its whole output: ${path.relative(REPO_ROOT, tierLog(result.name))}):`);
    for (const line of failureDigest(fs.readFileSync(tierLog(result.name), 'utf8'))) console.log(`[test]   ${line}`);
  }
  console.log('[test] screenshots: test-results/screenshots/, logs: test-results/integration/, test-results/ui/');
  if (failed.length > 0 || results.length < tiers.length) process.exitCode = process.exitCode || 1;
}

void main();
