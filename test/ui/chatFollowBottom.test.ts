import * as assert from 'node:assert/strict';
import { CHAT_PROTOCOL_VERSION } from '../../src/core/chat/protocol/chatProtocol';
import { openWebviewPage, streamingAnswerSnapshot, type PageWindow, type WebviewPage } from '../bench/webviewPage';
import { sharedChromium } from './sharedWorkbench';

declare const window: PageWindow;
interface ScrollList { scrollTop: number; scrollHeight: number; clientHeight: number; classList: { contains(name: string): boolean } }
declare const document: { querySelector(selector: string): ScrollList | null };

const streaming = (id: string) => streamingAnswerSnapshot(id, 'Follow');

interface Position { top: number; fromBottom: number; following: boolean }

/**
 * The conversation follows a streaming answer at the bottom until the user scrolls up, in real
 * frames (scroll events, layout and ResizeObserver callbacks happen only when Chromium renders).
 */
describe('chat webview: following a streamed answer at the bottom (real bundle, Chromium)', function () {
  this.timeout(60_000);
  let webview: WebviewPage;
  let seq = 0;

  before(async () => {
    webview = await openWebviewPage({ browser: await sharedChromium() });
    await webview.page.evaluate((start) => {
      window.__deliver(start);
      return window.__frame();
    }, streaming('follow'));
  });
  after(async () => {
    await webview?.close();
  });

  /** Appends `count` paragraphs, one a frame, and returns the list's position after the last frame. */
  const stream = (count: number) => {
    const from = seq;
    seq += count;
    return webview.page.evaluate(async ({ v, from, count }) => {
      for (let i = 0; i < count; i++) {
        window.__deliver([v, from + i + 1, `Paragraph ${from + i} of a long answer, long enough to wrap once or twice in the chat column of this page.\n\n`]);
        await window.__frame();
      }
      // The task after a frame: where a scroll event's check runs.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const list = document.querySelector('main.messages')!;
      return { top: list.scrollTop, fromBottom: list.scrollHeight - list.scrollTop - list.clientHeight, following: list.classList.contains('following') };
    }, { v: CHAT_PROTOCOL_VERSION, from, count } as const);
  };

  it('follows the growing answer, stays where the user scrolled up to, and follows again from the bottom', async () => {
    const first: Position = await stream(40);
    assert.ok(first.top > 0, 'the answer overflows the list');
    assert.ok(first.fromBottom < 2, `at the bottom while streaming (${first.fromBottom} px above it)`);

    await webview.page.mouse.move(450, 400);
    await webview.page.mouse.wheel(0, -600);
    const scrolledTo = await webview.page.evaluate(async () => {
      await window.__frame();
      await new Promise((resolve) => setTimeout(resolve, 20));
      return document.querySelector('main.messages')!.scrollTop;
    });
    assert.ok(scrolledTo < first.top - 100, `the wheel scrolled up (${first.top} → ${scrolledTo})`);
    const reading: Position = await stream(20);
    assert.equal(reading.top, scrolledTo, 'the answer grows below without moving what the user reads');
    assert.equal(reading.following, false);

    await webview.page.mouse.wheel(0, 100_000);
    const back: Position = await stream(20);
    assert.ok(back.fromBottom < 2, `following again after scrolling back down (${back.fromBottom} px above the bottom)`);
    assert.equal(back.following, true);
  });

  it('does not take the user back down when they scroll up in the same task as an append', async () => {
    const before: Position = await stream(5);
    assert.ok(before.fromBottom < 2);
    // The scroll and the new content reach the same frame: the user's scroll must count before
    // the frame's growth is followed.
    const after = await webview.page.evaluate(async ({ v, next }) => {
      const list = document.querySelector('main.messages')!;
      list.scrollTop -= 400;
      const scrolledTo = list.scrollTop;
      window.__deliver([v, next, 'One more paragraph arriving as the user scrolls up, in the same task.\n\n']);
      await window.__frame();
      await window.__frame();
      return { scrolledTo, top: list.scrollTop, following: list.classList.contains('following') };
    }, { v: CHAT_PROTOCOL_VERSION, next: ++seq } as const);
    assert.equal(after.top, after.scrolledTo, 'the list stays where the user put it');
    assert.equal(after.following, false);
  });

  it('goes back to the bottom when the user sends a message from wherever they had scrolled to', async () => {
    const snapshot = streaming('follow-send');
    snapshot.conversation.messages[0] = { ...snapshot.conversation.messages[0], status: 'done', text: Array.from({ length: 200 }, (_, i) => `Paragraph ${i} of an answer that has ended, long enough to wrap once in the chat column.\n\n`).join('') };
    snapshot.streaming = undefined;
    const list = webview.page.locator('main.messages');
    const position = () => webview.page.evaluate(async () => {
      await window.__frame();
      await window.__frame();
      await new Promise((resolve) => setTimeout(resolve, 20));
      const list = document.querySelector('main.messages')!;
      return { top: list.scrollTop, fromBottom: list.scrollHeight - list.scrollTop - list.clientHeight, following: list.classList.contains('following') };
    });
    await webview.page.evaluate((start) => window.__deliver(start), snapshot);
    assert.ok((await position()).fromBottom < 2, 'a new conversation shows its end');
    await list.hover();
    await webview.page.mouse.wheel(0, -800);
    const reading: Position = await position();
    assert.ok(reading.fromBottom > 400 && !reading.following, `scrolled up (${reading.fromBottom} px above the bottom)`);
    await webview.page.getByRole('combobox', { name: /^Message/ }).fill('And one more question');
    await webview.page.keyboard.press('Enter');
    const sent: Position = await position();
    assert.ok(sent.fromBottom < 2, `back at the bottom after sending (${sent.fromBottom} px above it)`);
    assert.equal(sent.following, true);
  });
});
