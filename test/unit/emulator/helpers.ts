/** Shared helpers for the emulator's tests: raw node:http requests and SSE splitting. */
import http, { type IncomingHttpHeaders } from 'node:http';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../emulator';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  /** How many 'data' events the body arrived in. */
  pieces: number;
  /** False when the connection ended before the response was complete. */
  complete: boolean;
  error?: string;
}

export interface RawOptions { method?: string; headers?: Record<string, string>; body?: unknown; timeoutMs?: number }

/** One request over plain node:http; never rejects on resets or timeouts, it reports them. */
export function rawRequest(url: string, options: RawOptions = {}): Promise<RawResponse> {
  const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  return new Promise((resolve) => {
    const req = http.request(url, {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
      agent: false,
    }, (res) => {
      const chunks: Buffer[] = [];
      let error: string | undefined;
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) => { error = err.message; });
      res.on('close', () => {
        const all = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: all, text: all.toString('utf8'), pieces: chunks.length, complete: res.complete, error });
      });
    });
    req.on('error', (err) => resolve({ status: 0, headers: {}, body: Buffer.alloc(0), text: '', pieces: 0, complete: false, error: err.message }));
    if (options.timeoutMs !== undefined) req.setTimeout(options.timeoutMs, () => req.destroy(new Error('client timeout')));
    req.end(body);
  });
}

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

export interface SseEvent { data?: string; comment?: string }

/** Splits an SSE body into events (LF or CRLF), keeping comments so tests can see them. */
export function parseSse(text: string): SseEvent[] {
  return text.replace(/\r\n/g, '\n').split('\n\n').filter((block) => block !== '').map((block) => {
    const event: SseEvent = {};
    for (const line of block.split('\n')) {
      if (line.startsWith('data: ')) event.data = line.slice(6);
      else if (line.startsWith(':')) event.comment = line.slice(1).trim();
    }
    return event;
  });
}

export interface ChunkJson {
  choices: { delta: { role?: string; content?: string }; finish_reason: string | null }[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  error?: { message: string; code: string };
}

/** The JSON payloads of the data events, [DONE] excluded. */
export function sseChunks(text: string): ChunkJson[] {
  return parseSse(text).filter((e) => e.data !== undefined && e.data !== '[DONE]').map((e) => JSON.parse(e.data ?? '') as ChunkJson);
}

export function streamedText(text: string): string {
  return sseChunks(text).map((c) => c.choices[0]?.delta.content ?? '').join('');
}

export function chatBody(model: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model, messages: [{ role: 'user', content: 'Tell me about emulators' }], ...extra };
}

/** Starts an emulator before the suite's tests and closes it after; reset between tests. */
export function useEmulator(options?: EmulatorOptions): () => Emulator {
  let emulator: Emulator | undefined;
  before(async () => { emulator = await startEmulator(options); });
  afterEach(() => emulator?.reset());
  after(async () => { await emulator?.close(); });
  return () => {
    if (!emulator) throw new Error('emulator not started');
    return emulator;
  };
}

