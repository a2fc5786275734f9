import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser as ChromiumProcess, type BrowserContext, type Page } from 'playwright-core';
import { registerCleanup } from './processes';
import { findHeadlessChromium, provision } from './provision';
import { waitFor } from './wait';

export interface Browser {
  readonly context: BrowserContext;
  readonly page: Page;
  close(): Promise<void>;
}

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Debian's headless Chromium (findHeadlessChromium), with a fresh profile that is removed on close. */
export async function launchBrowser(viewport = { width: 1400, height: 900 }): Promise<Browser> {
  await provision({ chromium: true });
  const executablePath = findHeadlessChromium();
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inference-chromium-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
    timeout: 60_000,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    unregister();
    await context.close().catch(() => undefined);
    fs.rmSync(profileDir, { recursive: true, force: true, maxRetries: 3 });
  };
  // Playwright kills its browser when this process exits; the cleanup also covers signals.
  const unregister = registerCleanup({ name: 'chromium', stop: close, stopNow: () => undefined });
  return { context, page, close };
}

/**
 * Debian's headless Chromium, for several windows one after the other (the UI files that share a
 * code-server): each takes a context of its own (newWindow), whose storage starts empty.
 */
export async function launchChromium(): Promise<ChromiumProcess> {
  await provision({ chromium: true });
  const browser = await chromium.launch({ executablePath: findHeadlessChromium(), headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
  // Playwright kills its browser when this process exits; the cleanup also covers signals.
  const unregister = registerCleanup({ name: 'chromium', stop: () => browser.close().catch(() => undefined), stopNow: () => undefined });
  browser.on('disconnected', unregister);
  return browser;
}

/** A fresh context (no cookies, no storage: a first visit) of a running Chromium, with one page. */
export async function newWindow(browser: ChromiumProcess, viewport = { width: 1400, height: 900 }): Promise<Browser> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  return { context, page, close: () => context.close().catch(() => undefined) };
}

/** Waits until the workbench is restored (status bar visible, smoke-test driver says so). */
export async function waitForWorkbench(page: Page, timeoutMs = 90_000): Promise<void> {
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: timeoutMs });
  await waitFor(
    'the workbench to be restored',
    () =>
      page.evaluate(async () => {
        const driver = (globalThis as { driver?: { whenWorkbenchRestored(): Promise<void> } }).driver;
        if (!driver) return false;
        await driver.whenWorkbenchRestored();
        return true;
      }),
    { timeoutMs },
  );
}
