/**
 * Scripted replies: a test control, not service behaviour. A test queues the exact text the next chat
 * answer(s) of an environment will carry (for example a hostile markdown corpus), optionally streamed
 * in pieces of a fixed number of characters so that words, tags and UTF-8 sequences split across
 * deltas. Everything else (auth, faults, billing, max_tokens, pacing) stays as for a generated reply.
 */
import type { ScriptedReply } from './types';

/** Checks an untrusted ScriptedReply (from the control endpoint) and returns a clean copy. */
export function validateScriptedReply(value: unknown): ScriptedReply {
  if (typeof value !== 'object' || value === null) throw new Error('A scripted reply must be an object.');
  const v = value as Record<string, unknown>;
  if (typeof v.text !== 'string') throw new Error('"text" must be a string.');
  const reply: ScriptedReply = { text: v.text };
  for (const field of ['chunkChars', 'times'] as const) {
    const n = v[field];
    if (n === undefined) continue;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw new Error(`${field} must be a positive integer.`);
    reply[field] = n;
  }
  if (v.reasoning !== undefined) {
    if (typeof v.reasoning !== 'string') throw new Error('"reasoning" must be a string.');
    reply.reasoning = v.reasoning;
  }
  if (v.reasoningField !== undefined) {
    if (v.reasoningField !== 'reasoning_content' && v.reasoningField !== 'reasoning') throw new Error('"reasoningField" must be "reasoning_content" or "reasoning".');
    reply.reasoningField = v.reasoningField;
  }
  if (v.toolCalls !== undefined) {
    const calls = v.toolCalls;
    const valid = Array.isArray(calls) && calls.every((c: unknown) => typeof c === 'object' && c !== null
      && typeof (c as Record<string, unknown>).name === 'string' && typeof (c as Record<string, unknown>).arguments === 'string'
      && ['string', 'undefined'].includes(typeof (c as Record<string, unknown>).id));
    if (!valid) throw new Error('"toolCalls" must be an array of {name, arguments (a string), id?}.');
    reply.toolCalls = (calls as { name: string; arguments: string; id?: string }[]).map((c) => ({ name: c.name, arguments: c.arguments, ...(c.id !== undefined && { id: c.id }) }));
  }
  return reply;
}

/** A gate: `opened` resolves once `open()` is called. */
function opened(): { opened: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const gate = new Promise<void>((resolve) => { open = resolve; });
  return { opened: gate, open };
}

interface Queued { reply: ScriptedReply; remaining: number }

export class ScriptedReplies {
  private queue: Queued[] = [];
  #held = opened();
  #holding = 0;

  /** Until resumeHeld() or the signal: false when the client went meanwhile. */
  async hold(signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return false;
    const gone = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    this.#holding++;
    try {
      await Promise.race([this.#held.opened, gone]);
    } finally {
      this.#holding--;
    }
    return !signal.aborted;
  }

  /** Streams waiting at their hold now. */
  get holding(): number {
    return this.#holding;
  }

  resumeHeld(): void {
    this.#held.open();
    this.#held = opened();
  }

  push(reply: ScriptedReply): void {
    this.queue.push({ reply: { ...reply }, remaining: reply.times ?? 1 });
  }

  clear(): void {
    this.queue = [];
    this.resumeHeld();
  }

  pending(): number {
    return this.queue.reduce((sum, q) => sum + q.remaining, 0);
  }

  /** The reply for this chat request, consumed in queue order; undefined when none is queued. */
  take(): ScriptedReply | undefined {
    const head = this.queue[0];
    if (!head) return undefined;
    head.remaining -= 1;
    if (head.remaining <= 0) this.queue.shift();
    return head.reply;
  }
}

/** `text` in pieces of `size` characters (code points, so a piece never ends inside a surrogate pair). */
export function splitEvery(text: string, size: number): string[] {
  const chars = [...text];
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += size) pieces.push(chars.slice(i, i + size).join(''));
  return pieces;
}
