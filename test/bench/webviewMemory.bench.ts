import type { Page } from 'playwright-core';
import { snapshotParts } from '../../src/core/chat/protocol/snapshotParts';
import { CHAT_PROTOCOL_VERSION, type HostToWebview, type MessageView, type SnapshotMessage } from '../../src/core/chat/protocol/chatProtocol';
import { arg, runBench, SMOKE, type Row } from './benchReport';
import { conversationMessages } from '../shared/answerCorpus';
import { openWebviewPage, type PageWindow } from './webviewPage';

/**
 * Benchmark: what the chat webview's JavaScript heap holds for a long conversation, after two
 * garbage collections (DevTools HeapProfiler.collectGarbage, Runtime.getHeapUsage), above the same
 * page showing an empty conversation. The real bundle in Chromium (webviewPage.ts), two ways in:
 *
 * - streamed: every answer arrives as the host streams it (upsert, 256-character appends, the end's
 *   patch), so each answer's text is built from pieces in the page, as a live conversation's is;
 * - opened: the same conversation sent as a snapshot and its earlier parts (snapshotParts.ts).
 *
 * An answer's text is held once (the message element: its renderer or, until rendered, the
 * element itself); a second copy of it would show here as about the text's size again.
 *
 *   node out/test/bench/webviewMemory.bench.js [--mb=2] [--before=<webview bundle>]
 */

const MB = SMOKE ? 0.2 : arg('mb', 2);
const APPEND_CHARS = 256;
/** Appends delivered between two frames (about what a fast model's batches bring). */
const APPENDS_PER_FRAME = 4;

declare const window: PageWindow;

function snapshot(id: string, messages: MessageView[]): SnapshotMessage {
  return {
    v: CHAT_PROTOCOL_VERSION, type: 'snapshot',
    conversation: { id, title: 'Long conversation', params: {}, messages },
    attachments: [], environment: { effectiveModel: 'bench-model', defaults: {} },
  };
}

/** In the page: every message as the host streams it into conversation `id`. */
async function streamInPage(args: { id: string; messages: MessageView[]; appendChars: number; appendsPerFrame: number; v: number }): Promise<void> {
  // Cloned as postMessage clones: an append's text is a string of its own, not a slice of the whole answer.
  const deliver = (message: unknown) => window.__deliver(structuredClone(message) as HostToWebview);
  for (const message of args.messages) {
    if (message.role === 'user') {
      deliver({ v: args.v, type: 'messageUpsert', conversationId: args.id, message });
      continue;
    }
    deliver({ v: args.v, type: 'messageUpsert', conversationId: args.id, message: { ...message, text: '', status: 'streaming', meta: undefined } });
    let seq = 0;
    for (let at = 0; at < message.text.length; at += args.appendChars) {
      deliver([args.v, ++seq, message.text.slice(at, at + args.appendChars)]);
      if (seq % args.appendsPerFrame === 0) await window.__frame();
    }
    deliver({ v: args.v, type: 'messagePatch', conversationId: args.id, messageId: message.id, status: 'done', meta: message.meta });
    await window.__frame();
  }
  await window.__frame();
}

/** The page's live JavaScript heap, after two full collections. */
async function liveHeap(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  } finally {
    await cdp.detach();
  }
}

interface Held { streamed: number; opened: number }

async function measure(messages: MessageView[], bundle?: string): Promise<Held> {
  const page = await openWebviewPage({ unthrottledFrames: true, ...(bundle ? { bundle } : {}) });
  try {
    const show = async (message: SnapshotMessage) => {
      await page.page.evaluate((m) => window.__deliver(m), message);
      await page.page.evaluate(() => window.__frame());
    };
    await show(snapshot('blank-1', []));
    const blank = await liveHeap(page.page);
    await show(snapshot('streamed', []));
    await page.page.evaluate(streamInPage, { id: 'streamed', messages, appendChars: APPEND_CHARS, appendsPerFrame: APPENDS_PER_FRAME, v: CHAT_PROTOCOL_VERSION });
    const streamed = (await liveHeap(page.page)) - blank;
    await show(snapshot('blank-2', []));
    const blankAgain = await liveHeap(page.page);
    for (const part of snapshotParts(snapshot('opened', messages))) await page.page.evaluate((m) => window.__deliver(m), part);
    await page.page.evaluate(() => window.__frame());
    const opened = (await liveHeap(page.page)) - blankAgain;
    return { streamed, opened };
  } finally {
    await page.close();
  }
}

const fmtMb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;

async function main(): Promise<Row[]> {
  const beforeBundle = process.argv.find((a) => a.startsWith('--before='))?.slice('--before='.length);
  const messages = conversationMessages(MB * 1_000_000);
  const textBytes = messages.reduce((sum, m) => sum + m.text.length, 0);
  const what = `${fmtMb(textBytes)} of text in ${messages.length} messages`;
  const rows: Row[] = [];
  const describe = (held: Held) => `streamed ${fmtMb(held.streamed)} (${(held.streamed / textBytes).toFixed(2)}× the text), opened ${fmtMb(held.opened)} (${(held.opened / textBytes).toFixed(2)}×)`;
  const now = await measure(messages);
  rows.push({ what: `webview JS heap above an empty conversation, ${what}`, target: 'context', measured: describe(now), data: { textBytes, ...now } });
  if (beforeBundle) {
    const before = await measure(messages, beforeBundle);
    rows.push({ what: `before (${beforeBundle})`, target: 'context', measured: describe(before), data: { textBytes, ...before } });
  }
  return rows;
}

runBench('webviewMemory', main);
