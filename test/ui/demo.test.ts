import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { resolveOptions } from '../emulator/types';
import { launchBrowser, type Browser } from '../harness/browser';
import { OUT_DIR, pathWithProjectNode, projectNode } from '../harness/paths';
import { spawnGroup, type GroupProcess } from '../harness/processes';
import { waitFor, withTimeout } from '../harness/wait';
import { saveScreenshot, screenshotFolder } from './fixture';
import { runCommand, statusBarItem } from './workbench';

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

/** `npm run demo` end to end: packaged VSIX, private code-server, emulator, printed URL, Ctrl+C. */
describe('npm run demo', () => {
  let demo: GroupProcess | undefined;
  let browser: Browser | undefined;
  let output = '';
  let url = '';
  let shots = '';

  before(async function () {
    this.timeout(300_000);
    shots = screenshotFolder(this.test?.file);
    // The same script `npm run demo` runs after building it.
    demo = spawnGroup('demo', projectNode(), [path.join(OUT_DIR, 'test', 'tools', 'demo.js')], {
      env: { ...process.env, PATH: pathWithProjectNode() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    demo.child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    demo.child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const printed = waitFor('the demo to print its URL', () => /^\s*URL: (http\S+)/m.exec(output)?.[1], {
      timeoutMs: 280_000,
      intervalMs: 250,
    });
    // A demo that stopped (a failed build or package) fails the hook at once, not after the timeout.
    const stopped = demo.exited.then((code) => {
      throw new Error(`the demo exited (${code}) before printing its URL`);
    });
    printed.catch(() => undefined);
    stopped.catch(() => undefined);
    url = await Promise.race([printed, stopped]).catch((error: unknown) => {
      throw new Error(`${String(error)}\n--- demo output ---\n${output}`);
    });
    browser = await launchBrowser();
  });

  after(async function () {
    this.timeout(60_000);
    await browser?.close();
    await demo?.stop();
  });

  it('opens VS Code with the installed extension active and the demo key working', async function () {
    this.timeout(120_000);
    const page = browser!.page;
    await page.goto(url, { timeout: 60_000 });
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 90_000 });
    await statusBarItem(page, /credits|balance unknown/).first().waitFor({ state: 'visible', timeout: 60_000 });
    await saveScreenshot(page, shots, '01-demo-workbench');
    // The key reached the extension through the environment only: a balance refresh succeeds.
    await runCommand(page, 'Inference: Refresh Balance');
    await statusBarItem(page, /[\d,.]+ credits/).first().waitFor({ state: 'visible', timeout: 30_000 });
    await saveScreenshot(page, shots, '02-demo-balance');
    assert.ok(!output.includes(resolveOptions().keyPrefix), 'the demo must not print API keys');
  });

  it('stops code-server and the emulator on Ctrl+C', async function () {
    this.timeout(60_000);
    const emulatorUrl = /production (http\S+)/.exec(output)?.[1];
    assert.ok(emulatorUrl, `the demo prints the emulator's URL:\n${output}`);
    await browser?.close();
    process.kill(demo!.pid, 'SIGINT');
    const exit = await withTimeout('the demo to exit after SIGINT', demo!.exited, 30_000);
    assert.notEqual(exit, 'SIGKILL');
    assert.equal(await answers(url), false, 'code-server still answers after Ctrl+C');
    assert.equal(await answers(emulatorUrl), false, 'the emulator still answers after Ctrl+C');
  });
});
