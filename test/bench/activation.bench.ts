import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { launchBrowser } from '../harness/browser';
import { startCodeServer, workbenchUrl } from '../harness/codeServer';
import { pathWithProjectNode, REPO_ROOT } from '../harness/paths';
import { stopAll } from '../harness/processes';
import { waitFor } from '../harness/wait';
import type { Page } from 'playwright-core';
import { runCommand } from '../ui/workbench';
import { alternate, fmtRatio, ROUNDS, runBench, SMOKE, stats, type Row } from './benchReport';

/**
 * Benchmark: start-up cost. (1) Loading the extension bundle (dist/main.js: parse + top-level run,
 * no code cache) in Node against an empty module; (2) activation in the real extension host of
 * code-server (module load plus `activate()` until it resolves, timed by the same wrapper for our
 * extension and for an empty extension), alternating windows, after a first window of ours that
 * writes the code cache (src/startup.ts), as VS Code reports it (the ratio to the empty extension is
 * the target) and as the wrapper times it; (3) the VSIX size. The smoke run skips (2).
 *
 *   node out/test/bench/activation.bench.js [--rounds=5]
 */

// INFERENCE_BENCH_EXTENSION_BUNDLE: a bundle built from another commit, for before/after figures.
const BUNDLE = path.resolve(REPO_ROOT, process.env.INFERENCE_BENCH_EXTENSION_BUNDLE ?? 'dist/extension.js');

/**
 * Times `require(file)` in a fresh Node process, with `vscode` answered by an inert stand-in. Fails
 * when loading it also loaded undici: the HTTP stack is most of the code and belongs to the first
 * request, not to activation (a top-level import anywhere in the bundle brings it back).
 */
function loadInFreshProcess(file: string): number {
  const script = `
    const Module = require('module');
    const resolve = Module._resolveFilename;
    Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest); };
    const inert = new Proxy(function () {}, { get: (_t, key) => (key === 'then' ? undefined : inert), apply: () => inert, construct: () => inert });
    require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: inert };
    const started = performance.now();
    require(${JSON.stringify(file)});
    const ms = performance.now() - started;
    const undici = Object.keys(require.cache).filter((id) => /undici/.test(id));
    process.stdout.write(JSON.stringify({ ms, undici }));`;
  const { ms, undici } = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as { ms: number; undici: string[] };
  if (undici.length) throw new Error(`loading ${path.relative(REPO_ROOT, file)} also loaded undici (${undici.join(', ')}): import it lazily (core/api/undiciTransport.ts loadUndici)`);
  return ms;
}

/**
 * A wrapper extension that times loading and activating `target` the same way for every target.
 * The target (and the .js files beside it: dist/main.js, dist/undici.js) is copied into the
 * extension's folder, as an installed extension has it: VS Code answers `require('vscode')` by the
 * requiring file's extension.
 */
function writeTimedExtension(dir: string, manifest: Record<string, unknown>, target: string, resultFile: string): void {
  fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
  for (const file of fs.readdirSync(path.dirname(target)).filter((name) => name.endsWith('.js'))) {
    fs.copyFileSync(path.join(path.dirname(target), file), path.join(dir, 'dist', file));
  }
  fs.copyFileSync(target, path.join(dir, 'dist', 'extension.js'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ ...manifest, main: './index.js' }, null, 2));
  fs.writeFileSync(path.join(dir, 'index.js'), `
    const started = performance.now();
    const target = require('./dist/extension.js');
    const loadMs = performance.now() - started;
    exports.activate = (context) => {
      const activating = performance.now();
      const api = target.activate(context);
      const activateMs = performance.now() - activating;
      // Ours loads the extension proper after activation (src/startup.ts): how long that took, once it has.
      Promise.resolve(target.extensionLoaded && target.extensionLoaded()).then((deferred) => {
        require('fs').writeFileSync(${JSON.stringify(resultFile)}, JSON.stringify({ loadMs, activateMs, totalMs: loadMs + activateMs, ...(deferred && { deferred }) }));
      });
      return api;
    };
    exports.deactivate = () => target.deactivate && target.deactivate();\n`);
}

/**
 * Timed by the wrapper, and as VS Code reports it (Show Running Extensions: code loading + activate
 * call); for ours, also the extension's own load after activation, as the shell timed it.
 */
type Activation = {
  loadMs: number; activateMs: number; totalMs: number; reportedMs: number;
  deferred?: { loadMs: number; activateMs: number; shell?: Record<string, number> };
};

/**
 * What "Developer: Show Running Extensions" shows for an extension: its code loading time plus its
 * activate call, the figure a user (and VS Code's slow-extension warning) sees. The editor is a list
 * of 70 px rows of the running extensions; the page is tall enough that every row renders.
 */
async function reportedActivationMs(page: Page, extensionId: string): Promise<number> {
  await runCommand(page, 'Developer: Show Running Extensions');
  const row = page.locator('.runtime-extensions-editor .extension').filter({ has: page.locator('.name', { hasText: new RegExp(`^${extensionId.replace(/[.]/g, '\\.')}$`, 'i') }) });
  const text = await waitFor(`${extensionId} in Show Running Extensions`, async () => {
    const shown = await row.locator('.activation-time').first().textContent({ timeout: 2000 }).catch(() => null);
    return shown && /\d+(\.\d+)?ms/.test(shown) ? shown : false;
  }, { timeoutMs: 60_000, intervalMs: 250 });
  return Number(/(\d+(?:\.\d+)?)ms/.exec(text)![1]);
}

/**
 * The smallest extension that does what any real one does at activation: `require('vscode')` (VS
 * Code builds the API object per extension), read a setting (the first read builds the configuration
 * model), register a command and show a status-bar item. An empty extension pays none of these.
 */
const MINIMAL_MODULE = `const vscode = require('vscode');
exports.activate = (context) => {
  const item = vscode.window.createStatusBarItem('minimalExtension.status', vscode.StatusBarAlignment.Right, 100);
  item.text = String(vscode.workspace.getConfiguration('editor').get('fontSize'));
  item.show();
  context.subscriptions.push(item, vscode.commands.registerCommand('minimalExtension.hello', () => undefined));
};
`;

type Variant = 'ours' | 'oursUsed10x' | 'empty' | 'minimal';

/** Requests per day in the usage ledger of "ours" (1×) and "oursUsed10x" (10×), over the 400 days the ledger keeps. */
const LEDGER_REQUESTS_PER_DAY: Readonly<Record<'ours' | 'oursUsed10x', number>> = { ours: 10, oursUsed10x: 100 };
const LEDGER_DAYS = 400;

/** A ledger as a user accumulates it: `perDay` chat answers a day for LEDGER_DAYS days up to now, some unmeasured. */
function ledgerText(perDay: number, now: number): string {
  const lines: string[] = [];
  for (let day = LEDGER_DAYS - 1; day >= 0; day--) {
    for (let i = 0; i < perDay; i++) {
      const at = now - day * 86_400_000 - (i + 1) * 60_000;
      lines.push(JSON.stringify({ v: 1, requestId: `req_${day}_${i}`, model: `model-${i % 7}`, environment: i % 5 ? 'production' : 'preview', kind: i % 9 ? 'chat' : 'image', credits: i % 11 ? 0.25 + (i % 4) / 10 : null, at, chars: { in: 400 + i, out: 900 + i } }));
    }
  }
  return `${lines.join('\n')}\n`;
}

type CodeServerActivation = Record<Variant, Activation[]> & { firstOfOurs: Activation; ledgerBytes10x: number };

async function activationInCodeServer(rounds: number): Promise<CodeServerActivation> {
  const server = await startCodeServer();
  const browser = await launchBrowser();
  try {
    const root = path.join(server.stateDir, 'activation-bench');
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    fs.mkdirSync(root, { recursive: true });
    // Our extension's global storage (code-server's, by extension id): each window of ours starts with its ledger size.
    const ourStorage = path.join(server.userDataDir, 'User', 'globalStorage', `${String(manifest.publisher)}.${String(manifest.name)}`.toLowerCase());
    const ledgers = { ours: ledgerText(LEDGER_REQUESTS_PER_DAY.ours, Date.now()), oursUsed10x: ledgerText(LEDGER_REQUESTS_PER_DAY.oursUsed10x, Date.now()) };
    const seedLedger = (which: 'ours' | 'oursUsed10x') => {
      const usage = path.join(ourStorage, 'usage');
      fs.rmSync(usage, { recursive: true, force: true });
      fs.mkdirSync(usage, { recursive: true });
      fs.writeFileSync(path.join(usage, 'ledger.jsonl'), ledgers[which]);
    };
    const benchManifest = (name: string) => ({ name, publisher: 'inference-client-bench', version: '0.0.0', engines: manifest.engines, activationEvents: ['onStartupFinished'] });
    const modules: Record<'empty' | 'minimal', string> = { empty: path.join(root, 'empty.js'), minimal: path.join(root, 'minimal.js') };
    fs.writeFileSync(modules.empty, 'exports.activate = () => undefined;\n');
    fs.writeFileSync(modules.minimal, MINIMAL_MODULE);
    let window = 0;
    const open = async (which: Variant): Promise<Activation> => {
      const devDir = path.join(root, `window-${window++}`);
      const resultFile = path.join(devDir, 'result.json');
      const ours = which === 'ours' || which === 'oursUsed10x';
      if (ours) seedLedger(which);
      const own = ours ? manifest : benchManifest(`${which}-extension`);
      writeTimedExtension(path.join(devDir, String(own.name)), own, ours ? BUNDLE : modules[which as 'empty' | 'minimal'], resultFile);
      const page = await browser.context.newPage();
      try {
        await page.setViewportSize({ width: 1400, height: 6000 });
        await page.goto(workbenchUrl(server, { extensionDevelopmentPaths: [devDir] }), { timeout: 60_000 });
        const timed = await waitFor(`${which} extension to activate`, () => fs.existsSync(resultFile) && (JSON.parse(fs.readFileSync(resultFile, 'utf8')) as Omit<Activation, 'reportedMs'>), { timeoutMs: 120_000, intervalMs: 100 });
        return { ...timed, reportedMs: await reportedActivationMs(page, `${String(own.publisher)}.${String(own.name)}`) };
      } finally {
        await page.close();
      }
    };
    await open('empty'); // the first window pays for code-server's own warm-up
    // Our first window starts without a code cache (src/startup.ts): it is reported apart, and the
    // rounds measure the start of every later window.
    const firstOfOurs = await open('ours');
    // Each round opens the three in an order rotated by one from the last round's.
    const result: Record<Variant, Activation[]> = { ours: [], oursUsed10x: [], empty: [], minimal: [] };
    const order: Variant[] = ['ours', 'empty', 'oursUsed10x', 'minimal'];
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < order.length; i++) {
        const which = order[(round + i) % order.length]!;
        result[which].push(await open(which));
      }
    }
    return { ...result, firstOfOurs, ledgerBytes10x: Buffer.byteLength(ledgers.oursUsed10x) };
  } finally {
    await browser.close();
    await server.stop();
  }
}

function vsixBytes(): number {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vsix-bench-')), 'bench.vsix');
  try {
    execFileSync(path.join(REPO_ROOT, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '--no-rewrite-relative-links', '--out', out], {
      cwd: REPO_ROOT, stdio: 'ignore', env: { ...process.env, PATH: pathWithProjectNode() },
    });
    return fs.statSync(out).size;
  } finally {
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
  }
}

async function main(): Promise<Row[]> {
  if (!fs.existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run "npm run build" first`);
  const emptyModule = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'empty-module-')), 'empty.js');
  fs.writeFileSync(emptyModule, 'exports.activate = () => undefined;\n');
  // The entry only loads dist/main.js (through the code cache) when activated; main.js is what a
  // window without a cache compiles. Neither may load undici.
  const mainBundle = path.join(path.dirname(BUNDLE), 'main.js');
  const code = fs.existsSync(mainBundle) ? mainBundle : BUNDLE;
  if (code !== BUNDLE) loadInFreshProcess(BUNDLE);
  const load = await alternate(ROUNDS, async () => loadInFreshProcess(code), async () => loadInFreshProcess(emptyModule), (ms) => ms);
  const added = stats(load.measured.map((ms, i) => ms - load.baseline[i]));
  const rows: Row[] = [{
    what: `extension bundle load (parse + top-level run, no code cache) in Node, minus an empty module (${path.basename(code)}, ${(fs.statSync(code).size / 1024).toFixed(0)} KB)`,
    target: '(context for the row below)',
    measured: `${added.min.toFixed(1)} ms / ${added.median.toFixed(1)} ms (min / median; ratio ${fmtRatio(load.ratios)})`,
    data: { addedMs: added, ratios: load.ratios },
  }];
  if (SMOKE) {
    rows.push({ what: 'activation as VS Code reports it, ours / an empty extension', target: '<= 1.5x (median)', measured: 'not measured in a smoke run' });
  } else {
    const activation = await activationInCodeServer(ROUNDS);
    const reported = (list: Activation[]) => stats(list.map((a) => a.reportedMs));
    const ratioTo = (baseline: Activation[]) => stats(activation.ours.map((a, i) => a.reportedMs / baseline[i]!.reportedMs));
    const overEmpty = ratioTo(activation.empty);
    const overMinimal = ratioTo(activation.minimal);
    const figures = (list: Activation[]) => `${reported(list).min} / ${reported(list).median} ms`;
    rows.push({
      what: 'activation as VS Code reports it (Show Running Extensions: code loading + activate call), ours / an empty extension, same rounds',
      target: '<= 1.5x (median)',
      measured: `${fmtRatio(overEmpty)} (ours ${figures(activation.ours)}, empty ${figures(activation.empty)}; our first window, before the code cache exists: ${activation.firstOfOurs.reportedMs} ms)`,
      met: overEmpty.median <= 1.5,
      data: { ratios: overEmpty },
    });
    rows.push({
      what: '  the same, ours / a minimal extension (require vscode, read a setting, register a command, show a status-bar item)',
      target: '(context: what VS Code charges any extension)',
      measured: `${fmtRatio(overMinimal)} (minimal ${figures(activation.minimal)})`,
      data: { ratios: overMinimal },
    });
    const overUsed = stats(activation.oursUsed10x.map((a, i) => a.reportedMs / activation.ours[i]!.reportedMs));
    rows.push({
      what: `  ours with 10× a user's ledger (${LEDGER_DAYS} days × ${LEDGER_REQUESTS_PER_DAY.oursUsed10x} requests) / with 1× (× ${LEDGER_REQUESTS_PER_DAY.ours}), same rounds: nothing read at activation grows with use`,
      target: '<= 1.15x (median)',
      measured: `${fmtRatio(overUsed)} (10× ${figures(activation.oursUsed10x)}; ledger ${(activation.ledgerBytes10x / 1e6).toFixed(1)} MB)`,
      met: overUsed.median <= 1.15,
      data: { ratios: overUsed },
    });
    const deferredMs = (list: Activation[]) => stats(list.map((a) => (a.deferred ? a.deferred.loadMs + a.deferred.activateMs : Number.NaN)));
    const deferred = deferredMs(activation.ours);
    const deferred10x = deferredMs(activation.oursUsed10x);
    rows.push({
      what: '  after activation: the shell loads the extension (the chat\'s panel serializer and side-bar view registered, dist/main.js through the code cache, then its activate()), timed by the shell; with 10× the ledger',
      target: '(context: work that left activation, not work saved)',
      measured: `${deferred.min.toFixed(1)} / ${deferred.median.toFixed(1)} ms (min / median; of which registrations and load ${stats(activation.ours.map((a) => a.deferred?.loadMs ?? Number.NaN)).median.toFixed(1)} ms); 10× ledger ${deferred10x.min.toFixed(1)} / ${deferred10x.median.toFixed(1)} ms`,
      data: { deferred, deferred10x },
    });
    // The shell's activation by part (its own performance.now() marks), medians over our windows.
    const parts = Object.keys(activation.ours.find((a) => a.deferred?.shell)?.deferred?.shell ?? {});
    rows.push({
      what: '  the shell\'s activation by part (status items drawn, command stand-ins, language model provider), median',
      target: '(context)',
      measured: parts.map((part) => `${part.replace(/Ms$/, '')} ${stats(activation.ours.map((a) => a.deferred?.shell?.[part] ?? Number.NaN)).median.toFixed(2)} ms`).join(', '),
    });
    const minus = stats(activation.ours.map((a, i) => a.totalMs - activation.empty[i]!.totalMs));
    rows.push({
      what: 'activation timed by a wrapper (load + activate()), minus an empty extension, same windows',
      target: '< 50 ms',
      measured: `${minus.min.toFixed(1)} ms / ${minus.median.toFixed(1)} ms (min / median; ours median ${stats(activation.ours.map((a) => a.totalMs)).median.toFixed(1)} ms, of which load ${stats(activation.ours.map((a) => a.loadMs)).median.toFixed(1)} ms; empty ${stats(activation.empty.map((a) => a.totalMs)).median.toFixed(1)} ms; our first window, before the code cache exists: ${activation.firstOfOurs.totalMs.toFixed(1)} ms)`,
      met: minus.median < 50,
      data: activation,
    });
  }
  const vsix = vsixBytes();
  rows.push({ what: 'VSIX size', target: '< 1 MB', measured: `${(vsix / 1024).toFixed(0)} KB`, met: vsix < 1024 * 1024, data: { bytes: vsix } });
  fs.rmSync(path.dirname(emptyModule), { recursive: true, force: true });
  return rows;
}

runBench('activation', () => main().finally(() => stopAll()));
