import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import type { BrowserContext } from 'playwright-core';
import { workbenchUrl, type CodeServer, type WorkbenchOptions } from './codeServer';
import { withTimeout } from './wait';

export interface ExtensionTestRun extends WorkbenchOptions {
  extensionTestsPath: string;
  /** Label printed before every line of the extension host's output. */
  label: string;
  /** Receives everything the window logs, noise included. */
  logFile?: string;
  timeoutMs?: number;
}

/**
 * Workbench chatter that is not the tests' output: the unreachable extension gallery, connection
 * set-up, cancellations while the window shuts its extension host down, and the workbench's stack
 * trace for every language model request that fails (the tests provoke them). Printed to the log file only.
 */
const NOISE =
  /ENOTFOUND open-vsx\.org|^(Resolving connection token|Resolved connection token|Creating a socket|Canceled: Canceled|Updating additional builtin extensions|\[CHAT\] extension request ERRORED|\[(reconnection-grace-time|Service Worker|AgentHost:remote|AccountPolicyGate)\])/;

/** The workbench forwards console calls of the extension host as their argument lists. */
function formatLog(message: unknown): string {
  let args = message;
  if (typeof message === 'string') {
    try {
      args = JSON.parse(message);
    } catch {
      return message;
    }
  }
  return Array.isArray(args) ? format(...(args as unknown[])) : String(args);
}

/**
 * Opens one workbench window whose extension host runs `extensionTestsPath` (the contract of
 * @vscode/test-electron) and resolves with the exit code the workbench reports for `run()`.
 * The host's output (mocha's report) is printed as it arrives.
 */
export async function runExtensionTests(
  context: BrowserContext,
  server: CodeServer,
  run: ExtensionTestRun,
): Promise<number> {
  const log = run.logFile;
  if (log) fs.mkdirSync(path.dirname(log), { recursive: true });
  if (log) fs.writeFileSync(log, '');
  const page = await context.newPage();
  try {
    let settle: (code: number) => void = () => undefined;
    const exited = new Promise<number>((resolve) => (settle = resolve));
    await page.exposeFunction('codeAutomationLog', (_level: unknown, message: unknown) => {
      const text = formatLog(message).replace(/\n$/, '');
      if (log) fs.appendFileSync(log, text + '\n');
      if (!NOISE.test(text)) console.log(text.replace(/^/gm, '  '));
    });
    await page.exposeFunction('codeAutomationExit', (code: unknown) => settle(typeof code === 'number' ? code : 1));
    page.on('crash', () => {
      console.error(`[${run.label}] the workbench page crashed`);
      settle(1);
    });
    await page.goto(workbenchUrl(server, run), { timeout: 60_000 });
    // The workspace window runs most of the tier (the fault matrix, the soak): 185 s idle, over 300 s
    // beside the UI tier on a loaded 2-core machine. The tier's own limit still bounds the whole.
    return await withTimeout(`extension tests in the ${run.label} window`, exited, run.timeoutMs ?? 10 * 60_000);
  } finally {
    await page.close().catch(() => undefined);
  }
}
