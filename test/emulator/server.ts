/** One HTTP listener per environment: request log, faults, auth, rate limit, routing. */
import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { handleChat } from './chat';
import { CONTROL_PREFIX, handleControl, type ControlHooks } from './control';
import { ApiError, badRequest, notFound } from './errors';
import { applyResponseFault, isFaultName, isStreamFault, type TakenFaults } from './faults';
import { isRecord, parseJsonBody, readBody, sendError, type RequestContext } from './http';
import { handleImages } from './images';
import { requireScope, type KeyRecord } from './keys';
import { handleModels } from './models';
import type { EnvRuntime } from './runtime';
import type { RequestRecord } from './types';

export const API_PREFIX = '/api/v1';
export const FAULT_HEADER = 'x-emulator-fault';

/** `x-emulator-fault: crlf, tiny-writes` applies to this request only and leaves the queue alone. */
function faultsFromHeader(req: IncomingMessage): TakenFaults | undefined {
  const header = req.headers[FAULT_HEADER];
  if (typeof header !== 'string' || header.trim() === '') return undefined;
  const delay = Number(req.headers['x-emulator-fault-delay-ms']);
  const taken: TakenFaults = { stream: [] };
  for (const name of header.split(',').map((s) => s.trim())) {
    if (!isFaultName(name)) throw badRequest('unknown_fault', `Unknown emulator fault "${name}".`);
    const spec = { fault: name, ...(Number.isFinite(delay) ? { delayMs: delay } : {}) };
    if (isStreamFault(name)) taken.stream.push(spec);
    else taken.pre ??= spec;
  }
  return taken;
}

function authorize(ctx: RequestContext, env: EnvRuntime): KeyRecord {
  const key = env.keys.authenticate(ctx.req.headers.authorization);
  ctx.record.keyLabel = key.label;
  ctx.res.setHeader('x-ratelimit-limit-requests', String(key.rpm));
  const { remaining } = env.limiter.hit(key.label, key.rpm);
  ctx.res.setHeader('x-ratelimit-remaining-requests', String(remaining));
  return key;
}

async function handleApi(ctx: RequestContext, env: EnvRuntime, url: URL): Promise<void> {
  const { req } = ctx;
  const raw = req.method === 'POST' ? await readBody(req, ctx.signal) : Buffer.alloc(0);
  let body: unknown;
  try {
    body = parseJsonBody(raw);
  } catch (err) {
    body = err; // reported by the handler that needs a body, after faults and auth
  }
  const route = url.pathname.slice(API_PREFIX.length);
  const streamingChat = route === '/chat/completions' && isRecord(body) && body.stream === true;
  ctx.record.stream = streamingChat;
  const faults = faultsFromHeader(req) ?? env.faults.take(url.pathname, streamingChat);
  const applied = [...(faults.pre ? [faults.pre.fault] : []), ...faults.stream.map((f) => f.fault)];
  if (applied.length > 0) ctx.record.faults = applied;
  if (faults.pre && (await applyResponseFault(ctx, faults.pre)) === 'handled') return;

  const needsBody = (): unknown => {
    if (body instanceof ApiError) throw body;
    return body;
  };
  const allow = (method: string): void => {
    if (req.method !== method) throw new ApiError(405, 'invalid_request_error', 'method_not_allowed', `Use ${method} for ${route}.`, { allow: method });
  };
  switch (route) {
    case '/models': {
      allow('GET');
      const hasKey = (req.headers.authorization ?? '').trim() !== '';
      return handleModels(ctx, env, hasKey ? authorize(ctx, env) : undefined, url.searchParams);
    }
    case '/chat/completions': {
      allow('POST');
      const key = authorize(ctx, env);
      return handleChat(ctx, env, key, needsBody(), faults.stream);
    }
    case '/images/generations': {
      allow('POST');
      const key = authorize(ctx, env);
      requireScope(key, 'images'); // before the body checks, as the README's check order says
      return handleImages(ctx, env, key, needsBody());
    }
    default:
      throw notFound('unknown_endpoint', `No endpoint ${req.method ?? ''} ${url.pathname}.`);
  }
}

export function createListener(env: EnvRuntime, shutdown: AbortSignal, hooks: ControlHooks): http.Server {
  const onRequest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Aborted uploads and cut connections surface as these errors; the 'close' handling covers them.
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    if (url.pathname.startsWith(CONTROL_PREFIX)) return handleControl(req, res, url, env, hooks);

    const record: RequestRecord = {
      id: `req_${randomBytes(10).toString('hex')}`, env: env.name, method: req.method ?? 'GET', path: url.pathname + url.search,
      status: 0, stream: false, startedAt: Date.now(), bytesSent: 0, creditsCharged: 0,
      listener: `http://${req.socket.localAddress?.includes(':') ? `[${req.socket.localAddress}]` : req.socket.localAddress ?? ''}:${req.socket.localPort ?? ''}`,
    };
    env.log.push(record);
    const closed = new AbortController();
    const ctx: RequestContext = { req, res, record, signal: AbortSignal.any([closed.signal, shutdown]) };
    res.setHeader('x-request-id', record.id);
    res.on('close', () => {
      const now = Date.now();
      if (!res.writableFinished && record.finishedAt === undefined && !shutdown.aborted) record.clientClosedAt = now;
      record.finishedAt ??= now;
      closed.abort();
    });
    try {
      if (!url.pathname.startsWith(`${API_PREFIX}/`)) throw notFound('unknown_endpoint', `No endpoint ${url.pathname}; the API lives under ${API_PREFIX}.`);
      await handleApi(ctx, env, url);
    } catch (err) {
      if (ctx.signal.aborted) return;
      if (err instanceof ApiError) return sendError(ctx, err);
      // Log the message only: request data (and so keys) never reaches the console.
      console.error(`[emulator] internal error on ${record.method} ${record.path}: ${err instanceof Error ? err.message : String(err)}`);
      sendError(ctx, new ApiError(500, 'server_error', 'internal_error', 'The emulator hit an internal error.'));
    }
  };
  const server = http.createServer((req, res) => {
    onRequest(req, res).catch(() => res.destroy());
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  return server;
}
