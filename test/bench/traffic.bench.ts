/**
 * Host → webview traffic of one streamed answer: the bytes of every message the chat engine posts
 * for it (upsert, appends, patches) over the bytes of the answer's text, for a model streaming at a
 * given rate. Deltas arrive at their real times on a virtual clock and go through the real append
 * batcher and the real message builder, so the appends are the ones the host really sends; the
 * clock is virtual so that the figures are exact and the run takes milliseconds.
 *
 * Baselines, in the same run: protocol 2 (the same appends as objects, `{"v":2,"type":"append",
 * "seq":…,"text":…}`), and protocol 1 (every append carried the conversation and message ids, one
 * append per 24 ms window, and the end of the answer re-sent the whole text twice).
 */
import { AppendBatcher, DEFAULT_APPEND_PACING, type AppendPacing, type Timer } from '../../src/core/chat/appendBatcher';
import { appendMessage, hostMessage, type AppendMessage } from '../../src/core/chat/protocol/chatProtocol';
import { longAnswer } from '../shared/answerCorpus';

const SMOKE = process.env.INFERENCE_BENCH_SMOKE === '1';

/** A clock the deltas and the batcher's timer share. */
class VirtualClock implements Timer {
  now = 0;
  private timers: { at: number; callback: () => void; id: number }[] = [];
  private nextId = 1;
  set(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.now + ms, callback, id });
    return id;
  }
  clear(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }
  advanceTo(time: number): void {
    for (;;) {
      const due = this.timers.filter((t) => t.at <= time).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.now = due.at;
      due.callback();
    }
    this.now = time;
  }
}

/** Tokens the way a BPE tokenizer cuts prose: words and their spaces in pieces of at most four characters. */
function tokens(text: string): string[] {
  return (text.match(/\s*\S+\s*/gu) ?? []).flatMap((word) => word.match(/[\s\S]{1,4}/gu) ?? []);
}

const bytes = (message: unknown) => Buffer.byteLength(JSON.stringify(message));

interface Variant {
  name: string;
  pacing: AppendPacing;
  /** Bytes of one append as that protocol sent it. */
  appendBytes(append: AppendMessage): number;
  /** Bytes of the end of the answer (status, meta), given the final text. */
  endBytes(text: string): number;
}

const META = { model: 'emu-chat-large', requestId: 'req-0123456789abcdef', startedAt: 1_763_800_000_000, finishedAt: 1_763_800_004_000, finishReason: 'stop' };
const IDS = { conversationId: 'c8f1d0a2-9a43-4f8e-8a5e-3e8a3c3a1b11', messageId: '5b2c7e1e-0d4f-4b58-9a53-1f1ad2a4c0d9' };

/** What the host sends: the real batcher's appends through the real message builder. */
const CURRENT: Variant = {
  name: 'now',
  pacing: DEFAULT_APPEND_PACING,
  appendBytes: (append) => bytes(appendMessage(append)),
  endBytes: () => 3 * bytes(hostMessage('messagePatch', { ...IDS, status: 'done', meta: META })),
};

/** Protocol 2: the same appends, each an object with its version, type and field names. */
const OBJECT_APPENDS: Variant = {
  ...CURRENT,
  name: 'objects',
  appendBytes: ({ seq, text, reasoning }) => bytes({ v: 2, type: 'append', seq, text, ...(reasoning && { reasoning }) }),
};

const PREVIOUS: Variant = {
  name: 'before',
  // One append per 24 ms window, however little text it held.
  pacing: { maxWaitMs: 24, flushChars: Number.MAX_SAFE_INTEGER },
  appendBytes: ({ seq, text }) => bytes({ v: 1, type: 'append', conversation: IDS.conversationId, message: IDS.messageId, seq, append: text }),
  endBytes: (text) => 2 * bytes({ v: 1, type: 'messageUpsert', conversation: IDS.conversationId, message: { id: IDS.messageId, role: 'assistant', text, status: 'done', meta: META } }),
};

function traffic(text: string, tokensPerSecond: number, variant: Variant): { ratio: number; appends: number } {
  const clock = new VirtualClock();
  let sent = bytes(hostMessage('messageUpsert', { conversationId: IDS.conversationId, message: { id: IDS.messageId, role: 'assistant', text: '', createdAt: 0, status: 'streaming' } }));
  let appends = 0;
  const batcher = new AppendBatcher((append) => {
    appends++;
    sent += variant.appendBytes(append);
  }, variant.pacing, clock);
  tokens(text).forEach((token, i) => {
    clock.advanceTo((i * 1000) / tokensPerSecond);
    batcher.push(token);
  });
  batcher.flush();
  sent += variant.endBytes(text);
  return { ratio: sent / Buffer.byteLength(text), appends };
}

function main(): void {
  const text = longAnswer(SMOKE ? 5_000 : 20_000);
  const rows: string[] = [];
  for (const rate of [1000, 50, 20]) {
    const now = traffic(text, rate, CURRENT);
    const objects = traffic(text, rate, OBJECT_APPENDS);
    const before = traffic(text, rate, PREVIOUS);
    const target = rate === 50 ? 1.5 : undefined;
    const met = target === undefined ? '' : now.ratio <= target ? 'met' : 'NOT met';
    const updatesPerSecond = now.appends / (tokens(text).length / rate);
    rows.push(`| host → webview bytes / answer bytes at ${rate} tokens/s | ${target ? `≤ ${target}×` : 'context'} | ${now.ratio.toFixed(2)}× (${now.appends} appends, ${updatesPerSecond.toFixed(1)} updates/s; protocol 2 objects: ${objects.ratio.toFixed(2)}×; protocol 1: ${before.ratio.toFixed(2)}×, ${before.appends} appends) | ${met} |`);
  }
  console.log(`traffic of one ${Math.round(Buffer.byteLength(text) / 1024)} KB answer (virtual clock: exact, the same every run)`);
  console.log('| what | target | measured | met? |\n|---|---|---|---|');
  for (const row of rows) console.log(row);
}

main();
