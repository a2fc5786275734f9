import * as assert from 'node:assert/strict';
import type { SnapshotMessage } from '../../src/core/chatProtocol';
import { openWebviewPage, type PageDocument, type PageElement, type PageWindow, type WebviewPage } from '../bench/webviewPage';

declare const window: PageWindow;
declare const document: PageDocument;

/**
 * Model output is hostile input. This corpus goes through the real webview bundle, under the real CSP,
 * in Chromium — both streamed in small deltas and as a finished answer — and nothing in it may run,
 * load, navigate or style the page.
 */
const HOSTILE = [
  '<script>window.__pwned.push("script")</script>',
  '<img src="http://127.0.0.1:9/img.png" onerror="window.__pwned.push(\'onerror\')">',
  '<svg onload="window.__pwned.push(\'svg\')"><script>window.__pwned.push("svg-script")</script></svg>',
  '<iframe src="javascript:parent.__pwned.push(\'iframe\')"></iframe><iframe srcdoc="<script>parent.__pwned.push(1)</script>"></iframe>',
  '<style>body { display: none }</style><link rel="stylesheet" href="http://127.0.0.1:9/x.css">',
  '<a href="javascript:window.__pwned.push(\'a\')">html link</a> <form action="http://127.0.0.1:9/"><button>go</button></form>',
  '[click me](javascript:window.__pwned.push("md-link")) [data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) [vb](vbscript:msgbox(1))',
  '![pixel](http://127.0.0.1:9/pixel.png) ![data](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '<details open ontoggle="window.__pwned.push(\'toggle\')">x</details> <video><source onerror="window.__pwned.push(\'video\')"></video>',
  '<object data="http://127.0.0.1:9/o"></object><embed src="http://127.0.0.1:9/e"><base href="http://127.0.0.1:9/">',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned.push(\'mxss\')">',
  '```html\n<script>window.__pwned.push("fence")</script>\n```',
  '```"><img src=x onerror="window.__pwned.push(\'info\')">\ncode\n```',
  '<div style="background:url(http://127.0.0.1:9/bg.png)">styled</div> <span style="position:fixed;inset:0">overlay</span>',
  '[x](https://ok.test/ "title\\" onmouseover=\\"window.__pwned.push(1)") <https://example.com/safe> plain https://example.com/auto',
].join('\n\n');

function snapshot(id: string, text: string, status: 'streaming' | 'done'): SnapshotMessage {
  return {
    v: 1, type: 'snapshot',
    conversation: { id, title: 'Hostile', params: {}, messages: [
      { id: 'u', role: 'user', text: '<img src=x onerror="window.__pwned.push(\'user\')">', createdAt: 0 },
      { id: 'a', role: 'assistant', text: status === 'done' ? text : '', createdAt: 0, status },
    ] },
    ...(status === 'streaming' && { streaming: { message: 'a', seq: 0 } }),
    attachments: [], environment: { defaults: {} },
  };
}

interface DomFindings { elements: string[]; handlers: string[]; hrefs: string[]; styles: number; bodyVisible: boolean; text: string }

function inspectDom(): DomFindings {
  const list = document.querySelector('.messages') as PageElement;
  const all = Array.from(list.querySelectorAll('*'));
  const forbidden = all.filter((el) => /^(script|iframe|img|svg|math|style|link|object|embed|form|video|audio|source|base|details|input|textarea)$/i.test(el.tagName));
  const handlers = all.flatMap((el) => Array.from(el.attributes).filter((a) => /^on/i.test(a.name) || a.name === 'style' || a.name === 'srcdoc').map((a) => `${el.tagName}[${a.name}]`));
  const hrefs = all.map((el) => el.getAttribute('href')).filter((h): h is string => h !== null);
  const body = document.body as PageElement & { offsetHeight: number };
  return { elements: forbidden.map((el) => el.tagName), handlers, hrefs, styles: document.querySelectorAll('style').length, bodyVisible: body.offsetHeight > 0, text: list.textContent ?? '' };
}

describe('chat webview: hostile markdown corpus (real bundle, real CSP, Chromium)', function () {
  this.timeout(60_000);
  let webview: WebviewPage;

  before(async () => {
    webview = await openWebviewPage();
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
          window.__deliver({ v: 1, type: 'append', conversation: 'streamed', message: 'a', seq, append: text.slice(i, i + 7) });
        }
        window.__deliver({ v: 1, type: 'messageUpsert', conversation: 'streamed', message: { id: 'a', role: 'assistant', text, createdAt: 0, status: 'done' } });
      }, { start: snapshot(id, HOSTILE, mode === 'as a finished answer' ? 'done' : 'streaming'), text: HOSTILE, streamed: id === 'streamed' });
      await page.waitForFunction(() => (document.querySelector('[data-message-id="a"] .markdown')?.textContent ?? '').includes('plain'));
      await page.waitForTimeout(500); // let any error/load handlers that slipped through fire

      const findings = await page.evaluate(inspectDom);
      assert.deepEqual(findings.elements, [], 'no active or loading element survives');
      assert.deepEqual(findings.handlers, [], 'no event handler, style or srcdoc attribute survives');
      assert.ok(findings.hrefs.length >= 2, 'safe links are still links');
      for (const href of findings.hrefs) assert.match(href, /^(https?:|mailto:)/, `unsafe href ${href}`);
      assert.equal(findings.styles, 0, 'no <style> element in the document');
      assert.ok(findings.bodyVisible, 'injected CSS did not hide the page');
      assert.match(findings.text, /<script>window.__pwned.push\("script"\)<\/script>/, 'raw HTML is shown as text');
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
