/** Server-sent-event writing, with the wire-level stream faults (CRLF, tiny writes, comments). */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { endBody, sleep, writeBody, writeHead, type RequestContext } from './http';

export interface SseOptions { crlf: boolean; tinyWrites: boolean }

export class SseWriter {
  private readonly eol: string;

  constructor(private readonly ctx: RequestContext, private readonly options: SseOptions) {
    this.eol = options.crlf ? '\r\n' : '\n';
  }

  get closed(): boolean {
    return this.ctx.signal.aborted || this.ctx.res.destroyed;
  }

  open(headers: Record<string, string>): void {
    writeHead(this.ctx, 200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    this.ctx.res.flushHeaders();
  }

  data(payload: unknown): Promise<void> {
    const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
    return this.raw(`data: ${text}${this.eol}${this.eol}`);
  }

  comment(text: string): Promise<void> {
    return this.raw(`: ${text}${this.eol}${this.eol}`);
  }

  end(): void {
    endBody(this.ctx);
  }

  /**
   * Cuts the connection without a proper end of the chunked body, after what was already written
   * has left: destroying with bytes still queued would drop them, and the client should see them.
   */
  async destroy(): Promise<void> {
    const { res, signal } = this.ctx;
    while (!this.closed && (res.writableLength > 0 || (res.socket?.writableLength ?? 0) > 0)) await sleep(5, signal);
    await sleep(20, signal);
    this.ctx.record.finishedAt = Date.now();
    res.destroy();
  }

  private async raw(text: string): Promise<void> {
    const buf = Buffer.from(text, 'utf8');
    if (!this.options.tinyWrites) {
      await writeBody(this.ctx, buf);
      return;
    }
    // 1–3 byte pieces, yielding between them so they leave as separate writes (and TCP segments).
    let i = 0;
    let n = 0;
    while (i < buf.length && !this.closed) {
      const size = 1 + (n++ % 3);
      await writeBody(this.ctx, buf.subarray(i, i + size));
      i += size;
      await yieldToLoop();
    }
  }
}
