/**
 * Coalesces streamed text into at most one `append` per interval per message: a model that emits a
 * token every millisecond must not cost the webview a message (and a render) per token.
 */
export interface Append {
  messageId: string;
  seq: number;
  append: string;
}

export interface Timer {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const realTimer: Timer = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class AppendBatcher {
  private pending = '';
  private handle: unknown;
  private seq = 0;

  constructor(
    readonly messageId: string,
    private readonly emit: (append: Append) => void,
    private readonly intervalMs = 24,
    private readonly timer: Timer = realTimer,
  ) {}

  /** The seq of the last append emitted (a snapshot tells the webview where the stream stands). */
  get lastSeq(): number {
    return this.seq;
  }

  push(text: string): void {
    if (!text) return;
    this.pending += text;
    if (this.handle === undefined) this.handle = this.timer.set(() => this.flush(), this.intervalMs);
  }

  /** Sends what is pending now (before a status change, or at the end of the stream). */
  flush(): void {
    if (this.handle !== undefined) this.timer.clear(this.handle);
    this.handle = undefined;
    if (!this.pending) return;
    const append = this.pending;
    this.pending = '';
    this.emit({ messageId: this.messageId, seq: ++this.seq, append });
  }

  /** Drops pending text without sending it: the next snapshot carries it (the webview was not there). */
  discardPending(): void {
    if (this.handle !== undefined) this.timer.clear(this.handle);
    this.handle = undefined;
    this.pending = '';
  }

  dispose(): void {
    if (this.handle !== undefined) this.timer.clear(this.handle);
    this.handle = undefined;
  }
}
