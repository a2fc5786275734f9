import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dialog, Frame, Page, Request } from 'playwright-core';
import type { PageDocument } from '../bench/webviewPage';
import { waitFor } from '../harness/wait';
import { useWorkbench } from './fixture';
import { CORPUS_END, hostileCorpus, inspectMessages } from './hostileCorpus';

interface ProbeWindow {
  __pwned: unknown[];
  __violations: string[];
  __messages: string[];
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}
declare const window: ProbeWindow;
declare const document: PageDocument & { title: string; querySelectorAll(selector: string): ArrayLike<unknown> };
declare const Image: new () => { src: string };

/** A listener on 127.0.0.1 that every loading payload points at: any hit is a load that got out. */
async function startCanary(): Promise<{ origin: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The extension's HTML inside the workbench's webview host frame. */
async function webviewContent(page: Page): Promise<Frame> {
  const hostElement = await page.locator('iframe.webview.ready').first().elementHandle({ timeout: 30_000 });
  const contentElement = await (await hostElement?.contentFrame())?.locator('iframe#active-frame').elementHandle({ timeout: 30_000 });
  const content = await contentElement?.contentFrame();
  if (!content) throw new Error('the chat webview frame is not there');
  return content;
}

/**
 * The acceptance test for model output: a hostile markdown corpus, streamed by the emulator
 * in 7-character pieces (tags and attributes split across deltas), through the real chat panel in
 * VS Code. Nothing in it may run, load or post anything.
 */
describe('chat panel: hostile markdown through the real webview', () => {
  // Paced so the corpus arrives in many appends (the host batches deltas per ~24 ms): its 595 pieces
  // in about 2 s, some 80 appends of a few pieces each. chatHostileMarkdown.test.ts appends every piece.
  const ui = useWorkbench({ emulator: { tokensPerSecond: 300 } });
  let canary: Awaited<ReturnType<typeof startCanary>>;
  const chat = () => ui.chatFrame();
  const answer = () => chat().locator('.message.role-assistant').last();

  before(async () => {
    canary = await startCanary();
  });
  let detach = () => {};
  after(async () => {
    detach();
    await canary?.close();
  });

  it('streams the corpus without running, loading or posting anything', async () => {
    const corpus = hostileCorpus(canary.origin);
    const requests: string[] = [];
    const onRequest = (request: Request) => requests.push(request.url());
    const dialogs: string[] = [];
    const onDialog = (dialog: Dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    };
    // The tab may be the next file's too (sharedWorkbench.ts): the listeners leave with this file.
    const { page } = ui;
    page.context().on('request', onRequest);
    page.on('dialog', onDialog);
    detach = () => {
      page.context().off('request', onRequest);
      page.off('dialog', onDialog);
    };

    await ui.pickFromCommand('Inference: Pick Chat Model', 'emu-chat-large');
    await ui.runCommand('Inference: Open Chat');
    await chat().locator('.composer-input').waitFor({ state: 'visible', timeout: 30_000 });
    const content = await webviewContent(ui.page);
    const title = await content.evaluate(() => document.title);
    // Probes, installed by Playwright (outside the page's CSP): the marks payloads would leave, and
    // every CSP violation. VS Code makes `parent` the frame itself, so parent.postMessage lands here.
    await content.evaluate(() => {
      window.__pwned = [];
      window.__violations = [];
      window.__messages = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
      window.addEventListener('message', (event) => {
        // The host's own messages carry the corpus as text; a payload's is `{pwned: tag}`.
        if (typeof event.data === 'object' && event.data !== null && 'pwned' in event.data) window.__messages.push(JSON.stringify(event.data));
      });
    });
    const stylesBefore = await content.evaluate(() => document.querySelectorAll('style, link').length);

    ui.emulator.scriptReply('production', { text: corpus, chunkChars: 7 });
    const composer = chat().locator('.composer-input');
    await composer.click();
    await composer.fill(`Render this <img src="${canary.origin}/user" onerror="window.__pwned.push('user')">`);
    await composer.press('Enter');
    const lengths: number[] = [];
    await waitFor('the hostile answer to arrive in pieces', async () => {
      const text = (await answer().locator('.markdown').textContent()) ?? '';
      if (text.length && text.length !== lengths.at(-1)) lengths.push(text.length);
      return text.includes(CORPUS_END) && (await answer().locator('.message-status').isHidden());
    }, { timeoutMs: 60_000, intervalMs: 50 });
    assert.ok(lengths.length >= 3, `the answer grew in steps while streaming (${lengths.join(', ')})`);
    const record = ui.emulator.requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1);
    assert.equal(record?.scripted, true, 'the emulator streamed the scripted corpus');

    // A load that got past the sanitiser would still meet the CSP: show that it is in force here.
    await content.evaluate((url) => {
      new Image().src = url;
    }, `${canary.origin}/csp-probe`);
    await waitFor('the CSP to refuse the probe image', () => content.evaluate(() => window.__violations.some((v) => v.includes('csp-probe'))), { timeoutMs: 5000, intervalMs: 50 });

    const findings = await content.evaluate(inspectMessages);
    assert.deepEqual(findings.elements, [], 'no script, frame, object, embed, SVG, style, link, media or form element');
    assert.deepEqual(findings.handlers, [], 'no event handler, style or srcdoc attribute');
    assert.deepEqual(findings.urls, [], 'no src, srcset, action, data or poster attribute');
    for (const href of findings.hrefs) assert.match(href, /^(https?:|mailto:)/, `unsafe href ${href}`);
    assert.ok(findings.hrefs.includes('https://example.com/safe'), 'safe links are still links');
    assert.ok(findings.text.includes("<script>window.__pwned.push('script')"), 'raw HTML is shown as text');
    assert.match(await chat().locator('.message.role-user .user-text').last().innerText(), /<img src=.*onerror=/, 'the user message is text too');

    assert.deepEqual(await content.evaluate(() => window.__pwned), [], 'no payload ran');
    assert.equal(await content.evaluate(() => document.title), title, 'no payload changed the title');
    assert.deepEqual(await content.evaluate(() => window.__messages), [], 'no payload posted a message');
    // The extension's log: the host logs every message from the webview that is not protocol.
    const log = ui.extensionLog();
    assert.match(log, /\S/, 'the extension log is being written');
    assert.doesNotMatch(log, /malformed message|pwned/i, 'no payload reached the extension through acquireVsCodeApi');
    assert.deepEqual(dialogs, [], 'no dialog opened');
    assert.equal(await content.evaluate(() => document.querySelectorAll('style, link').length), stylesBefore, 'no style or link element was added');
    const violations = await content.evaluate(() => window.__violations);
    assert.deepEqual(violations.filter((v) => !v.includes('csp-probe')), [], 'nothing but the probe even tried to break the CSP');
    // Chromium reports even a request the CSP then refuses: only the probe may appear, and fail.
    assert.deepEqual(requests.filter((url) => url.startsWith(canary.origin)), [`${canary.origin}/csp-probe`], 'no payload even asked for the canary');
    assert.deepEqual(canary.hits, [], 'the canary received no request, not even the probe');
    // The page never submits anything: the frame VS Code built for it may not submit forms either.
    const sandbox = await (await ui.page.locator('iframe.webview.ready').first().elementHandle())?.contentFrame()
      .then((host) => host?.locator('iframe#active-frame').getAttribute('sandbox'));
    assert.ok(sandbox !== undefined && sandbox !== null, 'the content frame is sandboxed');
    assert.doesNotMatch(sandbox, /allow-forms/, `no allow-forms in "${sandbox}"`);
    await ui.screenshot('01-hostile-corpus-rendered');
  });
});
