import * as assert from 'node:assert/strict';
import { CHAT_PROTOCOL_VERSION, type SnapshotMessage } from '../../src/core/chatProtocol';
import { openWebviewPage, type PageDocument, type PageWindow, type WebviewPage } from '../bench/webviewPage';

declare const window: PageWindow;
declare const document: PageDocument;

/** The cheap path of a streamed answer's unfinished block, in Chromium (it needs a DOM): text appended between parses. */
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
        window.__deliver([start.v, i + 1, text]);
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
});
