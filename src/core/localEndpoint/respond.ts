/** Writing local-endpoint responses and reading bodies, the same in every protocol. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A failure the endpoint itself answers (bad token, bad Host, oversized body, no key in VS Code, …).
 * Its message is protocol text in an HTTP error body for another program (beside a machine-readable
 * code), like the service's own errors: it stays in English, untranslated (see localization.test.ts).
 */
export class EndpointError extends Error {
  override readonly name = 'EndpointError';
  /** `type`: the error body's type, when the status's usual one would mislead the client (a spending limit is no permission error). */
  constructor(readonly status: number, readonly code: string, message: string, readonly headers: Record<string, string> = {}, readonly type?: string) {
    super(message);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

/** Writes one piece; resolves when the socket can take more or the client is gone. (The emulator has its own: src never imports test.) */
export function write(res: ServerResponse, piece: Uint8Array | string): Promise<void> {
  if (res.destroyed || piece.length === 0) return Promise.resolve();
  if (res.write(piece)) return Promise.resolve();
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

/** Reads a request body up to `limit` bytes; more is refused with 413 before it is all received. */
export function readRequestBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(tooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function tooLarge(limit: number): EndpointError {
  return new EndpointError(413, 'body_too_large', `Request bodies are limited to ${limit} bytes at the local endpoint.`);
}

/** Reads a whole upstream body (capped), for answers that are translated rather than relayed. */
export async function readAll(body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, limit: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) throw new EndpointError(502, 'upstream_too_large', `The service's answer exceeds ${limit} bytes, more than the local endpoint translates.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** An upstream answer read whole (capped) as JSON; anything else is the service's fault, answered 502. */
export async function readUpstreamJson(upstream: { body: AsyncIterable<Uint8Array> | Iterable<Uint8Array> }, limit: number): Promise<unknown> {
  const raw = await readAll(upstream.body, limit);
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw new EndpointError(502, 'malformed_upstream', 'The service answered with something that is not JSON.');
  }
}

export function parseJson(raw: Buffer, what: string): unknown {
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw new EndpointError(400, 'invalid_json', `${what} is not valid JSON.`);
  }
}
