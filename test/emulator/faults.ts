/** Injected faults: queued per environment, consumed in order by matching requests. */
import { ApiError, type ErrorType } from './errors';
import { endBody, sendError, sleep, writeHead, type RequestContext } from './http';
import type { FaultName, FaultSpec } from './types';

export const FAULT_NAMES: readonly FaultName[] = [
  'http-400', 'http-401', 'http-402', 'http-403', 'http-404', 'http-429', 'http-500', 'http-503',
  'html-500', 'text-502', 'slow-first-byte', 'hang',
  'reset-mid-stream', 'stall-mid-stream', 'no-done', 'malformed-chunk', 'error-mid-stream', 'keepalive-comments',
  'crlf', 'tiny-writes', 'large-stream', 'usage-chunk',
  'html-404', 'redirect-308', 'no-balance-header', 'echo-authorization', 'echo-authorization-mid-stream',
];

const STREAM_FAULTS: ReadonlySet<FaultName> = new Set<FaultName>([
  'reset-mid-stream', 'stall-mid-stream', 'no-done', 'malformed-chunk', 'error-mid-stream', 'keepalive-comments',
  'crlf', 'tiny-writes', 'large-stream', 'usage-chunk', 'echo-authorization-mid-stream',
]);

export function isFaultName(value: unknown): value is FaultName {
  return typeof value === 'string' && (FAULT_NAMES as readonly string[]).includes(value);
}

export function isStreamFault(name: FaultName): boolean {
  return STREAM_FAULTS.has(name);
}

/** Checks an untrusted FaultSpec (from the control endpoint) and returns a clean copy. */
export function validateFaultSpec(value: unknown): FaultSpec {
  if (typeof value !== 'object' || value === null) throw new Error('A fault spec must be an object.');
  const v = value as Record<string, unknown>;
  if (!isFaultName(v.fault)) throw new Error(`Unknown fault ${JSON.stringify(v.fault)}; known: ${FAULT_NAMES.join(', ')}.`);
  const spec: FaultSpec = { fault: v.fault };
  for (const field of ['times', 'delayMs', 'retryAfterSeconds'] as const) {
    const n = v[field];
    if (n === undefined) continue;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) throw new Error(`${field} must be a non-negative number.`);
    spec[field] = n;
  }
  for (const field of ['path', 'location'] as const) {
    const text = v[field];
    if (text === undefined) continue;
    if (typeof text !== 'string') throw new Error(`${field} must be a string.`);
    spec[field] = text;
  }
  return spec;
}

interface QueuedFault { spec: FaultSpec; remaining: number }

export interface TakenFaults { pre?: FaultSpec; stream: FaultSpec[] }

export class FaultQueue {
  private queue: QueuedFault[] = [];

  push(spec: FaultSpec): void {
    this.queue.push({ spec: { ...spec }, remaining: spec.times ?? 1 });
  }

  clear(): void {
    this.queue = [];
  }

  pending(): FaultSpec[] {
    return this.queue.map((q) => ({ ...q.spec, times: q.remaining }));
  }

  /**
   * Consumes, in queue order, the first response-level fault and the first stream fault of each name
   * that match this request. Stream faults only match streaming chat requests and stay queued otherwise.
   */
  take(path: string, streamingChat: boolean): TakenFaults {
    const taken: TakenFaults = { stream: [] };
    for (const q of this.queue) {
      if (q.remaining <= 0 || (q.spec.path !== undefined && !path.endsWith(q.spec.path))) continue;
      if (isStreamFault(q.spec.fault)) {
        if (!streamingChat || taken.stream.some((t) => t.fault === q.spec.fault)) continue;
        taken.stream.push(q.spec);
      } else {
        if (taken.pre) continue;
        taken.pre = q.spec;
      }
      q.remaining -= 1;
    }
    this.queue = this.queue.filter((q) => q.remaining > 0);
    return taken;
  }
}

const STATUS_FAULTS: Partial<Record<FaultName, { status: number; type: ErrorType; code: string }>> = {
  'http-400': { status: 400, type: 'invalid_request_error', code: 'emulated_bad_request' },
  'http-401': { status: 401, type: 'authentication_error', code: 'emulated_unauthorized' },
  'http-402': { status: 402, type: 'insufficient_credits', code: 'emulated_insufficient_credits' },
  'http-403': { status: 403, type: 'permission_error', code: 'emulated_forbidden' },
  'http-404': { status: 404, type: 'not_found_error', code: 'emulated_not_found' },
  'http-429': { status: 429, type: 'rate_limit_error', code: 'emulated_rate_limit' },
  'http-500': { status: 500, type: 'server_error', code: 'emulated_server_error' },
  'http-503': { status: 503, type: 'service_unavailable', code: 'emulated_unavailable' },
};

const HTML_404 = '<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>\n'
  + '<body><h1>404 Not Found</h1><hr><p>emulated-proxy</p></body></html>\n';

/** What a careless service or proxy puts in an error: the request's credentials, verbatim (a test fault). */
export function echoedAuthorization(ctx: RequestContext): string {
  return `Request rejected. Received headers: authorization: ${ctx.req.headers.authorization ?? '(none)'}; x-api-key=${(ctx.req.headers.authorization ?? '').replace(/^Bearer\s+/i, '')}`;
}

/** Drops a header from this response, however the handlers set it. */
function omitHeader(ctx: RequestContext, name: string): void {
  const { res } = ctx;
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (header: string, value: number | string | readonly string[]) => (header.toLowerCase() === name ? res : setHeader(header, value));
  const writeHead = res.writeHead.bind(res) as (status: number, headers?: Record<string, string>) => typeof res;
  res.writeHead = ((status: number, headers?: Record<string, string>) => {
    const kept = Object.fromEntries(Object.entries(headers ?? {}).filter(([header]) => header.toLowerCase() !== name));
    return writeHead(status, kept);
  }) as typeof res.writeHead;
}

const HTML_500 = '<!DOCTYPE html>\n<html><head><title>500 Internal Server Error</title></head>\n'
  + '<body><h1>500 Internal Server Error</h1><hr><p>emulated-proxy</p></body></html>\n';

/** A body that is not the service's JSON, as a proxy or a broken gateway sends it. */
function sendPage(ctx: RequestContext, fault: FaultName, status: number, type: string, body: string): 'handled' {
  ctx.record.errorCode = fault;
  writeHead(ctx, status, { 'content-type': `${type}; charset=utf-8`, 'content-length': String(Buffer.byteLength(body)) });
  endBody(ctx, body);
  return 'handled';
}

/**
 * Applies a response-level fault. Returns 'handled' when the fault answered (or deliberately never
 * answers) the request, 'continue' when normal handling should go on (after a delay).
 */
export async function applyResponseFault(ctx: RequestContext, spec: FaultSpec): Promise<'handled' | 'continue'> {
  const status = STATUS_FAULTS[spec.fault];
  if (status) {
    const headers: Record<string, string> = {};
    if (spec.fault === 'http-429' || (spec.fault === 'http-503' && spec.retryAfterSeconds !== undefined)) {
      headers['retry-after'] = String(spec.retryAfterSeconds ?? 1);
    }
    sendError(ctx, new ApiError(status.status, status.type, status.code, `Emulated fault ${spec.fault}.`, headers));
    return 'handled';
  }
  switch (spec.fault) {
    case 'html-500':
      return sendPage(ctx, spec.fault, 500, 'text/html', HTML_500);
    case 'text-502':
      return sendPage(ctx, spec.fault, 502, 'text/plain', 'Bad Gateway: upstream connection failed (emulated)\n');
    case 'html-404':
      return sendPage(ctx, spec.fault, 404, 'text/html', HTML_404);
    case 'redirect-308': {
      const location = spec.location ?? `https://moved.invalid${ctx.req.url ?? '/'}`;
      ctx.record.errorCode = 'redirect-308';
      writeHead(ctx, 308, { location, 'content-length': '0' });
      endBody(ctx);
      return 'handled';
    }
    case 'echo-authorization':
      sendError(ctx, new ApiError(400, 'invalid_request_error', 'echoed_authorization', echoedAuthorization(ctx)));
      return 'handled';
    case 'no-balance-header':
      omitHeader(ctx, 'x-service-balance-credits');
      return 'continue';
    case 'slow-first-byte':
      return (await sleep(spec.delayMs ?? 2000, ctx.signal)) ? 'continue' : 'handled';
    case 'hang':
      // Never answer; the socket is destroyed when the client gives up or the emulator closes.
      return 'handled';
    default:
      return 'continue';
  }
}
