/** Per-request context and response helpers that keep the request log's byte and status counts honest. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { ApiError } from './errors';
import type { RequestRecord } from './types';

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  record: RequestRecord;
  /** Aborted when the client goes away or the emulator closes. */
  signal: AbortSignal;
}

/** Room for a few images as data URLs in one chat request (the spec names no body size). */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

export function readBody(req: IncomingMessage, signal: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onAbort = (): void => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        reject(new ApiError(413, 'invalid_request_error', 'body_too_large', `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      signal.removeEventListener('abort', onAbort);
      resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}

export function writeHead(ctx: RequestContext, status: number, headers: Record<string, string>): void {
  ctx.record.status = status;
  ctx.res.writeHead(status, headers);
}

/** Writes a body piece; resolves when the socket can take more, or when the client is gone. */
export function writeBody(ctx: RequestContext, piece: Buffer | string): Promise<void> {
  const { res } = ctx;
  if (res.destroyed || ctx.signal.aborted) return Promise.resolve();
  const buf = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
  ctx.record.bytesSent += buf.length;
  if (res.write(buf)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export function endBody(ctx: RequestContext, piece?: Buffer | string): void {
  if (ctx.res.destroyed) return;
  if (piece !== undefined) {
    const buf = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
    ctx.record.bytesSent += buf.length;
    ctx.res.end(buf);
  } else {
    ctx.res.end();
  }
}

export function sendJson(ctx: RequestContext, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  writeHead(ctx, status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
  });
  endBody(ctx, text);
}

export function sendError(ctx: RequestContext, error: ApiError): void {
  ctx.record.errorCode = error.code;
  if (ctx.res.headersSent) {
    ctx.res.destroy();
    return;
  }
  sendJson(ctx, error.status, error.toBody(), { ...error.headers });
}

/** Sleeps `ms`; resolves false instead of rejecting when `signal` aborts first. */
export async function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  if (ms <= 0) return true;
  try {
    await delay(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

export function parseJsonBody(raw: Buffer): unknown {
  if (raw.length === 0) throw new ApiError(400, 'invalid_request_error', 'invalid_json', 'The request body is empty; a JSON object is required.');
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw new ApiError(400, 'invalid_request_error', 'invalid_json', 'The request body is not valid JSON.');
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
