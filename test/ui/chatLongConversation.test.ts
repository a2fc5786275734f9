import * as assert from 'node:assert/strict';
import { snapshotParts } from '../../src/core/chat/protocol/snapshotParts';
import { CHAT_PROTOCOL_VERSION, type EarlierMessagesMessage, type SnapshotMessage } from '../../src/core/chat/protocol/chatProtocol';
import { conversationMessages, longAnswer } from '../shared/answerCorpus';
import { openWebviewPage, type PageElement, type PageWindow, type WebviewPage } from '../bench/webviewPage';
import { sharedChromium } from './sharedWorkbench';

declare const window: PageWindow & { find(text: string): boolean; getSelection(): { anchorNode: { parentElement: (PageElement & { closest(selector: string): PageElement | null }) | null } | null; removeAllRanges(): void } | null };
declare const document: { querySelector(selector: string): (PageElement & { scrollIntoView(): void }) | null; querySelectorAll(selector: string): ArrayLike<PageElement> };

const conversation = (id: string, bytes: number): SnapshotMessage => ({
  v: CHAT_PROTOCOL_VERSION, type: 'snapshot',
  conversation: { id, title: 'Long', params: {}, messages: conversationMessages(bytes) },
  attachments: [], environment: { defaults: {} },
});

/**
 * A long conversation opens with only its latest answers rendered; the others are rendered when
 * scrolled near (lazyMessages.ts), and meanwhile find-in-page and Copy see their whole text.
 */
describe('chat webview: a long conversation renders as it is scrolled (real bundle, Chromium)', function () {
  this.timeout(120_000);
  let webview: WebviewPage;
  const long = conversation('long', 600_000);
  const answers = long.conversation.messages.filter((m) => m.role === 'assistant');

  before(async () => {
    webview = await openWebviewPage({ browser: await sharedChromium() });
  });
  after(async () => {
    await webview?.close();
  });

  /** Delivers the parts as the host posts them, then one frame. */
  const open = (parts: Array<SnapshotMessage | EarlierMessagesMessage>) => webview.page.evaluate(async (all) => {
    for (const part of all) window.__deliver(part);
    await window.__frame();
  }, parts);

  const shown = () => webview.page.evaluate(() => Array.from(document.querySelectorAll('.message'), (m) => ({
    id: m.getAttribute('data-message-id'),
    rendered: m.querySelector('.markdown') !== null,
    placeholder: m.querySelector('.md-placeholder')?.textContent ?? undefined,
    slices: Array.from(m.querySelectorAll('.md-placeholder-slice'), (slice) => ({
      chars: slice.textContent?.length ?? 0,
      skippable: getComputedStyle(slice as never).contentVisibility === 'auto',
      height: Number.parseFloat(getComputedStyle(slice as never).containIntrinsicHeight.replace('auto ', '')),
    })),
  })));

  it('opens with the latest answers rendered and the rest as placeholders holding their text, in order, from all the parts', async () => {
    const parts = snapshotParts(long);
    assert.ok(parts.length >= 2, 'the conversation comes in several parts');
    await open(parts);
    const messages = await shown();
    assert.deepEqual(messages.map((m) => m.id), long.conversation.messages.map((m) => m.id));
    assert.ok(messages.at(-1)?.rendered, 'the latest answer is rendered');
    const deferred = messages.filter((m) => m.placeholder !== undefined);
    assert.ok(deferred.length > answers.length / 2, `most answers wait (${deferred.length} of ${answers.length})`);
    for (const m of deferred) assert.equal(m.placeholder, answers.find((a) => a.id === m.id)?.text, `${m.id} holds its text`);
    // Laid out a slice at a time as slices come near (placeholder.ts), each with an estimated height.
    const sliced = deferred.find((m) => (m.placeholder?.length ?? 0) > 5000);
    assert.ok(sliced, 'a long answer waits');
    assert.ok(sliced.slices.length >= 3, `its text is in slices (${sliced.slices.length})`);
    for (const slice of sliced.slices) {
      assert.ok(slice.chars > 0 && slice.chars <= 2000, `a slice holds at most 2,000 characters (${slice.chars})`);
      assert.ok(slice.skippable && slice.height > 0, 'a slice is skipped off screen, at its estimated height');
    }
  });

  it('finds the text of an answer not rendered yet (find-in-page) and scrolls to it, still highlighted; copies the whole text of an answer rendered when scrolled to', async () => {
    const first = answers[0];
    const middle = answers[Math.floor(answers.length / 2)];
    const phrase = /[a-z]+(?: [a-z]+){5}/.exec(first.text)?.[0] ?? 'missing';
    const found = await webview.page.evaluate(async ({ text, id }) => {
      window.getSelection()?.removeAllRanges();
      const hit = window.find(text);
      for (let frame = 0; frame < 5; frame++) await window.__frame();
      const list = document.querySelector('.messages') as unknown as { getBoundingClientRect(): { top: number; bottom: number } };
      const message = document.querySelector(`[data-message-id="${id}"]`) as unknown as PageElement & { getBoundingClientRect(): { top: number; bottom: number } };
      const [box, shown] = [message.getBoundingClientRect(), list.getBoundingClientRect()];
      return {
        hit,
        in: window.getSelection()?.anchorNode?.parentElement?.closest('.md-placeholder') ? 'md-placeholder' : 'elsewhere',
        selected: String(window.getSelection()),
        onScreen: box.bottom > shown.top && box.top < shown.bottom,
      };
    }, { text: phrase, id: first.id });
    assert.deepEqual(found, { hit: true, in: 'md-placeholder', selected: phrase, onScreen: true }, 'the match is scrolled to, still selected in the placeholder');
    // Its chrome (the Copy button) comes with its rendering, when it is scrolled to.
    const copied = await webview.page.evaluate(async (id) => {
      const message = document.querySelector(`[data-message-id="${id}"]`)!;
      const deferred = message.querySelector('.md-placeholder') !== null;
      message.scrollIntoView();
      for (let frame = 0; frame < 60 && !message.querySelector('[data-action="copyAnswer"]'); frame++) await window.__frame();
      (message.querySelector('[data-action="copyAnswer"]') as unknown as { click(): void }).click();
      return { deferred, posted: window.__posted.filter((m) => (m as { method?: string }).method === 'copyText').at(-1) as { params: { text: string } } };
    }, middle.id);
    assert.ok(copied.deferred);
    assert.equal(copied.posted.params.text, middle.text);
    const released = await webview.page.evaluate(async (id) => {
      window.getSelection()?.removeAllRanges();
      document.querySelector(`[data-message-id="${id}"]`)!.scrollIntoView();
      for (let frame = 0; frame < 60 && !document.querySelector(`[data-message-id="${id}"] .markdown`); frame++) await window.__frame();
      return document.querySelector(`[data-message-id="${id}"] .markdown`) !== null;
    }, first.id);
    assert.ok(released, 'once the selection leaves it, the answer renders');
  });

  it('drops a part that does not go before the first message (a newer snapshot came)', async () => {
    const parts = snapshotParts(long) as [SnapshotMessage, ...EarlierMessagesMessage[]];
    await open([parts[0], parts[2], parts[1]]);
    const ids = (await shown()).map((m) => m.id);
    assert.deepEqual(ids, [...parts[1].messages, ...parts[0].conversation.messages].map((m) => m.id), 'the part out of order is dropped');
  });

  it('builds a long answer over several frames, its whole text in the placeholder until it shows, then the DOM of a one-shot render', async () => {
    // Deferred: older than the latest messages, which are rendered at once.
    const big = { id: 'big', role: 'assistant' as const, text: longAnswer(300_000, 7), createdAt: 0, status: 'done' as const };
    const withBig = conversation('with-big', 200_000);
    withBig.conversation.messages.unshift(big);
    await open([withBig]);
    const built = await webview.page.evaluate(async (text) => {
      const message = () => document.querySelector('[data-message-id="big"]')!;
      message().scrollIntoView();
      let frames = 0;
      let placeholderKept = true;
      for (; frames < 2000 && !message().querySelector('.markdown'); frames++) {
        await window.__frame();
        placeholderKept &&= message().querySelector('.markdown') !== null || message().querySelector('.md-placeholder')?.textContent === text;
      }
      return { frames, placeholderKept, html: message().querySelector('.markdown')?.innerHTML ?? '', placeholders: message().querySelectorAll('.md-placeholder').length };
    }, big.text);
    assert.ok(built.frames >= 3, `built over ${built.frames} frames`);
    assert.ok(built.placeholderKept, 'until it shows, the placeholder holds the whole answer');
    assert.equal(built.placeholders, 0);
    const oneShot = await webview.page.evaluate(async (snapshot) => {
      window.__deliver(snapshot);
      await window.__frame();
      return document.querySelector('[data-message-id="big"] .markdown')?.innerHTML ?? '';
    }, { ...withBig, conversation: { ...withBig.conversation, id: 'one-big', messages: [big] } });
    assert.ok(oneShot.length > 0);
    assert.equal(built.html, oneShot);
  });

  it('renders every answer when scrolled to, with the DOM of a one-shot render of it', async () => {
    await open(snapshotParts(long));
    const rendered = await webview.page.evaluate(async (ids) => {
      const html: Record<string, string> = {};
      for (const id of ids) {
        document.querySelector(`[data-message-id="${id}"]`)!.scrollIntoView();
        for (let frame = 0; frame < 60 && !document.querySelector(`[data-message-id="${id}"] .markdown`); frame++) await window.__frame();
        html[id] = document.querySelector(`[data-message-id="${id}"] .markdown`)?.innerHTML ?? '';
      }
      return html;
    }, answers.map((a) => a.id).reverse());
    for (const answer of answers) {
      const oneShot = await webview.page.evaluate(async ({ snapshot, id }) => {
        window.__deliver(snapshot);
        await window.__frame();
        return document.querySelector(`[data-message-id="${id}"] .markdown`)?.innerHTML ?? '';
      }, { snapshot: { ...long, conversation: { ...long.conversation, id: `one-${answer.id}`, messages: [answer] } }, id: answer.id });
      assert.ok(oneShot.length > 0);
      assert.equal(rendered[answer.id], oneShot, `${answer.id} rendered when scrolled to equals its one-shot render`);
    }
  });
});
