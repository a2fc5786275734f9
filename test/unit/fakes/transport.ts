import { NOTHING_SENT, TransportFailure, type ResponseBody, type Transport, type TransportProgress, type TransportRequest, type TransportResponse } from '../../../src/core/api/transport';

/**
 * A Transport without sockets, for the client's logic tests: each request gets the next scripted
 * reply, and every request and what became of its body (read to the end, drained, cancelled) is kept.
 */

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  /** The body, one network read per piece. */
  body?: (string | Uint8Array)[];
  /** After its pieces the body never ends by itself (only a cancel or an abort ends it). */
  endless?: boolean;
  /** After its pieces the body fails with this (a dropped connection). */
  failAfter?: Error;
  /** `send` rejects with this instead of answering (a refused connection, a timeout). */
  fail?: Error;
  /** How far the failed request got (default: nothing sent). */
  failProgress?: Partial<TransportProgress>;
  /** The headers never arrive: `send` waits for the abort. */
  hang?: boolean;
}

export type BodyFate = 'unread' | 'read' | 'drained' | 'cancelled';

export interface SentRequest extends TransportRequest {
  /** What became of the response's body. */
  fate: BodyFate;
}

/** An error as undici reports an aborted request. */
export function abortError(): Error {
  return Object.assign(new Error('This operation was aborted'), { name: 'AbortError', code: 'UND_ERR_ABORTED' });
}

/** An error with a socket's code, as the transport would fail with it. */
export function socketError(code: string): Error {
  return Object.assign(new Error(`socket: ${code}`), { code });
}

export class FakeTransport implements Transport {
  readonly requests: SentRequest[] = [];
  closed = false;
  readonly #replies: FakeReply[] = [];

  constructor(readonly fallback: FakeReply = { status: 200, headers: { 'content-type': 'application/json' }, body: ['{}'] }) {}

  /** Scripts the next replies, in order; after them every request gets `fallback`. */
  reply(...replies: FakeReply[]): this {
    this.#replies.push(...replies);
    return this;
  }

  /** The last request's JSON body. */
  lastBody(): Record<string, unknown> {
    const body = this.requests.at(-1)?.body;
    return JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body)) as Record<string, unknown>;
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    const { signal } = request;
    if (signal?.aborted) throw new TransportFailure(NOTHING_SENT, { cause: abortError() });
    const sent: SentRequest = { ...request, fate: 'unread' };
    this.requests.push(sent);
    const reply = this.#replies.shift() ?? this.fallback;
    const progress = { requestStarted: true, bodyBytesSent: 0, responseStarted: false };
    if (reply.fail) throw new TransportFailure({ ...NOTHING_SENT, ...reply.failProgress }, { cause: reply.fail });
    if (reply.hang) {
      await aborted(signal);
      throw new TransportFailure(progress, { cause: abortError() });
    }
    return { status: reply.status ?? 200, headers: { ...reply.headers }, body: new FakeBody(reply, sent, signal) };
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

class FakeBody implements ResponseBody {
  #stop: (() => void) | undefined;
  readonly #stopped: Promise<void>;

  constructor(private readonly reply: FakeReply, private readonly sent: SentRequest, private readonly signal: AbortSignal | undefined) {
    this.#stopped = new Promise((resolve) => (this.#stop = resolve));
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array, void, undefined> {
    for (const piece of this.reply.body ?? []) {
      if (this.sent.fate === 'cancelled') return;
      if (this.signal?.aborted) throw abortError();
      await Promise.resolve(); // one read per piece, never all at once
      yield typeof piece === 'string' ? new TextEncoder().encode(piece) : piece;
    }
    if (this.reply.failAfter) throw this.reply.failAfter;
    if (this.reply.endless && this.sent.fate !== 'cancelled') {
      await Promise.race([this.#stopped, aborted(this.signal)]);
      if (this.signal?.aborted) throw abortError();
      return;
    }
    if (this.sent.fate === 'unread') this.sent.fate = 'read';
  }

  cancel(): void {
    if (this.sent.fate !== 'read' && this.sent.fate !== 'drained') this.sent.fate = 'cancelled';
    this.#stop?.();
  }

  async drain(): Promise<void> {
    if (this.sent.fate === 'unread' || this.sent.fate === 'read') this.sent.fate = 'drained';
  }
}

function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) resolve();
    else signal?.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** A JSON reply. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): FakeReply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: [JSON.stringify(body)] };
}

/** A chat-completions event stream, one piece per chunk of `texts`, ending with a finish reason and [DONE]. */
export function sse(texts: string[], headers: Record<string, string> = {}): FakeReply {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream', ...headers },
    body: [...texts.map((content) => chunk({ content })), chunk({}, 'stop'), 'data: [DONE]\n\n'],
  };
}

/** One FakeTransport per origin behind one Transport: what a failover transport sees of several hosts. */
export class FakeHosts implements Transport {
  readonly hosts: Record<string, FakeTransport>;

  /** Each host answers `fallback` unless scripted otherwise. */
  constructor(origins: readonly string[], fallback?: FakeReply) {
    this.hosts = Object.fromEntries(origins.map((origin) => [origin, new FakeTransport(fallback)]));
  }

  /** How many requests each host saw, in the order the hosts were given. */
  counts(): number[] {
    return Object.values(this.hosts).map((host) => host.requests.length);
  }

  send(request: TransportRequest): Promise<TransportResponse> {
    const host = this.hosts[new URL(request.url).origin];
    if (!host) throw new Error(`No fake host for ${request.url}`);
    return host.send(request);
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.hosts).map((host) => host.close()));
  }
}
