/**
 * The local endpoint: a loopback-only HTTP server that lets other tools use the service through the
 * extension. Clients authenticate with a per-run token; the service key is added by `forward` and never
 * reaches them. No CORS headers are ever sent, Host must be a loopback name, and a browser's cross-origin
 * request (it carries Origin) is refused, so a web page cannot use it. Knows nothing of VS Code.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleAnthropicModels, handleMessages } from './anthropic';
import { isLoopbackHostHeader, presentedToken, tokenMatches } from './auth';
import type { Exchange, Forward, RequestSummary } from './exchange';
import { DEFAULT_ENDPOINT_LIMITS, RefusalReports, TIMEOUT_CHECK_INTERVAL_MS, type EndpointLimits } from './limits';
import { handleModel } from './models';
import { handleChatCompletions, handleModels } from './passthrough';
import { EndpointError, sendError, type Protocol } from './respond';

export { describeRequest, type Forward, type RequestSummary } from './exchange';

export const LOOPBACK_HOST = '127.0.0.1';

export interface LocalEndpointOptions extends Partial<EndpointLimits> {
  /** 0 picks a free port. */
  port: number;
  token: string;
  forward: Forward;
  onRequest?: (summary: RequestSummary) => void;
  /**
   * Around each POST (an answer, billed to the wallet), from before it is forwarded until its
   * response has closed: so that the spend of this window's own calls meanwhile is not measured
   * with this one's charge in it (billingWindows.ts). The endpoint itself measures no spend; the
   * window is closed with what was answered (a streamed answer is billed after its stream, so the
   * host may keep the window for a reading of the settled balance).
   */
  openBillingWindow?: () => Promise<{ close(answered: RequestSummary): void }>;
}

type Handler = (exchange: Exchange) => Promise<void>;

interface Route { protocol: Protocol; method: 'GET' | 'POST'; handler: Handler }

/** Both protocols use GET /v1/models: Anthropic clients say so with their version header. */
function route(req: IncomingMessage, pathname: string): Route | undefined {
  const anthropic = req.headers['anthropic-version'] !== undefined;
  switch (pathname) {
    case '/v1/chat/completions': return { protocol: 'openai', method: 'POST', handler: handleChatCompletions };
    case '/v1/messages': return { protocol: 'anthropic', method: 'POST', handler: handleMessages };
    case '/v1/models': return anthropic
      ? { protocol: 'anthropic', method: 'GET', handler: handleAnthropicModels }
      : { protocol: 'openai', method: 'GET', handler: handleModels };
    default: {
      const id = /^\/v1\/models\/([^/]+)$/.exec(pathname)?.[1];
      if (id === undefined) return undefined;
      return { protocol: anthropic ? 'anthropic' : 'openai', method: 'GET', handler: (exchange) => handleModel(exchange, decodeModelId(id)) };
    }
  }
}

/** The request target's path; undefined when it is no URL at all (`http://[`), which is answered 400, not dropped. */
function pathOf(target: string | undefined): string | undefined {
  try {
    return new URL(target ?? '/', 'http://local.invalid').pathname;
  } catch {
    return undefined;
  }
}

/** A path segment's model id; a malformed %-escape is the client's mistake, answered 400 like any other. */
function decodeModelId(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new EndpointError(400, 'invalid_model_id', 'The model id in the path has a malformed %-escape.');
  }
}

export class LocalEndpointServer {
  readonly #options: LocalEndpointOptions;
  readonly #limits: EndpointLimits;
  readonly #refusals: RefusalReports;
  readonly #server: http.Server;
  /** Requests in flight, aborted (with their upstream requests) when the endpoint stops. */
  readonly #inFlight = new Set<AbortController>();
  #port = 0;

  constructor(options: LocalEndpointOptions) {
    this.#options = options;
    this.#limits = { ...DEFAULT_ENDPOINT_LIMITS };
    for (const name of Object.keys(DEFAULT_ENDPOINT_LIMITS) as Array<keyof EndpointLimits>) {
      const value = options[name];
      if (value !== undefined) this.#limits[name] = value;
    }
    this.#refusals = new RefusalReports(this.#limits);
    this.#server = http.createServer({
      noDelay: true,
      headersTimeout: this.#limits.headersTimeoutMs,
      requestTimeout: this.#limits.requestTimeoutMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    }, (req, res) => {
      this.#handle(req, res).catch(() => res.destroy());
    });
    this.#server.maxConnections = this.#limits.maxConnections;
    this.#server.on('clientError', (_error, socket) => socket.destroy());
  }

  get port(): number {
    return this.#port;
  }

  get baseUrl(): string {
    return `http://${LOOPBACK_HOST}:${this.#port}`;
  }

  /** Listens on 127.0.0.1 only; rejects when the port is taken. */
  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(this.#options.port, LOOPBACK_HOST, () => {
        this.#server.off('error', reject);
        this.#port = (this.#server.address() as AddressInfo).port;
        resolve(this.#port);
      });
    });
  }

  /** Stops listening, aborts requests in flight (and so their upstream requests), closes every connection. */
  close(): Promise<void> {
    for (const controller of this.#inFlight) controller.abort();
    return new Promise((resolve) => {
      if (!this.#server.listening) {
        resolve();
        return;
      }
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    const started = performance.now();
    const pathname = pathOf(req.url);
    const found = pathname === undefined ? undefined : route(req, pathname);
    const protocol: Protocol = found?.protocol ?? (req.headers['anthropic-version'] !== undefined ? 'anthropic' : 'openai');
    const summary: RequestSummary = { method: req.method ?? '', path: pathname ?? '(not a URL path)', protocol, status: 0, stream: false, durationMs: 0, cancelled: false };
    const controller = new AbortController();
    this.#inFlight.add(controller);
    const admission = { authenticated: false };
    res.on('close', () => {
      if (!res.writableFinished) {
        summary.cancelled = true;
        controller.abort();
      }
      this.#inFlight.delete(controller);
      summary.durationMs = performance.now() - started;
      this.#report(summary, admission.authenticated);
    });
    try {
      if (pathname === undefined) throw new EndpointError(400, 'invalid_path', 'The request target is not a URL path.');
      this.#admit(req, found, admission);
      if (found.method === 'POST' && this.#options.openBillingWindow) {
        const billing = await this.#options.openBillingWindow();
        if (res.closed) billing.close(summary);
        else res.on('close', () => billing.close(summary));
      }
      await found.handler({
        req, res, signal: controller.signal, protocol, forward: this.#options.forward, summary,
        maxRequestBytes: this.#limits.maxRequestBytes, maxTranslatedBytes: this.#limits.maxTranslatedBytes, maxTokens: this.#limits.maxTokens,
      });
    } catch (error) {
      if (controller.signal.aborted) return;
      const failure = error instanceof EndpointError
        ? error
        : new EndpointError(500, 'local_endpoint_error', `The local endpoint failed: ${error instanceof Error ? error.message : String(error)}`);
      summary.status = failure.status;
      summary.problem = failure.message;
      if (res.headersSent) res.destroy();
      else sendError(res, protocol, failure);
    }
  }

  /** Refusals before authentication go through RefusalReports: anyone who found the port can send them. */
  #report(summary: RequestSummary, authenticated: boolean): void {
    if (!authenticated && summary.status >= 400) {
      const note = this.#refusals.next();
      if (note === undefined) return;
      if (note) summary.notes = [...(summary.notes ?? []), note];
    }
    this.#options.onRequest?.(summary);
  }

  /** Host, origin, route, token, method: refused in that order, before anything reaches the service. */
  #admit(req: IncomingMessage, found: Route | undefined, admission: { authenticated: boolean }): asserts found is Route {
    if (!isLoopbackHostHeader(req.headers.host)) {
      throw new EndpointError(403, 'host_not_allowed', 'The local endpoint answers only under 127.0.0.1, localhost or [::1].');
    }
    if (req.headers.origin !== undefined) {
      throw new EndpointError(403, 'browser_origin_refused', 'The local endpoint does not serve web pages (a request with an Origin header was refused).');
    }
    if (!found) throw new EndpointError(404, 'unknown_endpoint', 'The local endpoint serves GET /v1/models, GET /v1/models/{id}, POST /v1/chat/completions and POST /v1/messages.');
    if (!tokenMatches(presentedToken(req.headers), this.#options.token)) {
      throw new EndpointError(401, 'invalid_local_token', 'Wrong or missing token for the local endpoint: send the token shown by "Inference: Start Local Endpoint" as the API key (Authorization: Bearer or x-api-key).');
    }
    admission.authenticated = true;
    if (req.method !== found.method) {
      throw new EndpointError(405, 'method_not_allowed', `Use ${found.method} for this path.`, { allow: found.method });
    }
  }
}
