import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { CHAT_PROTOCOL_VERSION, type SnapshotMessage } from '../../src/core/chatProtocol';
import { openWebviewPage, REPO_ROOT, type PageDocument, type PageWindow, type WebviewPage } from '../bench/webviewPage';

declare const window: PageWindow & { __sanitizeProvisional?: (html: string) => { childNodes: ArrayLike<unknown> } };
declare const document: PageDocument & { createElement(tag: string): { append(...nodes: unknown[]): void; innerHTML: string } };

/**
 * The cheap paths of a streamed answer's unfinished block, in Chromium (they need a DOM): text
 * appended between parses, and the allowlist walk that sanitises the provisional rendering.
 */
function streaming(id: string): SnapshotMessage {
  return {
    v: CHAT_PROTOCOL_VERSION, type: 'snapshot',
    conversation: { id, title: 'Tail', params: {}, messages: [{ id: 'a', role: 'assistant', text: '', createdAt: 0, status: 'streaming' }] },
    streaming: { messageId: 'a', seq: 0 },
    attachments: [], environment: { defaults: {} },
  };
}

describe('chat webview: the streamed answer\'s unfinished block (real bundle, Chromium)', function () {
  this.timeout(60_000);
  let webview: WebviewPage;

  before(async () => {
    webview = await openWebviewPage({ manualFrames: true });
  });
  after(async () => {
    await webview?.close();
  });

  it('puts text appended between parses after inline formatting, not inside it', async () => {
    const tail = await webview.page.evaluate((start) => {
      window.__deliver(start);
      window.__pumpFrame();
      const shown: string[] = [];
      // The first append is long enough to be parsed at once (shorter ones wait for 64 characters).
      [`${'word '.repeat(12)}**bold**`, ' then plain', ' words', ' and `code`', ' after'].forEach((text, i) => {
        window.__deliver({ v: start.v, type: 'append', seq: i + 1, text });
        window.__pumpFrame();
        shown.push(document.querySelector('[data-message-id="a"] .md-tail')?.innerHTML ?? '');
      });
      return shown;
    }, streaming('tail'));
    const words = 'word '.repeat(12);
    assert.equal(tail[0], `<p>${words}<strong>bold</strong></p>\n`);
    assert.equal(tail[1], `<p>${words}<strong>bold</strong> then plain</p>\n`, 'plain text after **bold** is not bold');
    assert.equal(tail[2], `<p>${words}<strong>bold</strong> then plain words</p>\n`);
    // Backticks need a parse, which waits for more text: until then they show as typed, still outside the bold.
    assert.equal(tail[4], `<p>${words}<strong>bold</strong> then plain words and \`code\` after</p>\n`);
  });

  it('sanitises the provisional rendering by the allowlist: nothing active, loading or styled survives', async () => {
    const code = buildSync({
      entryPoints: [path.join(REPO_ROOT, 'src/webview/sanitize.ts')],
      bundle: true, write: false, format: 'iife', globalName: '__sanitize', platform: 'browser', logLevel: 'silent',
    }).outputFiles[0].text;
    const { page } = webview;
    await page.evaluate(`${code}; window.__sanitizeProvisional = __sanitize.sanitizeProvisional;`);
    const hostile = [
      '<p onclick="window.__pwned.push(1)" style="color:red">a<img src="http://127.0.0.1:9/x.png" onerror="window.__pwned.push(2)">',
      '<script>window.__pwned.push(3)</script><a href="javascript:window.__pwned.push(4)">js</a><a href="https://ok.test/" title="t">ok</a>',
      '<span class="hljs-keyword evil">k</span><svg><a xlink:href="javascript:x">s</a></svg><math><mi>m</mi></math><style>*{display:none}</style>',
      '<iframe srcdoc="<script>parent.__pwned.push(5)</script>"></iframe><form action="http://127.0.0.1:9/"><input></form>',
      '<ul><li class="language-ts">item</li></ul><code data-x="1" class="hljs">c</code></p>',
      '<table><tbody><tr><td class="align-left" onmouseover="x">cell</td></tr></tbody></table>',
    ].join('');
    const html = await page.evaluate((input) => {
      const holder = document.createElement('div');
      holder.append(window.__sanitizeProvisional!(input));
      return holder.innerHTML;
    }, hostile);
    await page.waitForTimeout(300); // let any load or error handler that slipped through fire
    // (The HTML parser closes the <p> where the <ul> starts.)
    assert.equal(html, '<p>a<a>js</a><a href="https://ok.test/" title="t">ok</a><span class="hljs-keyword">k</span></p>'
      + '<ul><li class="language-ts">item</li></ul><code class="hljs">c</code><p></p>'
      + '<table><tbody><tr><td class="align-left">cell</td></tr></tbody></table>');
    assert.deepEqual(await page.evaluate(() => window.__pwned), []);
    assert.deepEqual(webview.requests.filter((url) => !url.startsWith(webview.origin)), [], 'nothing was fetched');
  });
});
