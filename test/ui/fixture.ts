import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { startEmulator, type Emulator, type EmulatorOptions, type EnvironmentName } from '../emulator';
import { apiKeyEnvironment, emulatorSettings } from '../harness/extensionSetup';
import { launchBrowser, waitForWorkbench, type Browser } from '../harness/browser';
import { startCodeServer, workbenchUrl, writeUserSettings, type CodeServer } from '../harness/codeServer';
import { REPO_ROOT, RESULTS_DIR } from '../harness/paths';
import { registerCleanup } from '../harness/processes';
import { writeScratchWorkspace } from '../harness/supportExtension';
import { seconds } from '../harness/wait';
import { clearForNextFile, LEDGER_CLOCK_ENV, sharedHost, sharedWindow } from './sharedWorkbench';
import * as workbench from './workbench';

export interface WorkbenchOptions {
  /** Options for the service emulator started for this file. */
  emulator?: EmulatorOptions;
  /**
   * API keys handed to the extension as INFERENCE_API_KEY_<ENV> variables of code-server (never in
   * settings or files). Default: each environment's `full` demo key. `null` hands over none.
   */
  keys?: (emulator: Emulator) => Partial<Record<EnvironmentName, string>> | null;
  /** Extra user settings, merged over the emulator's environments. */
  settings?: (emulator: Emulator) => Record<string, unknown>;
  /** false: a clean first run, with no environment in the user settings (the default has none). */
  configureEnvironments?: boolean;
  /** Extra environment variables for code-server and so the extension host (never keys: use `keys`). */
  env?: Record<string, string>;
  /** The extension's ledger clock starts this far from the real time (setLedgerClockOffset changes it). */
  ledgerClockOffsetMs?: number;
  /**
   * true: workspace trust on, so that a folder can open in Restricted Mode (the harness turns it off
   * otherwise, by the setting security.workspace.trust.enabled).
   */
  workspaceTrust?: boolean;
  /** Files (relative path → content) written into the scratch workspace before it opens; a function is called then. */
  workspaceFiles?: Record<string, string> | (() => Record<string, string>);
  /** Runs on the scratch workspace folder after its files are written, before it opens (e.g. `git init`, links, binary files). */
  prepareWorkspace?: (folder: string) => void;
  /**
   * true: this file gets a code-server and Chromium of its own (it kills an extension host, say).
   * Files share one otherwise (sharedWorkbench.ts), unless they need keys or an environment of their
   * own, which a shared code-server cannot give one window.
   */
  ownWorkbench?: boolean;
}

/**
 * The UI files edit TypeScript files but never ask for types: TypeScript's syntax server answers
 * what they use without loading a project, which cost the semantic one ~3.7 CPU-s per file.
 */
const UI_SETTINGS: Readonly<Record<string, unknown>> = { 'typescript.tsserver.useSyntaxServer': 'always' };

/** Whether a file's workbench can run in the shared code-server (see WorkbenchOptions.ownWorkbench). */
function sharesWorkbench(options: WorkbenchOptions): boolean {
  return !options.ownWorkbench && !options.keys && !options.env && options.emulator?.keyPrefix === undefined
    && process.env.INFERENCE_UI_OWN_WORKBENCHES !== '1';
}

/** Every "Inference Client" log file under a server's logs (one per extension host that ran the extension). */
function extensionLogs(server: CodeServer): Set<string> {
  const logs = path.join(server.userDataDir, 'logs');
  if (!fs.existsSync(logs)) return new Set();
  return new Set(fs.readdirSync(logs, { recursive: true, encoding: 'utf8' }).filter((file) => path.basename(file) === 'Inference Client.log').map((file) => path.join(logs, file)));
}

export interface UiFixture {
  readonly page: Page;
  readonly emulator: Emulator;
  readonly server: CodeServer;
  readonly workspace: string;
  /** Runs a command from the command palette by its full title, e.g. "Inference: Set API Key". */
  runCommand(title: string): Promise<void>;
  /** Opens a workspace file in an editor through Quick Open (Ctrl+P). */
  openFile(relativePath: string): Promise<void>;
  quickPickItems(): Promise<string[]>;
  pickQuickPickItem(label: string | RegExp, timeoutMs?: number): Promise<void>;
  /** Runs a command that shows a quick pick and picks `label` in it (workbench.pickFromCommand). */
  pickFromCommand(title: string, label: string | RegExp, timeoutMs?: number): Promise<void>;
  /** Runs a command that shows a quick pick and returns its items' labels (workbench.quickPickItemsOf). */
  quickPickItemsOf(title: string): Promise<string[]>;
  typeInInput(text: string, options?: { submit?: boolean }): Promise<void>;
  quickInputMessage(): Promise<string>;
  closeQuickInput(): Promise<void>;
  /** The chat webview's content (nested iframes). */
  chatFrame(index?: number): FrameLocator;
  statusBarItem(textOrId: string | RegExp | { id: string }): Locator;
  /** Messages in the Notification Center (opens it). */
  notifications(): Promise<string[]>;
  waitForNotification(message: string | RegExp, timeoutMs?: number): Promise<Locator>;
  clickNotificationAction(message: string | RegExp, action: string): Promise<void>;
  clearNotifications(): Promise<void>;
  /** Saves test-results/screenshots/<test file>/<name>.png and returns its path. */
  screenshot(name: string): Promise<string>;
  /** "Developer: Reload Window", then waits for the restored workbench. */
  reloadWindow(): Promise<void>;
  /** The extension's log ("Inference Client" output channel) of this file's window. */
  extensionLog(): string;
  /** Shifts the extension's ledger clock (what day a spend is recorded on) by this much from now on. */
  setLedgerClockOffset(ms: number): void;
}

function fileLabel(file: string | undefined): string {
  return file ? path.basename(file).replace(/\.test\.[cm]?js$/, '') : 'ui';
}

/** A fresh test-results/screenshots/<test file>/ folder. */
export function screenshotFolder(testFile: string | undefined): string {
  const dir = path.join(RESULTS_DIR, 'screenshots', fileLabel(testFile));
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Saves `<dir>/<name>.png` and says where in the test log. */
export async function saveScreenshot(page: Page, dir: string, name: string): Promise<string> {
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, timeout: 15_000 });
  console.log(`    [ui] screenshot ${path.relative(REPO_ROOT, file)}`);
  return file;
}

/**
 * Registers mocha hooks that give the enclosing `describe` its own emulator, a workbench window on a
 * code-server (the extension under development, settings pointing at the emulator, keys in the
 * environment; the tier's shared code-server and Chromium unless the file needs its own, see
 * sharedWorkbench.ts) and its Chromium page, all ended in `after` even when a test fails. Call it at
 * the top of a `describe` and use the returned object in the tests.
 */
export function useWorkbench(options: WorkbenchOptions = {}): UiFixture {
  let state: { page: Page; emulator: Emulator; server: CodeServer; browser: Browser; workspace: string; shots: string; logsBefore: Set<string>; ledgerClockFile: string } | undefined;
  const teardown: (() => Promise<void>)[] = [];
  /** When this file's workbench began to start, for the line that says what the whole file took. */
  let fileStarted = 0;
  const current = () => {
    if (!state) throw new Error('The workbench is not running: use the fixture inside tests of its describe()');
    return state;
  };

  before(async function () {
    this.timeout(240_000);
    fileStarted = Date.now();
    const shots = screenshotFolder(this.test?.file);

    const label = fileLabel(this.test?.file);
    const host = sharesWorkbench(options) ? await sharedHost() : undefined;
    const emulator = await startEmulator({ ...options.emulator, ...(host && { fullKeys: host.keys }) });
    const unregisterEmulator = registerCleanup({ name: 'emulator', stop: () => emulator.close(), stopNow: () => undefined });
    teardown.push(async () => {
      unregisterEmulator();
      await emulator.close();
    });
    const settings = {
      ...UI_SETTINGS,
      ...(options.workspaceTrust && { 'security.workspace.trust.enabled': true }),
      ...(options.configureEnvironments === false ? {} : emulatorSettings(emulator)),
      ...options.settings?.(emulator),
    };
    let server: CodeServer;
    let ledgerClockFile: string;
    if (host) {
      server = host.server;
      ledgerClockFile = host.ledgerClockFile;
      // The shared server's user settings are this file's while its window is open.
      writeUserSettings(server.userDataDir, settings);
      teardown.push(() => clearForNextFile(host));
    } else {
      const keys = options.keys ? options.keys(emulator) : { production: emulator.keys.production.full, preview: emulator.keys.preview.full };
      const clockDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inference-ledger-clock-'));
      teardown.push(async () => fs.rmSync(clockDir, { recursive: true, force: true }));
      ledgerClockFile = path.join(clockDir, 'offset');
      server = await startCodeServer({
        settings,
        env: { ...options.env, [LEDGER_CLOCK_ENV]: ledgerClockFile, ...apiKeyEnvironment(keys ?? {}) },
        ...(options.workspaceTrust && { workspaceTrust: true }),
        logFile: path.join(RESULTS_DIR, 'ui', `${label}-code-server.log`),
      });
      teardown.push(() => server.stop());
    }
    const workspace = writeScratchWorkspace(path.join(server.stateDir, label));
    const files = typeof options.workspaceFiles === 'function' ? options.workspaceFiles() : options.workspaceFiles ?? {};
    for (const [name, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(workspace, name)), { recursive: true });
      fs.writeFileSync(path.join(workspace, name), content);
    }
    options.prepareWorkspace?.(workspace);
    if (options.ledgerClockOffsetMs !== undefined) fs.writeFileSync(ledgerClockFile, String(options.ledgerClockOffsetMs));
    const logsBefore = extensionLogs(server);
    const browser = host ? await sharedWindow(host) : await launchBrowser();
    teardown.push(() => browser.close());
    await browser.page.goto(workbenchUrl(server, { folder: workspace, extensionDevelopmentPaths: [REPO_ROOT] }), { timeout: 60_000 });
    await waitForWorkbench(browser.page);
    state = { page: browser.page, emulator, server, browser, workspace, shots, logsBefore, ledgerClockFile };
    console.log(`    [ui] workbench ready in ${seconds(fileStarted)}${host ? ' (shared code-server)' : ''}; screenshots: ${shots}`);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && state) {
      const name = `FAILED-${this.currentTest.title.replace(/[^\w.-]+/g, '_').slice(0, 80)}`;
      const { page, shots, server, logsBefore } = state;
      // Every window the test opened (a second page of the same browser among them), and what each
      // window's extension logged: a failure in another window is otherwise only a timeout here.
      const pages = page.context().pages();
      for (const [index, other] of pages.entries()) {
        await saveScreenshot(other, shots, other === page ? name : `${name}-window-${index + 1}`).catch(() => undefined);
      }
      for (const [index, file] of [...extensionLogs(server)].filter((log) => !logsBefore.has(log)).entries()) {
        const copy = path.join(shots, `${name}-extension-${index + 1}.log`);
        try {
          fs.copyFileSync(file, copy);
          console.log(`    [ui] extension log ${path.relative(REPO_ROOT, copy)}`);
        } catch (error) {
          // A hook that throws would skip the file's remaining tests: the failure already says what failed.
          console.log(`    [ui] could not copy the extension log ${file}: ${(error as Error).message}`);
        }
      }
    }
  });

  after(async function () {
    this.timeout(60_000);
    state = undefined;
    for (const step of teardown.reverse()) await step().catch((error: unknown) => console.error(error));
    teardown.length = 0;
    // The file's whole time, start and stop included: what balancing the UI tiers goes by.
    if (fileStarted) console.log(`    [ui] ${fileLabel(this.test?.file)} took ${seconds(fileStarted)} in all`);
  });

  const fixture: UiFixture = {
    get page() {
      return current().page;
    },
    get emulator() {
      return current().emulator;
    },
    get server() {
      return current().server;
    },
    get workspace() {
      return current().workspace;
    },
    runCommand: (title) => workbench.runCommand(current().page, title),
    openFile: (relativePath) => workbench.openFile(current().page, relativePath),
    quickPickItems: () => workbench.quickPickItems(current().page),
    pickQuickPickItem: (label, timeoutMs) => workbench.pickQuickPickItem(current().page, label, timeoutMs),
    pickFromCommand: (title, label, timeoutMs) => workbench.pickFromCommand(current().page, title, label, timeoutMs),
    quickPickItemsOf: (title) => workbench.quickPickItemsOf(current().page, title),
    typeInInput: (text, typeOptions) => workbench.typeInInput(current().page, text, typeOptions),
    quickInputMessage: () => workbench.quickInputMessage(current().page),
    closeQuickInput: () => workbench.closeQuickInput(current().page),
    chatFrame: (index) => workbench.webviewFrame(current().page, index),
    statusBarItem: (textOrId) => workbench.statusBarItem(current().page, textOrId),
    notifications: () => workbench.notifications(current().page),
    waitForNotification: (message, timeoutMs) => workbench.waitForNotification(current().page, message, timeoutMs),
    clickNotificationAction: (message, action) => workbench.clickNotificationAction(current().page, message, action),
    clearNotifications: () => workbench.clearNotifications(current().page),
    screenshot: (name) => saveScreenshot(current().page, current().shots, name),
    extensionLog() {
      const { server, logsBefore } = current();
      const files = [...extensionLogs(server)].filter((file) => !logsBefore.has(file));
      if (files.length !== 1) throw new Error(`expected one extension log of this file's window under ${server.userDataDir}, found ${files.length}`);
      return fs.readFileSync(files[0], 'utf8');
    },
    setLedgerClockOffset(ms) {
      fs.writeFileSync(current().ledgerClockFile, String(ms));
    },
    async reloadWindow() {
      const { page } = current();
      const started = Date.now();
      const loaded = page.waitForEvent('load', { timeout: 60_000 });
      await workbench.runCommand(page, 'Developer: Reload Window');
      await loaded;
      await waitForWorkbench(page);
      console.log(`    [ui] window reloaded in ${seconds(started)}`);
    },
  };
  return fixture;
}
