import type { AppendMessage } from './protocol/chatProtocol';

export interface Timer {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const realTimer: Timer = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface AppendPacing {
  /** Longest a character waits before it is sent. */
  maxWaitMs: number;
  /** Pending text of this many characters is sent without waiting. */
  flushChars: number;
}

export const DEFAULT_APPEND_PACING: AppendPacing = { maxWaitMs: 250, flushChars: 256 };

/**
 * Coalesces streamed text into few `append` messages. Each message costs a postMessage, a wrapper
 * and a render, so appends are sized by text, not by tokens: the first text of an answer goes at
 * once (time to first token is what users feel), later text waits until `flushChars` characters
 * gathered or `maxWaitMs` passed since the oldest of them. A fast model (~1,000 tokens/s) fills an
 * append about every 60 ms; a slow one (~20-50 tokens/s) sends four a second instead of one per
 * token. Waiting longer would shrink the wrapper further (test/bench/traffic.bench.ts) but makes a
 * slow answer visibly jerky; 250 ms is the compromise.
 */
export class AppendBatcher {
  #pending = '';
  #pendingIsReasoning = false;
  #handle: unknown;
  #seq = 0;
  readonly #pacing: AppendPacing;

  readonly #emit: (append: AppendMessage) => void;
  readonly #timer: Timer;

  constructor(
    emit: (append: AppendMessage) => void,
    pacing: Partial<AppendPacing> = {},
    timer: Timer = realTimer,
  ) {
    this.#emit = emit;
    this.#timer = timer;
    this.#pacing = { ...DEFAULT_APPEND_PACING, ...pacing };
  }

  /** The seq of the last append emitted (a snapshot tells the webview where the stream stands). */
  get lastSeq(): number {
    return this.#seq;
  }

  /** Queues answer text, or the model's thinking; a switch between the two sends what is pending first. */
  push(text: string, reasoning = false): void {
    if (!text) return;
    if (this.#pending && reasoning !== this.#pendingIsReasoning) this.flush();
    this.#pendingIsReasoning = reasoning;
    this.#pending += text;
    if (this.#seq === 0 || this.#pending.length >= this.#pacing.flushChars) this.flush();
    else if (this.#handle === undefined) this.#handle = this.#timer.set(() => this.flush(), this.#pacing.maxWaitMs);
  }

  /** Sends what is pending now (before a status change, or at the end of the stream). */
  flush(): void {
    if (this.#handle !== undefined) this.#timer.clear(this.#handle);
    this.#handle = undefined;
    if (!this.#pending) return;
    const text = this.#pending;
    this.#pending = '';
    this.#emit({ seq: ++this.#seq, text, ...(this.#pendingIsReasoning && { reasoning: true as const }) });
  }

  /** Drops pending text without sending it: the next snapshot carries it (the webview was not there). */
  discardPending(): void {
    if (this.#handle !== undefined) this.#timer.clear(this.#handle);
    this.#handle = undefined;
    this.#pending = '';
  }

  dispose(): void {
    if (this.#handle !== undefined) this.#timer.clear(this.#handle);
    this.#handle = undefined;
  }
}
