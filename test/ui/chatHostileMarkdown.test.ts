import * as assert from 'node:assert/strict';
import { CHAT_PROTOCOL_VERSION, type SnapshotMessage } from '../../src/core/chat/protocol/chatProtocol';
import { openWebviewPage, type PageDocument, type PageWindow, type WebviewPage } from '../bench/webviewPage';
import { CORPUS_END, hostileCorpus, inspectMessages } from './hostileCorpus';
import { sharedChromium } from './sharedWorkbench';

declare const window: PageWindow;
declare const document: PageDocument;

/**
 * The fast check of the hostile corpus: the real webview bundle under the real CSP in bare Chromium,
 * streamed in small deltas and as a finished answer (chatHostile.test.ts runs it through the real
 * panel in VS Code). Nothing in it may run, load, navigate or style the page.
 */
const HOSTILE = hostileCorpus('http://127.0.0.1:9');

function snapshot(id: string, text: string, status: 'streaming' | 'done'): SnapshotMessage {
  return {
    v: CHAT_PROTOCOL_VERSION, type: 'snapshot',
    conversation: { id, title: 'Hostile', params: {}, messages: [
      { id: 'u', role: 'user', text: '<img src=x onerror="window.__pwned.push(\'user\')">', createdAt: 0 },
      { id: 'a', role: 'assistant', text: status === 'done' ? text : '', createdAt: 0, status },
    ] },
    ...(status === 'streaming' && { streaming: { messageId: 'a', seq: 0 } }),
    attachments: [], environment: { defaults: {} },
  };
}

describe('chat webview: hostile markdown corpus (real bundle, real CSP, Chromium)', function () {
  this.timeout(60_000);
  let webview: WebviewPage;

  before(async () => {
    webview = await openWebviewPage({ browser: await sharedChromium() });
  });
  after(async () => {
    await webview?.close();
  });

  for (const mode of ['streamed in small deltas', 'as a finished answer'] as const) {
    it(`runs, loads and styles nothing when ${mode}`, async () => {
      const { page } = webview;
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      const id = mode === 'as a finished answer' ? 'done' : 'streamed';
      await page.evaluate(({ start, text, streamed }) => {
        window.__deliver(start);
        if (!streamed) return;
        for (let i = 0, seq = 1; i < text.length; i += 7, seq++) {
          window.__deliver([start.v, seq, text.slice(i, i + 7)]);
        }
        window.__deliver({ v: start.v, type: 'messagePatch', conversationId: 'streamed', messageId: 'a', status: 'done' });
      }, { start: snapshot(id, HOSTILE, mode === 'as a finished answer' ? 'done' : 'streaming'), text: HOSTILE, streamed: id === 'streamed' });
      await page.waitForFunction((end) => (document.querySelector('[data-message-id="a"] .markdown')?.textContent ?? '').includes(end), CORPUS_END);
      await page.waitForTimeout(500); // let any error/load handlers that slipped through fire

      const findings = await page.evaluate(inspectMessages);
      assert.deepEqual(findings.elements, [], 'no active or loading element survives');
      assert.deepEqual(findings.handlers, [], 'no event handler, style or srcdoc attribute survives');
      assert.deepEqual(findings.urls, [], 'no src, srcset, action, data or poster attribute survives');
      assert.ok(findings.hrefs.length >= 2, 'safe links are still links');
      for (const href of findings.hrefs) assert.match(href, /^(https?:|mailto:)/, `unsafe href ${href}`);
      assert.equal(await page.evaluate(() => document.querySelectorAll('style').length), 0, 'no <style> element in the document');
      assert.ok(await page.evaluate(() => document.body.offsetHeight > 0), 'injected CSS did not hide the page');
      assert.ok(findings.text.includes("<script>window.__pwned.push('script')"), 'raw HTML is shown as text');
      assert.deepEqual(await page.evaluate(() => window.__pwned), [], 'no injected code ran');
      assert.deepEqual(dialogs, []);
      assert.deepEqual(await page.evaluate(() => window.__violations), [], 'nothing even tried to break the CSP');
      const foreign = webview.requests.filter((url) => !url.startsWith(webview.origin));
      assert.deepEqual(foreign, [], 'nothing was fetched from anywhere but the extension');

      // Clicking links never navigates the webview: the click becomes an openLink request to the host.
      const before = page.url();
      await page.locator('[data-message-id="a"] .markdown a[href^="https://ok.test"]').first().click();
      assert.equal(page.url(), before);
      const posted = await page.evaluate(() => window.__posted as { method?: string; params?: { href?: string } }[]);
      assert.ok(posted.some((m) => m.method === 'openLink' && m.params?.href === 'https://ok.test/'), 'the host is asked to open the link');
      await page.screenshot({ path: `test-results/screenshots/chat-hostile-${id}.png`, fullPage: true });
    });
  }
});
