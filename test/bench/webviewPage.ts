import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { findChromium, provision } from '../harness/provision';
import { chatHtml } from '../../src/core/webviewHtml';
import { CHAT_PROTOCOL_VERSION, type HostToWebview, type SnapshotMessage } from '../../src/core/chat/protocol/chatProtocol';

/**
 * The real chat webview bundle (dist/webview/main.js) in Debian Chromium, outside VS Code: a static
 * page with the same HTML template and CSP the panel uses, and a fake `acquireVsCodeApi` that records
 * what the webview posts. Used by the benchmark and by the hostile-markdown test.
 */

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

const SERVED: Record<string, { file: string; type: string }> = {
  // INFERENCE_BENCH_WEBVIEW_BUNDLE: a bundle built from another commit, for before/after figures.
  '/dist/webview/main.js': { file: process.env.INFERENCE_BENCH_WEBVIEW_BUNDLE ?? 'dist/webview/main.js', type: 'text/javascript' },
  '/dist/webview/codicon.css': { file: 'dist/webview/codicon.css', type: 'text/css' },
  '/dist/webview/codicon.ttf': { file: 'dist/webview/codicon.ttf', type: 'font/ttf' },
  '/media/chat.css': { file: 'media/chat.css', type: 'text/css' },
};

/** A conversation `id` whose one message, an assistant answer `a` with no text yet, is streaming. */
export function streamingAnswerSnapshot(id: string, title: string): SnapshotMessage {
  return {
    v: CHAT_PROTOCOL_VERSION, type: 'snapshot',
    conversation: { id, title, params: {}, messages: [{ id: 'a', role: 'assistant', text: '', createdAt: 0, status: 'streaming' }] },
    streaming: { messageId: 'a', seq: 0 },
    attachments: [], environment: { defaults: {} },
  };
}

/** An empty conversation: the composer and nothing else. */
export function emptyConversationSnapshot(id: string, title: string): SnapshotMessage {
  return {
    v: CHAT_PROTOCOL_VERSION, type: 'snapshot',
    conversation: { id, title, params: {}, messages: [] },
    attachments: [], environment: { defaults: {} },
  };
}

/**
 * Answers, as the host would, the latest request of `method` the page posted (waiting up to 2 s for
 * it), then forgets what the page posted so far.
 */
export async function answerRequest(page: Page, method: string, result: unknown): Promise<void> {
  await page.evaluate(async ({ method, result, v }) => {
    const asked = () => window.__posted.findLast((m) => (m as { method?: string }).method === method) as { id: number } | undefined;
    for (let i = 0; i < 200 && !asked(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const request = asked();
    if (!request) throw new Error(`the page did not ask for "${method}"`);
    window.__deliver({ v, type: 'response', id: request.id, ok: true, result } as Parameters<typeof window.__deliver>[0]);
    window.__posted.length = 0;
  }, { method, result, v: CHAT_PROTOCOL_VERSION });
}

export interface WebviewPage {
  page: Page;
  origin: string;
  /** Every URL the page requested, in order. */
  requests: string[];
  close(): Promise<void>;
}

export interface WebviewPageOptions {
  /** Replace requestAnimationFrame and requestIdleCallback with queues that `__pumpFrame()` runs, for deterministic timing. */
  manualFrames?: boolean;
  /**
   * Frames as fast as the page can render them (no 60 Hz vsync wait), so that a benchmark of thousands
   * of real frames (style, layout and paint included, see `__frame()`) takes seconds, not minutes.
   */
  unthrottledFrames?: boolean;
  /** Serve this webview bundle instead of the built one (a bundle of another commit, for before/after). */
  bundle?: string;
  /** Give the page `__cpuNow()`, the CPU time its renderer has used so far. */
  cpuClock?: boolean;
  /**
   * A running Chromium to open the page in, in a context of its own (fresh storage), instead of
   * launching one (a UI tier's shared Chromium: a launch costs a second or two). Not with
   * `unthrottledFrames`, which is a flag of the launch.
   */
  browser?: Browser;
}

/**
 * `window.__cpuNow()`: the renderer's CPU time so far, from Chromium's own counters (DevTools
 * Performance.getMetrics), read between two of the page's tasks. Wall time on a loaded 2-core
 * machine includes waiting for a core; CPU time does not, so it tells our work from the machine's.
 */
async function exposeCpuClock(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const now = async (): Promise<CpuTime> => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const value = (name: string) => (metrics.find((m) => m.name === name)?.value ?? Number.NaN) * 1000;
    return { mainThreadMs: value('ThreadTime'), processMs: value('ProcessTime') };
  };
  await page.exposeFunction('__cpuNow', now);
  await page.exposeFunction('__cpuSince', async (before: CpuTime): Promise<CpuTime> => {
    const after = await now();
    return { mainThreadMs: after.mainThreadMs - before.mainThreadMs, processMs: after.processMs - before.processMs };
  });
}

/** CPU milliseconds used so far by the renderer's main thread, and by its whole process (compositor, raster and GC threads too; ~10 ms resolution). */
export interface CpuTime {
  mainThreadMs: number;
  processMs: number;
}

export async function openWebviewPage(options: WebviewPageOptions = {}): Promise<WebviewPage> {
  const bundle = path.join(REPO_ROOT, 'dist/webview/main.js');
  if (!fs.existsSync(bundle)) throw new Error(`${bundle} is missing: run "npm run build" first`);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/' || url.pathname === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(pageHtml(origin));
    } else if (SERVED[url.pathname]) {
      const entry = SERVED[url.pathname];
      const file = url.pathname === '/dist/webview/main.js' && options.bundle ? options.bundle : entry.file;
      res.writeHead(200, { 'content-type': entry.type }).end(fs.readFileSync(path.resolve(REPO_ROOT, file)));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (options.browser && options.unthrottledFrames) throw new Error('unthrottledFrames needs a Chromium launched with its flags, not a running one');
  const viewport = { width: 900, height: 800 };
  const userDataDir = options.browser ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'chat-webview-'));
  let context: BrowserContext | undefined;
  try {
    if (options.browser) context = await options.browser.newContext({ viewport });
    else {
      await provision({ chromium: true });
      context = await chromium.launchPersistentContext(userDataDir!, {
        executablePath: findChromium(),
        headless: true,
        viewport,
        args: [
          '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--disable-component-update',
          ...(options.unthrottledFrames ? ['--disable-frame-rate-limit', '--disable-gpu-vsync'] : []),
        ],
      });
    }
    const page = context.pages()[0] ?? (await context.newPage());
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.addInitScript(fakeVsCodeApi, { manualFrames: options.manualFrames ?? false });
    if (options.cpuClock) await exposeCpuClock(page);
    await page.goto(`${origin}/index.html`);
    await page.waitForFunction(() => window.__posted.some((m: unknown) => (m as { type?: string }).type === 'ready'));
    const opened = context;
    return {
      page,
      origin,
      requests,
      close: async () => {
        await opened.close();
        server.close();
        if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await context?.close();
    server.close();
    if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
    throw error;
  }
}

function pageHtml(origin: string): string {
  return chatHtml({
    cspSource: origin,
    scriptUri: `${origin}/dist/webview/main.js`,
    styleUris: [`${origin}/dist/webview/codicon.css`, `${origin}/media/chat.css`],
  });
}

/**
 * Browser globals as seen by the functions this file and its users run inside the page. The test
 * program has no DOM lib (it is Node code), so the few members used are declared here.
 */
export interface PageElement {
  outerHTML: string;
  innerHTML: string;
  textContent: string | null;
  tagName: string;
  attributes: ArrayLike<{ name: string; value: string }>;
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
}

export interface PageWindow {
  __posted: unknown[];
  __violations: string[];
  __pwned: unknown[];
  __deliver(message: HostToWebview): number;
  __pumpFrame(): number;
  /** Milliseconds of the page's own script so far: message handling, animation-frame and idle callbacks. */
  __scriptMs: number;
  /** Of those, the idle callbacks': work the page deferred out of its frames, counted all the same. */
  __idleMs: number;
  /**
   * Resolves after the next frame has been painted, with the milliseconds from the start of its first
   * animation-frame callback (the webview's render) to the first task after the frame: render, style,
   * layout and paint, without the idle wait for the frame.
   */
  __frame(): Promise<number>;
  /** With the cpuClock option (exposeCpuClock). */
  __cpuNow?: () => Promise<CpuTime>;
  /** The CPU time used since `before` (a `__cpuNow()`). */
  __cpuSince?: (before: CpuTime) => Promise<CpuTime>;
  acquireVsCodeApi?: () => unknown;
  requestAnimationFrame(callback: (time: number) => void): number;
  requestIdleCallback(callback: (deadline: IdleDeadlineLike) => void, options?: { timeout?: number }): number;
  dispatchEvent(event: unknown): boolean;
}

interface IdleDeadlineLike {
  didTimeout: boolean;
  timeRemaining(): number;
}

export interface PageDocument {
  body: PageElement & { offsetHeight: number };
  addEventListener(type: 'securitypolicyviolation', listener: (event: { violatedDirective: string; blockedURI: string }) => void): void;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
}

declare const window: PageWindow;
declare const document: PageDocument;
declare const MessageEvent: new (type: string, init: { data: unknown }) => unknown;
declare const MessageChannel: new () => { port1: { onmessage: (() => void) | null }; port2: { postMessage(message: unknown): void } };

/** Runs in the page before any page script (Playwright init scripts are not subject to the CSP). */
function fakeVsCodeApi({ manualFrames }: { manualFrames: boolean }): void {
  let state: unknown;
  window.__posted = [];
  window.__violations = [];
  window.__pwned = [];
  window.acquireVsCodeApi = () => ({
    postMessage: (message: unknown) => window.__posted.push(message),
    getState: () => state,
    setState: (next: unknown) => { state = next; },
  });
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__violations.push(`${event.violatedDirective} ${event.blockedURI}`);
  });
  window.__scriptMs = 0;
  window.__deliver = (message) => {
    const start = performance.now();
    window.dispatchEvent(new MessageEvent('message', { data: message }));
    const ms = performance.now() - start;
    window.__scriptMs += ms;
    return ms;
  };
  let queue: ((time: number) => void)[] = [];
  let idleQueue: ((deadline: IdleDeadlineLike) => void)[] = [];
  const nativeFrame = window.requestAnimationFrame.bind(window);
  const nativeIdle = window.requestIdleCallback.bind(window);
  window.__idleMs = 0;
  if (manualFrames) {
    window.requestIdleCallback = (callback) => idleQueue.push(callback);
  } else {
    window.requestIdleCallback = (callback, options) => nativeIdle((deadline) => {
      const start = performance.now();
      callback(deadline);
      const ms = performance.now() - start;
      window.__scriptMs += ms;
      window.__idleMs += ms;
    }, options);
  }
  /**
   * When the current frame's first animation-frame callback ran. Every callback of one frame gets the
   * same timestamp, so a new timestamp is a new frame: a frame the page's own callbacks ran with no
   * `__frame()` waiting must not start the next measured one (a start kept until a `__frame()`
   * resolved counted the time between them too: the first scrolled frame after opening a
   * conversation read 30–60 ms, and 100 ms more after a 100 ms pause).
   */
  let frameStart = 0;
  let frameTime: number | undefined;
  const frameBegins = (time: number): void => {
    if (time === frameTime) return;
    frameTime = time;
    frameStart = performance.now();
  };
  if (manualFrames) {
    window.requestAnimationFrame = (callback) => queue.push(callback);
  } else {
    window.requestAnimationFrame = (callback) => nativeFrame((time) => {
      frameBegins(time);
      const start = performance.now();
      callback(time);
      window.__scriptMs += performance.now() - start;
    });
  }
  window.__frame = () => new Promise((resolve) => {
    nativeFrame((time) => {
      frameBegins(time);
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve(performance.now() - frameStart);
      channel.port2.postMessage(0);
    });
  });
  /**
   * Runs the queued frame callbacks and the style/layout they cause, then the idle callbacks queued
   * so far (the idle time after a frame); returns the milliseconds spent.
   */
  window.__pumpFrame = () => {
    const start = performance.now();
    const callbacks = queue;
    queue = [];
    for (const callback of callbacks) callback(start);
    void document.body.offsetHeight;
    const idle = idleQueue;
    idleQueue = [];
    for (const callback of idle) callback({ didTimeout: false, timeRemaining: () => 50 });
    return performance.now() - start;
  };
}
