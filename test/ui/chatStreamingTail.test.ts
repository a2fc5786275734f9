import * as assert from 'node:assert/strict';
import { CHAT_PROTOCOL_VERSION } from '../../src/core/chat/protocol/chatProtocol';
import { longAnswer } from '../shared/answerCorpus';
import { openWebviewPage, streamingAnswerSnapshot, type PageDocument, type PageWindow, type WebviewPage } from '../bench/webviewPage';
import { sharedChromium } from './sharedWorkbench';
import { QUIET_SPIN_MS } from '../../src/webview/chat/answeringMotion';

declare const window: PageWindow;
declare function getComputedStyle(element: unknown): { contentVisibility: string; animationName: string };
declare const document: PageDocument & { createRange(): { selectNodeContents(node: unknown): void; getClientRects(): ArrayLike<unknown> } };

/** The cheap path of a streamed answer's unfinished block, in Chromium (it needs a DOM): text appended between parses. */
const streaming = (id: string) => streamingAnswerSnapshot(id, 'Tail');

describe('chat webview: the streamed answer\'s unfinished block (real bundle, Chromium)', function () {
  this.timeout(60_000);
  let webview: WebviewPage;

  before(async () => {
    webview = await openWebviewPage({ manualFrames: true, browser: await sharedChromium() });
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

  it('leaves a fast frame\'s short unfinished block unshown until the next frame or a pause; a slow or medium-paced frame, or a long block, shows it at once', async () => {
    const shown = await webview.page.evaluate(async (start) => {
      window.__deliver(start);
      window.__pumpFrame();
      const answer = () => document.querySelector('[data-message-id="a"] .markdown') as unknown as { querySelector(s: string): { innerHTML: string } | null; querySelectorAll(s: string): ArrayLike<unknown> };
      const tail = () => answer().querySelector('.md-tail')?.innerHTML ?? '';
      const paragraphs = () => answer().querySelectorAll(':scope > .md-segment > .md-part > p').length;
      let seq = 1;
      const send = (text: string) => {
        window.__deliver([start.v, seq++, text]);
        window.__pumpFrame();
        return { tail: tail(), paragraphs: paragraphs() };
      };
      const pause = () => new Promise((resolve) => setTimeout(resolve, 400)).then(() => {
        window.__pumpFrame();
        return { tail: tail(), paragraphs: paragraphs() };
      });
      send('Intro line.\n\n');
      // A fast model's append (~256 characters, right after the one before): two paragraphs and the start of a third.
      const fast = send(`${'First paragraph. '.repeat(7)}\n\n${'Second paragraph. '.repeat(6)}\n\nThird *starts*`);
      const afterPause = await pause();
      // As long, but 400 ms after the one before (a medium-paced model's): shown at once.
      const medium = send(` here.\n\n${'Fourth paragraph. '.repeat(8)}\n\nFifth`);
      const fastAgain = send(` ends.\n\n${'Sixth paragraph. '.repeat(8)}\n\nSeventh`);
      // A slow model's append: the unfinished block shows in the same frame.
      const slow = send(' ends.\n\nEighth');
      const long = send(` continues${' and on'.repeat(90)}\n\nNinth${' goes on'.repeat(140)}`);
      return { fast, afterPause, medium, fastAgain, slow, long };
    }, streaming('hidden'));
    // A paragraph is final once the first line of the next block is complete (blocks.ts).
    assert.deepEqual(shown.fast, { tail: '', paragraphs: 2 }, 'the finished paragraphs show; the unfinished ones wait');
    assert.deepEqual(shown.afterPause, { tail: `<p>${'Second paragraph. '.repeat(6).trim()}</p>\n<p>Third <em>starts</em></p>\n`, paragraphs: 2 }, 'a pause shows them, formatted');
    assert.deepEqual(shown.medium, { tail: `<p>${'Fourth paragraph. '.repeat(8).trim()}</p>\n<p>Fifth</p>\n`, paragraphs: 4 });
    assert.deepEqual(shown.fastAgain, { tail: '', paragraphs: 6 });
    assert.deepEqual(shown.slow, { tail: '<p>Seventh ends.</p>\n<p>Eighth</p>\n', paragraphs: 7 });
    assert.equal(shown.long.paragraphs, 8);
    assert.match(shown.long.tail, /^<p>Eighth continues( and on){90}<\/p>\n<p>Ninth( goes on){140}<\/p>\n$/, 'an unfinished part of over 1,024 characters shows in a fast frame');
  });

  it('shows finished list items formatted at once, then checks them against the sanitiser\'s DOM in batches: equal ones stay, others are replaced; the end equals a one-shot render', async () => {
    const items = Array.from({ length: 120 }, (_, i) => `- item ${i} **bold** [safe](https://example.com/${i}) [bad](javascript:alert(${i})) <img src=x onerror=alert(${i})>\n`);
    const text = items.join('');
    const result = await webview.page.evaluate(({ start, done, text }) => {
      type Item = { outerHTML: string; isConnected: boolean; setAttribute(name: string, value: string): void };
      window.__deliver(start);
      window.__pumpFrame();
      const answer = () => document.querySelector('[data-message-id="a"] .markdown') as unknown as { querySelector(s: string): Item | null; innerHTML: string };
      let firstItem: Item | null = null;
      let thirdItem: Item | null = null;
      let firstItemHtml = '';
      let replacedAt = -1;
      for (let i = 0, seq = 1; i < text.length; i += 7, seq++) {
        window.__deliver([start.v, seq, text.slice(i, i + 7)]);
        window.__pumpFrame();
        // Committed: in the growing list (not the provisional tail), with two items after it.
        const li = answer().querySelector(':scope > .md-segment > .md-part > ul > li');
        if (!firstItem && li && answer().querySelector(':scope > .md-segment > .md-part > ul > li + li + li')) {
          firstItem = li;
          firstItemHtml = li.outerHTML;
          // What a builder bug would leave: an attribute the sanitiser refuses, on a node waiting for its batch.
          li.setAttribute('onclick', 'alert(0)');
        }
        // Committed too, with four items after it (the open item and the one before it may be provisional).
        if (!thirdItem) thirdItem = answer().querySelector(':scope > .md-segment > .md-part > ul > li:nth-child(3):nth-last-child(n+5)');
        if (firstItem && replacedAt < 0 && !firstItem.isConnected) replacedAt = i;
      }
      const thirdKept = thirdItem?.isConnected ?? false;
      const firstNow = answer().querySelector(':scope > .md-segment > .md-part > ul > li')?.outerHTML;
      window.__deliver(done);
      window.__pumpFrame();
      const streamed = answer().innerHTML;
      window.__deliver({ ...start, conversation: { ...start.conversation, id: 'oneShot', messages: [{ ...start.conversation.messages[0], text, status: 'done' }] }, streaming: undefined });
      window.__pumpFrame();
      return { firstItemHtml, thirdKept, firstNow, replacedAt, streamed, oneShot: answer().innerHTML };
    }, { start: streaming('batches'), done: { v: CHAT_PROTOCOL_VERSION, type: 'messagePatch', conversationId: 'batches', messageId: 'a', status: 'done' } as const, text });
    assert.equal(result.firstItemHtml, '<li>item 0 <strong>bold</strong> <a href="https://example.com/0">safe</a> [bad](javascript:alert(0)) &lt;img src=x onerror=alert(0)&gt;</li>',
      'a finished item shows formatted before the sanitiser ran, with the unsafe link refused');
    assert.ok(result.thirdKept, 'an item equal to the sanitiser\'s DOM stays in place');
    assert.ok(result.replacedAt > 0 && result.replacedAt < text.length - 200, `the tampered item was replaced by the sanitiser's mid-stream (at ${result.replacedAt} of ${text.length})`);
    assert.equal(result.firstNow, result.firstItemHtml, 'by the sanitiser\'s DOM of the same item, without the refused attribute');
    assert.equal(result.streamed, result.oneShot);
    assert.doesNotMatch(result.streamed, /href="javascript|<img|<a [^>]*onerror|onclick/);
  });

  it('keeps every committed block and highlighted code line of a mixed answer in place through the sanitiser\'s checks: built equal to its DOM, none is replaced', async () => {
    const text = longAnswer(40_000, 11);
    const result = await webview.page.evaluate(({ start, done, text }) => {
      type Committed = { isConnected: boolean };
      window.__deliver(start);
      window.__pumpFrame();
      const answer = () => document.querySelector('[data-message-id="a"] .markdown') as unknown as { innerHTML: string; querySelectorAll(s: string): ArrayLike<Committed> };
      // Committed top-level blocks, list items, table rows and a growing fence's highlighted spans:
      // what the batches check, piece by piece.
      const committed = new Set<Committed>();
      let codeSpans = 0;
      for (let i = 0, seq = 1; i < text.length; i += 200, seq++) {
        window.__deliver([start.v, seq, text.slice(i, i + 200)]);
        window.__pumpFrame();
        for (const node of Array.from(answer().querySelectorAll('.md-part > *, .md-part li, .md-part tr'))) committed.add(node);
        const spans = Array.from(answer().querySelectorAll('.md-part .code-chunk span'));
        codeSpans += spans.filter((span) => !committed.has(span)).length;
        for (const node of spans) committed.add(node);
      }
      window.__deliver(done);
      window.__pumpFrame();
      const replaced = [...committed].filter((node) => !node.isConnected).length;
      const streamed = answer().innerHTML;
      window.__deliver({ ...start, conversation: { ...start.conversation, id: 'oneShotKept', messages: [{ ...start.conversation.messages[0], text, status: 'done' }] }, streaming: undefined });
      window.__pumpFrame();
      return { committed: committed.size, codeSpans, replaced, streamed, oneShot: answer().innerHTML };
    }, { start: streaming('kept'), done: { v: CHAT_PROTOCOL_VERSION, type: 'messagePatch', conversationId: 'kept', messageId: 'a', status: 'done' } as const, text });
    assert.ok(result.committed > 200 && result.codeSpans > 50, `${result.committed} committed nodes seen, ${result.codeSpans} of them in growing fences`);
    assert.equal(result.replaced, 0, `${result.replaced} of ${result.committed} committed nodes were replaced by the sanitiser's equal copy (laid out again)`);
    assert.equal(result.streamed, result.oneShot);
  });

  it('puts committed blocks in segments of 32, parts of 8, that skip layout off screen, the same for a stream and a one-shot render', async () => {
    const text = Array.from({ length: 100 }, (_, i) => (i % 10 === 9 ? `## Heading ${i}` : `Paragraph ${i} with *some* text.`)).join('\n\n');
    const result = await webview.page.evaluate(({ start, done, text }) => {
      window.__deliver(start);
      window.__pumpFrame();
      // Appends of several blocks: a commit then spans the end of a segment and the start of the next.
      for (let i = 0, seq = 1; i < text.length; i += 150, seq++) {
        window.__deliver([start.v, seq, text.slice(i, i + 150)]);
        window.__pumpFrame();
      }
      window.__deliver(done);
      window.__pumpFrame();
      const answer = () => document.querySelector('[data-message-id="a"] .markdown') as unknown as { innerHTML: string; querySelectorAll(s: string): ArrayLike<{ children: ArrayLike<{ childElementCount: number }>; firstElementChild: unknown }> };
      const segments = Array.from(answer().querySelectorAll(':scope > .md-segment'));
      const style = getComputedStyle(segments[0]).contentVisibility;
      const partStyle = getComputedStyle(segments[0].firstElementChild as Element).contentVisibility;
      const streamed = answer().innerHTML;
      window.__deliver({ ...start, conversation: { ...start.conversation, id: 'oneShotSegments', messages: [{ ...start.conversation.messages[0], text, status: 'done' }] }, streaming: undefined });
      window.__pumpFrame();
      return { sizes: segments.map((s) => Array.from(s.children).map((part) => part.childElementCount)), style, partStyle, streamed, oneShot: answer().innerHTML };
    }, { start: streaming('segments'), done: { v: CHAT_PROTOCOL_VERSION, type: 'messagePatch', conversationId: 'segments', messageId: 'a', status: 'done' } as const, text });
    assert.deepEqual(result.sizes, [[8, 8, 8, 8], [8, 8, 8, 8], [8, 8, 8, 8], [4]]);
    assert.equal(result.style, 'auto', 'chat.css lets the browser skip segments off screen');
    assert.equal(result.partStyle, 'auto', 'and the parts of a segment in view');
    assert.equal(result.streamed, result.oneShot);
  });

  it('grows a streaming code fence by chunks of about 32 lines, unwrapped into the one-shot DOM when it closes', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => `let v${i} = ${i};`);
    const text = `\`\`\`ts\n${lines.join('\n')}\n\`\`\`\n\nAfter.`;
    const result = await webview.page.evaluate(({ start, done, lines, text }) => {
      window.__deliver(start);
      window.__pumpFrame();
      let seq = 1;
      const send = (part: string) => {
        window.__deliver([start.v, seq++, part]);
        window.__pumpFrame();
      };
      send('```ts\n');
      for (const line of lines) send(`${line}\n`);
      const chunks = Array.from(document.querySelectorAll('[data-message-id="a"] .code-block.growing .code-chunk')).map((c) => Number(c.getAttribute('data-lines')));
      send('```\n\nAfter.');
      window.__deliver(done);
      window.__pumpFrame();
      const answer = () => document.querySelector('[data-message-id="a"] .markdown') as unknown as { innerHTML: string };
      const streamed = answer().innerHTML;
      window.__deliver({ ...start, conversation: { ...start.conversation, id: 'oneShotFence', messages: [{ ...start.conversation.messages[0], text, status: 'done' }] }, streaming: undefined });
      window.__pumpFrame();
      return { chunks, streamed, oneShot: answer().innerHTML };
    }, { start: streaming('fence'), done: { v: CHAT_PROTOCOL_VERSION, type: 'messagePatch', conversationId: 'fence', messageId: 'a', status: 'done' } as const, lines, text });
    assert.ok(result.chunks.length >= 6 && result.chunks.length <= 7, `200 lines in ${result.chunks.length} chunks (${result.chunks.join(', ')})`);
    assert.ok(result.chunks.every((lines) => lines >= 1 && lines <= 32), result.chunks.join(', '));
    assert.doesNotMatch(result.streamed, /code-chunk|growing|data-lines/);
    assert.equal(result.streamed, result.oneShot);
  });

  it('opens repeated lists and fences from shells sanitised once, each container with nodes of its own; the end equals a one-shot render', async () => {
    const block = (i: number) => `- item ${i}a\n- item ${i}b\n\n\`\`\`ts\nconst v${i} = ${i};\n\`\`\`\n\nParagraph ${i}.\n\n`;
    const text = [0, 1, 2].map(block).join('');
    const result = await webview.page.evaluate(({ start, done, text }) => {
      window.__deliver(start);
      window.__pumpFrame();
      // Line by line: each list and fence opens as a growing container.
      text.split(/(?<=\n)/).forEach((line, i) => {
        window.__deliver([start.v, i + 1, line]);
        window.__pumpFrame();
      });
      window.__deliver(done);
      window.__pumpFrame();
      const answer = () => document.querySelector('[data-message-id="a"] .markdown') as unknown as { innerHTML: string; querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> };
      const lists = Array.from(answer().querySelectorAll('ul')).map((ul) => ul.textContent);
      const fences = Array.from(answer().querySelectorAll('.code-block')).map((block) => block.textContent);
      const streamed = answer().innerHTML;
      window.__deliver({ ...start, conversation: { ...start.conversation, id: 'oneShotShells', messages: [{ ...start.conversation.messages[0], text, status: 'done' }] }, streaming: undefined });
      window.__pumpFrame();
      return { lists, fences, streamed, oneShot: answer().innerHTML };
    }, { start: streaming('shells'), done: { v: CHAT_PROTOCOL_VERSION, type: 'messagePatch', conversationId: 'shells', messageId: 'a', status: 'done' } as const, text });
    assert.deepEqual(result.lists.map((t) => t?.replace(/\s+/g, ' ').trim()), ['item 0a item 0b', 'item 1a item 1b', 'item 2a item 2b']);
    assert.equal(result.fences.length, 3);
    result.fences.forEach((t, i) => assert.match(t ?? '', new RegExp(`const v${i} = ${i};\\s*$`)));
    assert.equal(result.streamed, result.oneShot);
  });

  it('keeps the words of a squeezed table column whole', async () => {
    const note = 'Error block render sanitize context value snapshot conversation commit editor host answer. '.repeat(3);
    const text = `| name | credits | note |\n|:--|--:|:-:|\n| sanitize | 913 | ${note} |\n| highlight | 698 | ${note} |`;
    const lines = await webview.page.evaluate(({ start, text }) => {
      window.__deliver({ ...start, conversation: { ...start.conversation, messages: [{ ...start.conversation.messages[0], text, status: 'done' }] }, streaming: undefined });
      window.__pumpFrame();
      const cells = Array.from(document.querySelectorAll('[data-message-id="a"] .markdown table :is(th, td):not(:last-child)'));
      return cells.map((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        return `${cell.textContent}: ${range.getClientRects().length}`;
      });
    }, { start: streaming('table'), text });
    assert.deepEqual(lines, ['name: 1', 'credits: 1', 'sanitize: 1', '913: 1', 'highlight: 1', '698: 1']);
  });

  it('ends an answer in one frame: the "Answering…" status goes in the frame that shows its last words, not before', async () => {
    const seen = await webview.page.evaluate(({ start, done }) => {
      window.__deliver(start);
      window.__pumpFrame();
      const answer = () => document.querySelector('[data-message-id="a"]') as unknown as { querySelector(s: string): { hidden: boolean; textContent: string | null } | null };
      const state = () => ({ status: answer().querySelector('.message-status')?.hidden === false, text: (answer().querySelector('.markdown')?.textContent ?? '').trim() });
      window.__deliver([start.v, 1, 'First words, then the last ones']);
      window.__deliver(done);
      const beforeFrame = state();
      window.__pumpFrame();
      return { beforeFrame, afterFrame: state() };
    }, { start: streaming('ending'), done: { v: CHAT_PROTOCOL_VERSION, type: 'messagePatch', conversationId: 'ending', messageId: 'a', status: 'done' } as const });
    assert.equal(seen.beforeFrame.status, true, 'until the frame, the answer still shows as answering');
    assert.doesNotMatch(seen.beforeFrame.text, /last ones/);
    assert.deepEqual(seen.afterFrame, { status: false, text: 'First words, then the last ones' });
  });

  it('spins the "Answering…" icon while an answer waits for text, holds it still while text flows, spins again once text stops', async () => {
    // Each step and its check in one evaluation: a wait between them on a busy machine could outlast QUIET_SPIN_MS.
    const seen = await webview.page.evaluate((start) => {
      const animation = () => {
        const icon = document.querySelector('[data-message-id="a"] .codicon-modifier-spin');
        return icon ? getComputedStyle(icon).animationName : 'no spinning icon';
      };
      window.__deliver(start);
      window.__pumpFrame();
      const waiting = animation();
      window.__deliver([start.v, 1, 'The first words']);
      window.__pumpFrame();
      return { waiting, flowing: animation(), flowingSince: performance.now() };
    }, streaming('motion'));
    assert.deepEqual({ waiting: seen.waiting, flowing: seen.flowing }, { waiting: 'codicon-spin', flowing: 'none' });
    const spinsAgainAfter = await webview.page.evaluate(async (since) => {
      const icon = document.querySelector('[data-message-id="a"] .codicon-modifier-spin')!;
      while (getComputedStyle(icon).animationName !== 'codicon-spin') await new Promise((resolve) => setTimeout(resolve, 50));
      return performance.now() - since;
    }, seen.flowingSince);
    assert.ok(spinsAgainAfter >= QUIET_SPIN_MS, `spun again ${spinsAgainAfter.toFixed(0)} ms after the text, before QUIET_SPIN_MS`);
  });

  it('never spins the "Answering…" icon for a user who asked for reduced motion', async () => {
    const spin = () => webview.page.evaluate((start) => {
      window.__deliver(start);
      window.__pumpFrame();
      const icon = document.querySelector('[data-message-id="a"] .codicon-modifier-spin');
      return icon ? getComputedStyle(icon).animationName : 'no spinning icon';
    }, streaming('reduced-motion'));
    await webview.page.emulateMedia({ reducedMotion: 'reduce' });
    try {
      // codicon.css starts the spin with `.codicon-loading.codicon-modifier-spin`, which outranks a
      // one-class rule: the reduced-motion rule must win all the same.
      assert.equal(await spin(), 'none');
    } finally {
      await webview.page.emulateMedia({ reducedMotion: null });
    }
  });
});
