import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser as ChromiumProcess } from 'playwright-core';
import type { EnvironmentName } from '../emulator';
import { generateKey } from '../emulator/keys';
import { launchChromium, newWindow, type Browser } from '../harness/browser';
import { startCodeServer, type CodeServer } from '../harness/codeServer';
import { apiKeyEnvironment } from '../harness/extensionSetup';
import { RESULTS_DIR } from '../harness/paths';
import { registerCleanup, stopExtensionHosts } from '../harness/processes';

/**
 * One code-server, one Chromium and one browser tab for the UI files of this mocha process that need
 * nothing of their own (fixture.ts decides), one file after the other. What a file costs most is
 * loading the workbench: in a tab that loaded it before, the renderer has the workbench's scripts
 * compiled, and a load takes about 7 CPU-s instead of 11.5 (measured on 2 quiet cores), plus ~4.5 as
 * its extension host and extensions start in the 10 s after (measured per process, test/README.md).
 *
 * A file is isolated all the same: its own emulator and workspace folder, user settings written for
 * it before its window opens, the origin's browser storage cleared before it (the workbench's
 * storage, SecretStorage and the extension's global state start empty), the extension's global
 * storage folder (history, usage ledger) emptied, and, when it ends, its extension host stopped, so
 * that nothing of it writes into the next file's storage.
 */
export interface SharedHost {
  readonly server: CodeServer;
  readonly chromium: ChromiumProcess;
  /**
   * Each environment's `full` demo key, in code-server's environment (INFERENCE_API_KEY_<ENV>), so
   * every window imports it: each file's emulator is started with it (EmulatorOptions.fullKeys).
   */
  readonly keys: Record<EnvironmentName, string>;
  /** The tab files take turns in (sharedWindow). */
  tab?: Browser;
  /** The extension's ledger clock offset (LEDGER_CLOCK_ENV), which a file sets and clearForNextFile removes. */
  readonly ledgerClockFile: string;
}

/**
 * The file whose number of milliseconds the extension adds to its ledger clock (read on each reading,
 * and only by a non-production extension): a UI file spends "yesterday" without a window of its own.
 */
export const LEDGER_CLOCK_ENV = 'INFERENCE_TEST_CLOCK_FILE';

/** The emulator's default key prefix: a file whose emulator sets another cannot share (fixture.ts). */
const KEY_PREFIX = 'svc-';
let shared: Promise<SharedHost> | undefined;
let sharedBrowser: Promise<ChromiumProcess> | undefined;

export function sharedHost(): Promise<SharedHost> {
  shared ??= startSharedHost();
  return shared;
}

/**
 * The tier's one Chromium, also for the files that test the webview bundle in a bare page
 * (bench/webviewPage.ts, each in a context of its own): a launch of its own costs a second or two.
 */
export function sharedChromium(): Promise<ChromiumProcess> {
  sharedBrowser ??= launchChromium();
  return sharedBrowser;
}

async function startSharedHost(): Promise<SharedHost> {
  const keys = { production: generateKey(KEY_PREFIX), preview: generateKey(KEY_PREFIX) };
  const clockDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inference-ledger-clock-'));
  const removeClockDir = (): void => fs.rmSync(clockDir, { recursive: true, force: true });
  registerCleanup({ name: 'ledger clock', stop: async () => removeClockDir(), stopNow: removeClockDir });
  const ledgerClockFile = path.join(clockDir, 'offset');
  const server = await startCodeServer({
    env: { ...apiKeyEnvironment(keys), [LEDGER_CLOCK_ENV]: ledgerClockFile },
    // Without code-server's --disable-workspace-trust, each window follows its user settings: off
    // (BASE_SETTINGS) but for a file that turns it on (WorkbenchOptions.workspaceTrust).
    workspaceTrust: true,
    logFile: path.join(RESULTS_DIR, 'ui', `shared-${process.pid}-code-server.log`),
  });
  try {
    return { server, chromium: await sharedChromium(), keys, ledgerClockFile };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** Where the extension keeps its global storage (chat history, usage ledger, reservations) in a server's user data. */
export function extensionStorage(server: Pick<CodeServer, 'userDataDir'>): string {
  return path.join(server.userDataDir, 'User', 'globalStorage', 'inference-client.inference-client');
}

/**
 * Ends what a file left in the shared host: its extension hosts (code-server keeps a window's
 * extension host for hours after the window closed, in case it reconnects) and the extension's global storage.
 */
export async function clearForNextFile(host: SharedHost): Promise<void> {
  await stopExtensionHosts(host.server.process.pid);
  fs.rmSync(extensionStorage(host.server), { recursive: true, force: true, maxRetries: 3 });
  fs.rmSync(host.ledgerClockFile, { force: true });
}

/** Storage a workbench keeps in the browser for its origin: everything but the HTTP cache, which holds no state of a file. */
const ORIGIN_STORAGE = 'cookies,file_systems,indexeddb,local_storage,websql,service_workers,cache_storage';

/**
 * The shared tab, with the origin's storage cleared, for the next file's workbench. Its `close()`
 * leaves the workbench for a blank page (the workbench saves its state as it unloads) and closes the
 * other tabs the file opened. A file that listens to the tab's events stops listening when it ends.
 */
export async function sharedWindow(host: SharedHost): Promise<Browser> {
  if (!host.tab || host.tab.page.isClosed()) host.tab = await newWindow(host.chromium);
  const { context, page } = host.tab;
  const session = await context.newCDPSession(page);
  try {
    await session.send('Storage.clearDataForOrigin', { origin: host.server.origin, storageTypes: ORIGIN_STORAGE });
  } finally {
    await session.detach();
  }
  const leave = async (): Promise<void> => {
    for (const other of context.pages()) if (other !== page) await other.close();
    // A tab that cannot leave (a page that hangs) is closed instead: the next file opens a new one.
    if (!page.isClosed()) await page.goto('about:blank', { timeout: 15_000 }).catch(() => page.close());
  };
  return { context, page, close: leave };
}

/** Mocha's global teardown (tierSetup.ts): stops the shared code-server and Chromium, if they were started. */
export async function stopSharedHost(): Promise<void> {
  const started = shared;
  const browser = sharedBrowser;
  shared = undefined;
  sharedBrowser = undefined;
  const host = await started?.catch(() => undefined);
  await host?.tab?.close().catch(() => undefined);
  await (await browser?.catch(() => undefined))?.close().catch(() => undefined);
  await host?.server.stop();
}
