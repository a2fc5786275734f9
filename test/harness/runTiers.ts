import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathWithProjectNode, REPO_ROOT, RESULTS_DIR } from './paths';
import { failureDigest } from './failureDigest';
import { machineBusyMs, MarkedCpu, processesMarked } from './markedProcesses';
import { PROVISION_FAILED, type ProvisionNeeds } from './provision';
import { pruneStaleOutputs } from './staleOutputs';
import { tiersToStart } from './tierSchedule';
import { countTests, summaryTable, totalCounts, type TierResult } from './tierSummary';
import { seconds } from './wait';

/**
 * `npm test` after the build: every tier, each timed, all of them run even after a failure so that one
 * report shows everything; exits non-zero when any failed. INFERENCE_TEST_TIERS=unit,ui runs a subset.
 *
 * Tiers run side by side only as far as the machine's cores allow (tierSchedule.ts): each declares the
 * cores it keeps busy, as the summary measured them. INFERENCE_TEST_CORES overrides the machine's
 * count (e.g. to see how a smaller machine schedules); INFERENCE_TEST_SERIAL=1 runs each tier alone.
 */
interface Tier {
  name: string;
  command: string;
  args: string[];
  /** The cores it keeps busy while it runs (the summary's `cores` column on a quiet 2-core machine). */
  cores: number;
  /**
   * A backstop for a hang that no test's own timeout caught: twice the tier's quiet time or more. A
   * slow machine is not a hang; each test's own limit names the step it was waiting for.
   */
  limitMs: number;
  env?: Record<string, string>;
  /** What it needs installed (Chromium, code-server): provisioned once, before it starts. */
  needs?: ProvisionNeeds;
}

const MINUTE = 60_000;

/**
 * The UI files of the second UI tier: it follows integration on the second core, and the two
 * together take about as long as the first UI tier (each file says what it took: "[ui] <file> took").
 */
const LATE_UI_FILES = ['chatApplyUntrusted', 'chatHistory', 'chatHostile', 'demo', 'environments', 'images', 'usage', 'usageTokens'];

/** The built UI test files of one of the two UI tiers (every file is in exactly one). */
function uiFiles(late: boolean): string[] {
  const dir = path.join('out', 'test', 'ui');
  const files = fs.existsSync(path.join(REPO_ROOT, dir)) ? fs.readdirSync(path.join(REPO_ROOT, dir)) : [];
  return files.filter((file) => file.endsWith('.test.js') && LATE_UI_FILES.includes(file.slice(0, -'.test.js'.length)) === late)
    .sort().map((file) => path.join(dir, file));
}

const UI_NEEDS: ProvisionNeeds = { chromium: true, codeServer: true };

/**
 * In priority order: the UI and integration tiers first, so that the run ends when its longest lane
 * does. Lint and types start at once all the same, since they need nothing installed and the others
 * wait for provisioning to confirm (or install) Chromium and code-server. Each real-VS-Code tier
 * keeps most of a core busy (a file's workbench renders, its code-server and extension host run), so
 * on 2 cores they run two at a time: ui beside integration, then ui-late.
 * `cores` is what each tier kept busy in whole runs on 2 cores (the summary's column: ui 0.92-0.97,
 * integration 0.74-0.78, unit 0.31-0.35, the others 0.83-0.96): the unit tier, mostly waiting on its
 * tests' timers, fits beside ui and integration instead of taking a lane at the end.
 * Backstops (limitMs) are about twice each tier's time alone on a quiet 2-core machine: ui 452 s,
 * integration 252 s, ui-late 180 s, unit 24 s, bench 33 s, types 10 s, lint 7 s.
 */
const TIERS: Tier[] = [
  { name: 'ui', command: 'mocha', args: ['--config', 'test/ui/.mocharc.json', ...uiFiles(false)], cores: 0.95, limitMs: 15 * MINUTE, needs: UI_NEEDS },
  { name: 'integration', command: 'node', args: ['out/test/harness/runIntegration.js'], cores: 0.75, limitMs: 12 * MINUTE, needs: UI_NEEDS },
  { name: 'ui-late', command: 'mocha', args: ['--config', 'test/ui/.mocharc.json', ...uiFiles(true)], cores: 0.95, limitMs: 10 * MINUTE, needs: UI_NEEDS },
  { name: 'lint', command: 'npm', args: ['run', '--silent', 'lint'], cores: 0.9, limitMs: 5 * MINUTE },
  { name: 'types', command: 'npm', args: ['run', '--silent', 'typecheck'], cores: 0.9, limitMs: 5 * MINUTE },
  { name: 'unit', command: 'mocha', args: ['--config', 'test/unit/.mocharc.json'], cores: 0.3, limitMs: 5 * MINUTE },
  // Every benchmark in its smoke mode (seconds): keeps `npm run bench` from rotting; asserts no target.
  // Chromium for the webview pages, code-server for the activation benchmark's window.
  { name: 'bench', command: 'node', args: ['out/test/bench/runAll.js'], cores: 0.95, limitMs: 5 * MINUTE, env: { INFERENCE_BENCH_SMOKE: '1' }, needs: UI_NEEDS },
];

/**
 * Every process a tier starts inherits this variable, with the tier's own value: stopping the tier
 * stops all of them, code-servers in process groups of their own included (processesMarked).
 */
const TIER_MARK = 'INFERENCE_TEST_TIER';
const markOf = (tier: Tier): string => `${process.pid}:${tier.name}`;

interface Running {
  tier: Tier;
  child: ChildProcess;
}
const running = new Set<Running>();

/** Sends `signal` to the tier's process group and to every process of its mark; returns the latter's command lines. */
function signalTier(run: Running, signal: NodeJS.Signals): string[] {
  const marked = processesMarked(TIER_MARK, markOf(run.tier));
  if (run.child.pid !== undefined) {
    try {
      process.kill(-run.child.pid, signal);
    } catch {
      // The group is gone.
    }
  }
  for (const { pid } of marked) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone meanwhile.
    }
  }
  return marked.map(({ command }) => command);
}

/** The 1-minute load average and each tier's CPU time, every few seconds: each tier's row shows what it cost and ran beside. */
const loadSamples: { at: number; load: number }[] = [];
const tierCpu = new MarkedCpu(TIER_MARK);
function sample(): void {
  loadSamples.push({ at: Date.now(), load: os.loadavg()[0] });
  tierCpu.sample();
}

function loadBetween(from: number, to: number): { mean: number; max: number } {
  const samples = loadSamples.filter((sample) => sample.at >= from && sample.at <= to).map((sample) => sample.load);
  if (samples.length === 0) samples.push(os.loadavg()[0]);
  return { mean: samples.reduce((sum, load) => sum + load, 0) / samples.length, max: Math.max(...samples) };
}

/** The provisioning process while it runs (apt-get, npm): a signal to `npm test` reaches it too. */
let provisioningChild: ChildProcess | undefined;

/**
 * Provisions what the selected tiers need, in one child process started before the first tier, so
 * that it overlaps the tiers that need nothing installed. Its `[provision]` lines are printed as they
 * come, everything else (apt-get, npm) goes to test-results/provision.log. Resolves to the one-line
 * reason when it failed.
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
    provisioningChild = child;
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
      provisioningChild = undefined;
      log.end();
      resolve(code === 0 ? undefined : failure ?? `provisioning exited ${code}; see ${path.relative(REPO_ROOT, logFile)}`);
    });
  });
}

function tierLog(name: string): string {
  return path.join(RESULTS_DIR, `${name}.log`);
}

/** Only one tier prints as it goes; the others print their whole output when they end, never interleaved. */
let liveTier: string | undefined;

/**
 * Runs one tier in a process group of its own, marked (TIER_MARK). Its output always goes into
 * test-results/<tier>.log (the failure digest reads it); to the terminal as it comes when it is the
 * live tier. When it ends, anything it left running is stopped and named.
 */
function runTier(tier: Tier): Promise<TierResult> {
  const live = liveTier === undefined;
  if (live) liveTier = tier.name;
  const started = Date.now();
  return new Promise((resolve) => {
    const logFile = tierLog(tier.name);
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    const log = fs.openSync(logFile, 'w');
    const child = spawn(tier.command, tier.args, {
      cwd: REPO_ROOT,
      env: { ...process.env, PATH: pathWithProjectNode(), ...tier.env, [TIER_MARK]: markOf(tier), ...(live ? {} : { FORCE_COLOR: '0' }) },
      stdio: live ? ['ignore', 'pipe', 'pipe'] : ['ignore', log, log],
      detached: true,
    });
    const run: Running = { tier, child };
    running.add(run);
    if (live) {
      for (const [from, to] of [[child.stdout, process.stdout], [child.stderr, process.stderr]] as const) {
        from?.on('data', (chunk: Buffer) => {
          to.write(chunk);
          fs.writeSync(log, chunk);
        });
      }
    }
    let stoppedByLimit = false;
    const limit = setTimeout(() => {
      stoppedByLimit = true;
      console.error(`[test] ${tier.name} ran past its ${tier.limitMs / MINUTE} min backstop (a hang no test's own limit caught); stopping it and all it started`);
      signalTier(run, 'SIGTERM');
      setTimeout(() => signalTier(run, 'SIGKILL'), 15_000).unref();
    }, tier.limitMs);
    child.on('error', (error) => console.error(`[test] ${tier.name}: ${error.message}`));
    let finished = false;
    const finish = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (finished) return;
      finished = true;
      clearTimeout(limit);
      running.delete(run);
      child.stdout?.destroy();
      child.stderr?.destroy();
      fs.closeSync(log);
      tierCpu.sample();
      const leftovers = signalTier(run, 'SIGKILL');
      if (leftovers.length > 0) console.error(`[test] ${tier.name} left ${leftovers.length} process(es) running when it ended; stopped them:\n${leftovers.map((command) => `[test]   ${command}`).join('\n')}`);
      const output = fs.readFileSync(logFile, 'utf8');
      if (live) liveTier = undefined;
      else {
        console.log(`\n[test] ── ${tier.name} (ran alongside; its whole output, also in ${path.relative(REPO_ROOT, logFile)}) ──`);
        process.stdout.write(output);
      }
      const exitCode = code ?? (signal ? 128 : 1);
      const outcome = exitCode === 0 ? 'passed' : stoppedByLimit ? 'FAILED (stopped by its backstop)' : 'FAILED';
      console.log(`[test] ${tier.name} ${outcome === 'passed' ? 'passed' : `${outcome}, exit ${exitCode}`} in ${seconds(started)}`);
      resolve({ name: tier.name, outcome, wallMs: Date.now() - started, cpuMs: tierCpu.cpuMs(markOf(tier)), tests: countTests(output), load: loadBetween(started, Date.now()) });
    };
    child.on('close', finish);
    child.on('exit', (code, signal) => {
      // A process the tier left behind may hold the pipes open, so the tier ends at its own exit,
      // after a moment for the output still in the pipes.
      setTimeout(() => finish(code, signal), 2_000);
    });
  });
}

// Children clean up after themselves on SIGTERM (see processes.ts); pass the signal on to all each tier started.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const run of running) signalTier(run, signal);
    provisioningChild?.kill(signal);
    process.exitCode = 130;
  });
}

async function main(): Promise<void> {
  pruneStaleOutputs();
  const selected = process.env.INFERENCE_TEST_TIERS?.split(',').map((name) => name.trim());
  // `ui` selects both UI tiers.
  const tiers = TIERS.filter((tier) => !selected || selected.includes(tier.name) || selected.includes(tier.name.split('-')[0]));
  const cores = process.env.INFERENCE_TEST_SERIAL === '1' ? 0 : Number(process.env.INFERENCE_TEST_CORES) || os.availableParallelism();
  const started = Date.now();
  const busyAtStart = machineBusyMs();
  sample();
  const sampler = setInterval(sample, 2_000);
  console.log(`[test] ${tiers.length} tier(s) on ${cores || 1} core(s), side by side as far as the cores allow; each tier's output: test-results/<tier>.log`);

  let provisioned = false;
  let provisioningFailure: string | undefined;
  let wake: () => void = () => undefined;
  const provisioning = startProvisioning({
    chromium: tiers.some((tier) => tier.needs?.chromium),
    codeServer: tiers.some((tier) => tier.needs?.codeServer),
  }).then((failure) => {
    provisioned = true;
    provisioningFailure = failure;
    if (failure) console.error(`[test] provisioning failed: ${failure}`);
    wake();
  });

  const pending = [...tiers];
  const active = new Map<Tier, Promise<void>>();
  const results: TierResult[] = [];
  while (pending.length > 0 && process.exitCode !== 130) {
    const schedulable = pending.map((tier) => ({ tier, name: tier.name, cores: tier.cores, needsProvisioning: !!tier.needs }));
    const runningNow = [...active.keys()].map((tier) => ({ name: tier.name, cores: tier.cores, needsProvisioning: false }));
    for (const { tier } of tiersToStart(schedulable, runningNow, cores, provisioned)) {
      pending.splice(pending.indexOf(tier), 1);
      if (tier.needs && provisioningFailure) {
        results.push({ name: tier.name, outcome: 'not run: provisioning failed' });
        continue;
      }
      const alongside = [...active.keys()].map((other) => other.name);
      console.log(`\n[test] ── ${tier.name} starts${alongside.length ? ` (alongside: ${alongside.join(', ')})` : ''} ─────────────────────────────`);
      active.set(tier, runTier(tier).then((result) => {
        results.push(result);
        active.delete(tier);
        wake();
      }));
    }
    if (pending.length === 0) break;
    if (active.size === 0 && provisioned) continue;
    if (active.size === 0 && !provisioned) console.log('[test] waiting for provisioning to finish (its output: test-results/provision.log)…');
    await new Promise<void>((resolve) => (wake = resolve));
  }
  await Promise.all(active.values());
  await provisioning;
  clearInterval(sampler);

  results.sort((a, b) => tiers.findIndex((tier) => tier.name === a.name) - tiers.findIndex((tier) => tier.name === b.name));
  const busyAtEnd = machineBusyMs();
  const wallMs = Date.now() - started;
  console.log('\n[test] summary (cpu: the CPU time of the tier\'s processes, and of the whole machine for the total; cores: cpu over wall; load: the 1-minute load average meanwhile)');
  const table = summaryTable(results, {
    wallMs,
    cpuMs: busyAtStart !== undefined && busyAtEnd !== undefined ? busyAtEnd - busyAtStart : undefined,
    cores: cores || 1,
    load: loadBetween(started, Date.now()),
  });
  for (const line of table) console.log(`[test]   ${line}`);
  const failed = results.filter((result) => result.outcome !== 'passed');
  for (const result of failed) {
    if (!fs.existsSync(tierLog(result.name))) continue;
    console.log(`\n[test] why ${result.name} failed (its whole output: ${path.relative(REPO_ROOT, tierLog(result.name))}):`);
    for (const line of failureDigest(fs.readFileSync(tierLog(result.name), 'utf8'))) console.log(`[test]   ${line}`);
  }
  console.log('[test] screenshots: test-results/screenshots/, logs: test-results/integration/, test-results/ui/');
  const counts = totalCounts(results);
  console.log(`\n[test] total ${seconds(started)}: ${failed.length === 0 && results.length === tiers.length ? 'all tiers passed' : `${failed.length} tier(s) failed`}`);
  console.log(`tests: ${counts.passed} passed, ${counts.failed} failed`);
  if (failed.length > 0 || results.length < tiers.length) process.exitCode = process.exitCode || 1;
}

void main();
