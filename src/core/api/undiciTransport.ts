import type { Dispatcher } from 'undici';
import { isLoopbackHost } from './loopback';
import { PROXY_REFUSED, resolveTimeouts, TransportFailure, type ResponseBody, type Timeouts, type Transport, type TransportProgress, type TransportRequest, type TransportResponse } from './transport';

/** The one file that knows undici: the client's Transport over undici's keep-alive pools. */

type Undici = typeof import('undici');
let undici: Promise<Undici> | undefined;

/**
 * undici is most of the extension's bundle, and its CommonJS index defeats tree-shaking: it is
 * loaded on the first request, so that activation (on every window) never parses or runs it.
 */
function loadUndici(): Promise<Undici> {
  return (undici ??= import('undici'));
}

export interface ConnectionSettings {
  timeouts?: Partial<Timeouts>;
  /** Explicit proxy URL (VS Code's `http.proxy`); empty means use HTTP(S)_PROXY from the environment. */
  proxy?: string;
  /** Comma-separated hosts that bypass the proxy; defaults to NO_PROXY from the environment. */
  noProxy?: string;
  /**
   * Verify the proxy's own certificate (VS Code's `http.proxyStrictSSL`). As in VS Code it concerns the
   * connection to the proxy only: the service's certificate is always verified, direct or tunnelled.
   */
  strictSSL?: boolean;
}

/** A transport with its own pools; creating it costs nothing until the first request loads undici. */
export function createUndiciTransport(settings: ConnectionSettings = {}, env: NodeJS.ProcessEnv = process.env): Transport {
  return new UndiciTransport(settings, env);
}

interface Pools {
  direct: Dispatcher;
  /** Through the configured proxy, when there is one; else `direct`. */
  configured: Dispatcher;
}

/**
 * One keep-alive pool per settings. With no proxy configured or in the environment this is a plain
 * Agent; otherwise undici's EnvHttpProxyAgent, which also honours NO_PROXY. Certificates of the
 * service are always verified (`connect`, `requestTls`); `strictSSL: false` relaxes only `proxyTls`.
 */
async function createPools(settings: ConnectionSettings, env: NodeJS.ProcessEnv): Promise<Pools> {
  const { Agent, EnvHttpProxyAgent } = await loadUndici();
  const timeouts = resolveTimeouts(settings.timeouts);
  const serviceTls = { timeout: timeouts.connectMs, rejectUnauthorized: true };
  const agentOptions = {
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 600_000,
    connect: serviceTls,
  };
  const direct = new Agent(agentOptions);
  // Read from `env` here, as undici would from process.env ('' is undici's "none"); an https URL falls back to the http proxy.
  const httpProxy = settings.proxy || env.http_proxy || env.HTTP_PROXY || '';
  const httpsProxy = settings.proxy || env.https_proxy || env.HTTPS_PROXY || httpProxy;
  if (!httpsProxy) return { direct, configured: direct };
  const noProxy = settings.noProxy ?? env.NO_PROXY ?? env.no_proxy;
  return {
    direct,
    configured: new EnvHttpProxyAgent({
      ...agentOptions,
      requestTls: serviceTls,
      proxyTls: { timeout: timeouts.connectMs, rejectUnauthorized: settings.strictSSL !== false },
      httpProxy,
      httpsProxy,
      ...(noProxy !== undefined ? { noProxy } : {}),
    }),
  };
}

class UndiciTransport implements Transport {
  #pools: Promise<Pools> | undefined;

  readonly #settings: ConnectionSettings;
  readonly #env: NodeJS.ProcessEnv;

  constructor(
    settings: ConnectionSettings,
    env: NodeJS.ProcessEnv,
  ) {
    this.#settings = settings;
    this.#env = env;
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    const progress: TransportProgress = { requestStarted: false, bodyBytesSent: 0, responseStarted: false };
    let response: Dispatcher.ResponseData;
    try {
      const { request: send } = await loadUndici();
      const pools = await (this.#pools ??= createPools(this.#settings, this.#env));
      // Loopback never goes through a proxy: plain http is allowed there only because it never leaves
      // the machine, and a proxy would receive the key (undici tunnels http too). NO_PROXY cannot say
      // "all of 127.0.0.0/8 and every spelling of ::1", so the choice is made here, per request.
      const pool = isLoopbackHost(new URL(request.url).hostname) ? pools.direct : pools.configured;
      response = await send(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body !== undefined && { body: request.body }),
        ...(request.signal && { signal: request.signal }),
        dispatcher: observed(pool, progress),
        headersTimeout: request.timeouts.responseMs,
        bodyTimeout: request.timeouts.idleMs,
      });
    } catch (error) {
      throw new TransportFailure({ ...progress }, { cause: proxyRefusal(error) ?? error });
    }
    return { status: response.statusCode, headers: response.headers, body: responseBody(response.body) };
  }

  async close(): Promise<void> {
    const pools = this.#pools;
    this.#pools = undefined;
    if (!pools) return;
    const { direct, configured } = await pools;
    await Promise.all([direct.close(), configured !== direct && configured.close()]);
  }
}

/** A proxy's refusal to tunnel, which undici reports as an abort, told apart only by its message. */
class ProxyRefusal extends Error {
  readonly code = PROXY_REFUSED;
  constructor(readonly status: number, cause: Error) {
    super(cause.message, { cause });
  }
}

function proxyRefusal(error: unknown): ProxyRefusal | undefined {
  if (!(error instanceof Error)) return undefined;
  const status = /^Proxy response \((\d{3})\) !== 200/.exec(error.message)?.[1];
  return status ? new ProxyRefusal(Number(status), error) : undefined;
}

function responseBody(body: Dispatcher.ResponseData['body']): ResponseBody {
  return {
    [Symbol.asyncIterator]: () => (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator](),
    // Destroying an unfinished body makes it emit an error that nobody waits for any more.
    cancel: () => body.on('error', () => undefined).destroy(),
    drain: async (limitBytes) => {
      await body.dump({ limit: limitBytes }).catch(() => undefined);
    },
  };
}

/** `pool`, recording in `progress` how far each request it dispatches gets. */
function observed(pool: Dispatcher, progress: TransportProgress): Dispatcher {
  const dispatch = (options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => pool.dispatch(options, observing(handler, progress));
  return new Proxy(pool, { get: (target, key) => (key === 'dispatch' ? dispatch : Reflect.get(target, key)) });
}

/**
 * undici's callbacks passed on unchanged (with every argument: onConnect's context is not in its
 * types), noting the moments a failover needs: the request handed to a connection (undici calls
 * onConnect just before it writes), body bytes written, the first byte of a response.
 */
function observing(handler: Dispatcher.DispatchHandler, progress: TransportProgress): Dispatcher.DispatchHandler {
  const call = (name: keyof Dispatcher.DispatchHandler, args: unknown[]): unknown => {
    const callback = handler[name];
    return callback ? Reflect.apply(callback, handler, args) : undefined;
  };
  return {
    onConnect: (...args: unknown[]) => {
      progress.requestStarted = true;
      call('onConnect', args);
    },
    onBodySent: (...args: unknown[]) => {
      // undici passes the chunk written, although its types say its size.
      const chunk = args[0];
      progress.bodyBytesSent += typeof chunk === 'number' ? chunk : (chunk as Uint8Array).length;
      call('onBodySent', args);
    },
    onResponseStarted: (...args: unknown[]) => {
      progress.responseStarted = true;
      call('onResponseStarted', args);
    },
    // The calls of every response and chunk, passed on directly (their types are complete).
    onHeaders: (status, headers, resume, statusText) => handler.onHeaders?.(status, headers, resume, statusText) !== false,
    onData: (chunk) => handler.onData?.(chunk) !== false,
    onComplete: (trailers) => handler.onComplete?.(trailers),
    onError: (error: Error) => {
      if (!handler.onError) throw error;
      handler.onError(error);
    },
    onUpgrade: (...args: unknown[]) => void call('onUpgrade', args),
  };
}
