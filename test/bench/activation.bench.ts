import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { launchBrowser } from '../harness/browser';
import { startCodeServer, workbenchUrl } from '../harness/codeServer';
import { pathWithProjectNode, REPO_ROOT } from '../harness/paths';
import { stopAll, stopExtensionHosts } from '../harness/processes';
import { waitFor } from '../harness/wait';
import type { Page } from 'playwright-core';
import { runCommand } from '../ui/workbench';
import type { Conversation } from '../../src/core/chat/conversation';
import { serializeConversation } from '../../src/core/chat/history/serialization';
import { alternate, arg, fmtRatio, ROUNDS, runBench, SMOKE, stats, type Row } from './benchReport';

/**
 * Benchmark: start-up cost. (1) Loading the extension bundle (dist/main.js: parse + top-level run,
 * no code cache) in Node against an empty module; (2) activation in the real extension host of
 * code-server (module load plus `activate()` until it resolves, timed by the same wrapper for our
 * extension and for an empty extension), alternating windows, after a first window of ours that
 * writes the code cache (src/startup.ts), as VS Code reports it (the ratio to the empty extension is
 * the target) and as the wrapper times it, and with 10× a user's ledger and history, the bytes our
 * extension reads from its storage as the window starts; (3) the VSIX size. The smoke run opens one
 * window of ours in (2), nothing to compare it with.
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
 * Counts, by file, the bytes the extension host reads from files under `root` (the extension's global
 * storage), through every fs call our bundle makes (callbacks, sync, promises and their file handles;
 * a read stream reads through fs.open and fs.read), and writes the counts to `outFile` every 200 ms.
 * Installed by the wrapper before it loads its target: the same in every window, whoever reads.
 */
const READ_ACCOUNTING = `
function countReads(root, outFile) {
  const fs = require('fs');
  const path = require('path');
  const reads = {};
  const fds = new Map();
  const ours = (file) => {
    const name = typeof file === 'string' ? file : file instanceof URL ? file.pathname : Buffer.isBuffer(file) ? file.toString() : undefined;
    return name !== undefined && path.resolve(name).startsWith(root + path.sep) ? path.relative(root, path.resolve(name)) : undefined;
  };
  const add = (name, bytes) => { if (name !== undefined && bytes > 0) reads[name] = (reads[name] || 0) + bytes; };
  const size = (data) => (typeof data === 'string' ? Buffer.byteLength(data) : data ? data.byteLength : 0);
  const named = (file) => (typeof file === 'number' ? fds.get(file) : ours(file));
  const track = (fd, file) => { const name = ours(file); if (name === undefined) fds.delete(fd); else fds.set(fd, name); };
  const withCallback = (args, wrap) => { const last = args.length - 1; if (typeof args[last] === 'function') args[last] = wrap(args[last]); return args; };
  const { openSync, open, readSync, read, readFileSync, readFile, promises } = fs;
  const { open: openHandle, readFile: readFileAsync } = promises;
  fs.openSync = function (file, ...rest) { const fd = openSync.call(this, file, ...rest); track(fd, file); return fd; };
  fs.open = function (file, ...rest) { return open.call(this, file, ...withCallback(rest, (done) => (error, fd) => { if (!error) track(fd, file); done(error, fd); })); };
  fs.readSync = function (fd, ...rest) { const bytes = readSync.call(this, fd, ...rest); add(fds.get(fd), bytes); return bytes; };
  fs.read = function (fd, ...rest) { return read.call(this, fd, ...withCallback(rest, (done) => (error, bytes, buffer) => { if (!error) add(fds.get(fd), bytes); done(error, bytes, buffer); })); };
  fs.readFileSync = function (file, ...rest) { const data = readFileSync.call(this, file, ...rest); add(named(file), size(data)); return data; };
  fs.readFile = function (file, ...rest) { return readFile.call(this, file, ...withCallback(rest, (done) => (error, data) => { if (!error) add(named(file), size(data)); done(error, data); })); };
  promises.readFile = async function (file, ...rest) { const data = await readFileAsync.call(this, file, ...rest); add(ours(file), size(data)); return data; };
  promises.open = async function (file, ...rest) {
    const handle = await openHandle.call(this, file, ...rest);
    const name = ours(file);
    if (name !== undefined) {
      const { read: readHandle, readFile: readWhole } = handle;
      handle.read = async function (...args) { const result = await readHandle.apply(this, args); add(name, result.bytesRead); return result; };
      handle.readFile = async function (...args) { const data = await readWhole.apply(this, args); add(name, size(data)); return data; };
    }
    return handle;
  };
  setInterval(() => fs.writeFileSync(outFile, JSON.stringify(reads)), 200).unref();
}`;

/**
 * A wrapper extension that times loading and activating `target` the same way for every target.
 * The target (and the .js files beside it: dist/main.js, dist/undici.js) is copied into the
 * extension's folder, as an installed extension has it: VS Code answers `require('vscode')` by the
 * requiring file's extension.
 */
function writeTimedExtension(dir: string, manifest: Record<string, unknown>, target: string, resultFile: string, storage: string): void {
  fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
  for (const file of fs.readdirSync(path.dirname(target)).filter((name) => name.endsWith('.js'))) {
    fs.copyFileSync(path.join(path.dirname(target), file), path.join(dir, 'dist', file));
  }
  fs.copyFileSync(target, path.join(dir, 'dist', 'extension.js'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ ...manifest, main: './index.js' }, null, 2));
  fs.writeFileSync(path.join(dir, 'index.js'), `${READ_ACCOUNTING}
    countReads(${JSON.stringify(storage)}, ${JSON.stringify(`${resultFile}.reads`)});
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
  /** Bytes read from the extension's global storage while the window started, by file (READ_ACCOUNTING). */
  readBytes: Record<string, number>;
  deferred?: { loadMs: number; activateMs: number; shell?: Record<string, number> };
};

/** The read counts as the wrapper wrote them after `since` (it writes them every 200 ms): every read up to then. */
async function readCountsSince(file: string, since: number): Promise<Record<string, number>> {
  await waitFor('the read counts written after the extension\'s row was read', () => fs.existsSync(file) && fs.statSync(file).mtimeMs > since, { timeoutMs: 10_000, intervalMs: 50 });
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, number>;
}

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

/**
 * Rounds of windows in code-server (`--rounds`), more than other benchmarks' 5: VS Code's figure for
 * the same extension moves 0.7–1.3x between runs of 11 rounds, and a window costs seconds, not a
 * core's worth of work.
 */
const ACTIVATION_ROUNDS = arg('rounds', 11);

/** Requests per day in the usage ledger of "ours" (1×) and "oursUsed10x" (10×), over the 400 days the ledger keeps. */
const LEDGER_REQUESTS_PER_DAY: Readonly<Record<'ours' | 'oursUsed10x', number>> = { ours: 10, oursUsed10x: 100 };
const LEDGER_DAYS = 400;
/** Conversations in the chat history of "ours" (1×) and "oursUsed10x" (10×), ~5 KB each. */
const CONVERSATIONS: Readonly<Record<'ours' | 'oursUsed10x', number>> = { ours: 100, oursUsed10x: 1000 };

/** The folders of our global storage that grow with use, and what goes in them (CONVERSATIONS, LEDGER_REQUESTS_PER_DAY). */
const USED_FOLDERS = ['usage', 'chat-history'] as const;

/** A history of `count` conversations of 10 messages, as the history store writes them (core/chat/history). */
function writeHistory(dir: string, count: number, now: number): void {
  fs.mkdirSync(dir, { recursive: true });
  const text = 'A paragraph of an answer, long enough to be a real one. '.repeat(9);
  for (let i = 0; i < count; i++) {
    const id = `c${String(i).padStart(6, '0')}`;
    const at = now - i * 3_600_000;
    const messages: Conversation['messages'] = Array.from({ length: 10 }, (_, m) => (m % 2
      ? { id: `m${m}`, role: 'assistant' as const, text, createdAt: at, status: 'done' as const, meta: { model: 'bench-model', requestId: `req-${i}-${m}`, creditsSpent: 0.001 } }
      : { id: `m${m}`, role: 'user' as const, text: `Question ${m} of conversation ${i}?`, createdAt: at }));
    fs.writeFileSync(path.join(dir, `${id}.json`), `${serializeConversation({ id, title: `Conversation ${i}`, params: {}, createdAt: at, updatedAt: at, messages })}\n`);
  }
}

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
    // Each size's ledger and history live in folders of their own between its windows and are renamed
    // into our storage for them: a rename keeps the ledger's inode, so the period sums a window of ours
    // wrote beside it stay true of it (periodSumsFile.ts), as in a user's storage from one window to the next.
    const parked = (which: 'ours' | 'oursUsed10x', folder: string) => path.join(root, `storage-${which}`, folder);
    const moveUsed = (which: 'ours' | 'oursUsed10x', into: 'storage' | 'parked') => {
      for (const folder of USED_FOLDERS) {
        const [from, to] = into === 'storage' ? [parked(which, folder), path.join(ourStorage, folder)] : [path.join(ourStorage, folder), parked(which, folder)];
        fs.renameSync(from, to);
      }
    };
    let ledgerBytes10x = 0;
    // A smoke run (no rounds) opens our first window only: no 10× storage to write.
    for (const which of rounds > 0 ? ['ours', 'oursUsed10x'] as const : ['ours'] as const) {
      const text = ledgerText(LEDGER_REQUESTS_PER_DAY[which], Date.now());
      fs.mkdirSync(parked(which, 'usage'), { recursive: true });
      fs.writeFileSync(path.join(parked(which, 'usage'), 'ledger.jsonl'), text);
      writeHistory(parked(which, 'chat-history'), CONVERSATIONS[which], Date.now());
      if (which === 'oursUsed10x') ledgerBytes10x = Buffer.byteLength(text);
    }
    const benchManifest = (name: string) => ({ name, publisher: 'inference-client-bench', version: '0.0.0', engines: manifest.engines, activationEvents: ['onStartupFinished'] });
    const modules: Record<'empty' | 'minimal', string> = { empty: path.join(root, 'empty.js'), minimal: path.join(root, 'minimal.js') };
    fs.writeFileSync(modules.empty, 'exports.activate = () => undefined;\n');
    fs.writeFileSync(modules.minimal, MINIMAL_MODULE);
    let window = 0;
    const open = async (which: Variant): Promise<Activation> => {
      const devDir = path.join(root, `window-${window++}`);
      const resultFile = path.join(devDir, 'result.json');
      const ours = which === 'ours' || which === 'oursUsed10x';
      if (ours) {
        fs.mkdirSync(ourStorage, { recursive: true });
        moveUsed(which, 'storage');
      }
      const own = ours ? manifest : benchManifest(`${which}-extension`);
      writeTimedExtension(path.join(devDir, String(own.name)), own, ours ? BUNDLE : modules[which as 'empty' | 'minimal'], resultFile, ourStorage);
      const page = await browser.context.newPage();
      try {
        await page.setViewportSize({ width: 1400, height: 6000 });
        await page.goto(workbenchUrl(server, { extensionDevelopmentPaths: [devDir] }), { timeout: 60_000 });
        const timed = await waitFor(`${which} extension to activate`, () => fs.existsSync(resultFile) && (JSON.parse(fs.readFileSync(resultFile, 'utf8')) as Omit<Activation, 'reportedMs' | 'readBytes'>), { timeoutMs: 120_000, intervalMs: 100 });
        const reportedMs = await reportedActivationMs(page, `${String(own.publisher)}.${String(own.name)}`);
        return { ...timed, reportedMs, readBytes: await readCountsSince(`${resultFile}.reads`, Date.now()) };
      } finally {
        await page.close();
        // The window's extension host ends with it, as a desktop window's does: the next window neither
        // shares the cores with it nor has it react to its storage moving away.
        await stopExtensionHosts(server.process.pid);
        if (ours) moveUsed(which, 'parked');
      }
    };
    if (rounds > 0) await open('empty'); // the first window pays for code-server's own warm-up
    // Our first window starts without a code cache (src/startup.ts): it is reported apart, and the
    // rounds measure the start of every later window. The first window with each ledger writes its
    // period sums, which a user's storage holds from the first window on.
    const firstOfOurs = await open('ours');
    if (rounds > 0) await open('oursUsed10x');
    // Each round opens these in an order rotated by one from the last round's: the empty extension
    // twice, as many windows as ours at both sizes, since the judged ratio takes both (main()).
    const result: Record<Variant, Activation[]> = { ours: [], oursUsed10x: [], empty: [], minimal: [] };
    const order: Variant[] = ['ours', 'empty', 'oursUsed10x', 'minimal', 'empty'];
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < order.length; i++) {
        const which = order[(round + i) % order.length]!;
        result[which].push(await open(which));
      }
    }
    return { ...result, firstOfOurs, ledgerBytes10x };
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
    // One window of ours through the whole machinery (wrapper, read counts, Show Running Extensions), so that it cannot rot.
    const { firstOfOurs: first } = await activationInCodeServer(0);
    if (!first.readBytes['usage/ledger.jsonl']) throw new Error(`the read counts saw no read of the ledger (${JSON.stringify(first.readBytes)}): READ_ACCOUNTING no longer sees the extension's reads`);
    rows.push({
      what: 'activation as VS Code reports it, our first window (smoke run: one window, no baseline)',
      target: '<= 1.5x (median)',
      measured: `${first.reportedMs} ms; timed by the wrapper ${first.totalMs.toFixed(1)} ms; ${(Object.values(first.readBytes).reduce((sum, bytes) => sum + bytes, 0) / 1024).toFixed(0)} KB read from its storage`,
      data: first,
    });
  } else {
    const activation = await activationInCodeServer(ACTIVATION_ROUNDS);
    // Our windows of both sizes: the same code, reading the same bytes (the row after next).
    const ours = [...activation.ours, ...activation.oursUsed10x];
    const reported = (list: Activation[]) => stats(list.map((a) => a.reportedMs));
    // Judged on the ratio of the medians: each window's figure is its own draw (VS Code's whole
    // milliseconds, mostly the other extensions whose code loads in the same tick), so pairing a
    // window with its neighbour would only add the two draws' noise.
    const ratio = (list: Activation[], baseline: Activation[]) => reported(list).median / reported(baseline).median;
    const overEmpty = ratio(ours, activation.empty);
    const figures = (list: Activation[]) => `${reported(list).min} / ${reported(list).median} ms (${list.length} windows)`;
    rows.push({
      what: 'activation as VS Code reports it (Show Running Extensions: code loading + activate call), ours (1× and 10× storage) / an empty extension, alternated windows',
      target: '<= 1.5x (median)',
      measured: `${overEmpty.toFixed(2)}x (medians); ours ${figures(ours)}, empty ${figures(activation.empty)} (min / median); our first window, before the code cache exists: ${activation.firstOfOurs.reportedMs} ms`,
      met: overEmpty <= 1.5,
      data: { ratio: overEmpty, ours: reported(ours), empty: reported(activation.empty) },
    });
    rows.push({
      what: '  the same, ours / a minimal extension (require vscode, read a setting, register a command, show a status-bar item)',
      target: '(context: what VS Code charges any extension)',
      measured: `${ratio(ours, activation.minimal).toFixed(2)}x (medians); minimal ${figures(activation.minimal)}`,
    });
    const storageBytes = (list: Activation[]) => stats(list.map((a) => Object.values(a.readBytes).reduce((sum, bytes) => sum + bytes, 0)));
    const readGrowth = storageBytes(activation.oursUsed10x).median / storageBytes(activation.ours).median;
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
    const byFile = (a: Activation) => Object.entries(a.readBytes).map(([file, bytes]) => `${file.replace(/-[0-9a-f]{8,}/, '')} ${kb(bytes)}`).join(', ');
    rows.push({
      what: `  ours with 10× a user's ledger (${LEDGER_DAYS} days × ${LEDGER_REQUESTS_PER_DAY.oursUsed10x} requests) and chat history (${CONVERSATIONS.oursUsed10x} conversations) / with 1× (÷ 10): the bytes the extension reads from its storage as the window starts (activation, its load, the status bar's first figures), counted by file in its extension host`,
      target: '<= 1.15x (median): nothing read at start-up grows with use',
      measured: `${readGrowth.toFixed(2)}x (10× ${kb(storageBytes(activation.oursUsed10x).median)}: ${byFile(activation.oursUsed10x[0]!)}; 1× ${kb(storageBytes(activation.ours).median)}; ledger ${(activation.ledgerBytes10x / 1e6).toFixed(1)} MB)`,
      met: readGrowth <= 1.15,
      data: { readGrowth, bytes10x: storageBytes(activation.oursUsed10x), bytes1x: storageBytes(activation.ours) },
    });
    // Not judged: VS Code's figure moves more than 15% between runs for the same work (ours / minimal,
    // nearly the same work, read 1.04–1.33x in runs of this bench), so it cannot tell 15% of growth
    // from noise; the bytes read above can.
    rows.push({
      what: '  the same as VS Code reports its activation, 10× / 1× ledger and history',
      target: '(context: VS Code\'s figure, within its noise)',
      measured: `${ratio(activation.oursUsed10x, activation.ours).toFixed(2)}x (medians); 10× ${figures(activation.oursUsed10x)}, 1× ${figures(activation.ours)}`,
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
    const timed = (list: Activation[], part: 'totalMs' | 'loadMs' = 'totalMs') => stats(list.map((a) => a[part]));
    const minus = timed(ours).median - timed(activation.empty).median;
    rows.push({
      what: 'activation timed by a wrapper (load + activate()), ours minus an empty extension (medians), alternated windows',
      target: '< 50 ms',
      measured: `${minus.toFixed(1)} ms (ours ${timed(ours).median.toFixed(1)} ms, of which load ${timed(ours, 'loadMs').median.toFixed(1)} ms; empty ${timed(activation.empty).median.toFixed(1)} ms; our first window, before the code cache exists: ${activation.firstOfOurs.totalMs.toFixed(1)} ms)`,
      met: minus < 50,
      data: activation,
    });
  }
  const vsix = vsixBytes();
  rows.push({ what: 'VSIX size', target: '< 1 MB', measured: `${(vsix / 1024).toFixed(0)} KB`, met: vsix < 1024 * 1024, data: { bytes: vsix } });
  fs.rmSync(path.dirname(emptyModule), { recursive: true, force: true });
  return rows;
}

runBench('activation', () => main().finally(() => stopAll()));
