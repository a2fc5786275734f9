import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser as ChromiumProcess } from 'playwright-core';
import type { EnvironmentName } from '../emulator';
import { generateKey } from '../emulator/keys';
import { launchChromium } from '../harness/browser';
import { startCodeServer, type CodeServer } from '../harness/codeServer';
import { apiKeyEnvironment } from '../harness/extensionSetup';
import { RESULTS_DIR } from '../harness/paths';
import { extensionHosts } from '../harness/processes';
import { waitFor } from '../harness/wait';

/**
 * One code-server and one Chromium for the UI files of this mocha process that need nothing of
 * their own (fixture.ts decides), one file after the other. Starting them is not what a file costs
 * most (its workbench loading is), but it is paid once instead of once per file, and it keeps that
 * much CPU from the tier that runs alongside.
 *
 * A file is isolated all the same: its own emulator and workspace folder, user settings written for
 * it before its window opens, a fresh browser context (the workbench's storage, SecretStorage and
 * the extension's global state start empty), the extension's global storage folder (history, usage
 * ledger) emptied, and, when it ends, its extension host stopped, so that nothing of it writes into
 * the next file's storage.
 */
export interface SharedHost {
  readonly server: CodeServer;
  readonly chromium: ChromiumProcess;
  /**
   * Each environment's `full` demo key, in code-server's environment (INFERENCE_API_KEY_<ENV>), so
   * every window imports it: each file's emulator is started with it (EmulatorOptions.fullKeys).
   */
  readonly keys: Record<EnvironmentName, string>;
}

/** The emulator's default key prefix: a file whose emulator sets another cannot share (fixture.ts). */
const KEY_PREFIX = 'svc-';
let shared: Promise<SharedHost> | undefined;

export function sharedHost(): Promise<SharedHost> {
  shared ??= startSharedHost();
  return shared;
}

async function startSharedHost(): Promise<SharedHost> {
  const keys = { production: generateKey(KEY_PREFIX), preview: generateKey(KEY_PREFIX) };
  const server = await startCodeServer({
    env: apiKeyEnvironment(keys),
    logFile: path.join(RESULTS_DIR, 'ui', `shared-${process.pid}-code-server.log`),
  });
  try {
    return { server, chromium: await launchChromium(), keys };
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
  for (const { pid } of extensionHosts(host.server.process.pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  await waitFor('the closed window\'s extension host to end', () => extensionHosts(host.server.process.pid).length === 0, { timeoutMs: 15_000, intervalMs: 100 });
  fs.rmSync(extensionStorage(host.server), { recursive: true, force: true, maxRetries: 3 });
}

/** Mocha's global teardown (tierSetup.ts): stops the shared code-server and Chromium, if they were started. */
export async function stopSharedHost(): Promise<void> {
  const started = shared;
  shared = undefined;
  if (!started) return;
  const host = await started.catch(() => undefined);
  await host?.chromium.close().catch(() => undefined);
  await host?.server.stop();
}
