/**
 * The local endpoint: a loopback-only HTTP server that lets other tools use the service through the
 * extension. Clients authenticate with the per-run token or a named one (namedTokens.ts); the service
 * key is added by `forward` and never reaches them. No CORS headers are ever sent, Host must be a loopback name, and a browser's cross-origin
 * request (it carries Origin) is refused, so a web page cannot use it. Knows nothing of VS Code.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicProtocol } from './anthropic';
import { isLoopbackHostHeader, presentedToken } from './auth';
import { DEFAULT_ENDPOINT_LIMITS, RefusalReports, TIMEOUT_CHECK_INTERVAL_MS, type EndpointLimits } from './limits';
import { identifyCaller, PER_RUN_CALLER, type EndpointCaller, type NamedToken } from './namedTokens';
import { openaiProtocol } from './openai';
import { describeRoutes, findRoute, type EndpointProtocol, type FoundRoute, type Forward, type RequestSummary } from './protocol';
import { EndpointError, sendJson } from './respond';

export { describeRequest } from './exchange';
export type { Forward, RequestSummary } from './protocol';

/** The protocols the endpoint speaks, each one module; the first answers what no protocol claims. */
export const ENDPOINT_PROTOCOLS: readonly EndpointProtocol[] = [openaiProtocol, anthropicProtocol];

export const LOOPBACK_HOST = '127.0.0.1';

export interface LocalEndpointOptions extends Partial<EndpointLimits> {
  /** 0 picks a free port. */
  port: number;
  /** The per-run token. */
  token: string;
  /** The named tokens accepted besides it, asked per request: a token revoked meanwhile is refused at once. */
  namedTokens?: () => readonly NamedToken[];
  forward: Forward;
  onRequest?: (summary: RequestSummary) => void;
  /**
   * Around each POST (an answer, billed to the wallet), from before it is forwarded until its
   * response has closed: so that the spend of this window's own calls meanwhile is not measured
   * with this one's charge in it (billingWindows.ts). The endpoint itself measures no spend; the
   * window is closed with what was answered (a streamed answer is billed after its stream, so the
   * host may keep the window for a reading of the settled balance).
   */
  openBillingWindow?: (caller: EndpointCaller) => Promise<{ close(answered: RequestSummary): void }>;
  /** The protocols served (ENDPOINT_PROTOCOLS unless a test brings its own). */
  protocols?: readonly EndpointProtocol[];
}

/** The request target's path; undefined when it is no URL at all (`http://[`), which is answered 400, not dropped. */
function pathOf(target: string | undefined): string | undefined {
  try {
    return new URL(target ?? '/', 'http://local.invalid').pathname;
  } catch {
    return undefined;
  }
}

interface Admission {
  authenticated: boolean;
  caller?: EndpointCaller;
}

export class LocalEndpointServer {
  readonly #options: LocalEndpointOptions;
  readonly #protocols: readonly EndpointProtocol[];
  readonly #limits: EndpointLimits;
  readonly #refusals: RefusalReports;
  readonly #server: http.Server;
  /** Requests in flight, aborted (with their upstream requests) when the endpoint stops. */
  readonly #inFlight = new Set<AbortController>();
  #port = 0;

  constructor(options: LocalEndpointOptions) {
    this.#options = options;
    this.#protocols = options.protocols ?? ENDPOINT_PROTOCOLS;
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
    const { protocol, found } = findRoute(this.#protocols, req, pathname);
    const summary: RequestSummary = { method: req.method ?? '', path: pathname ?? '(not a URL path)', protocol: protocol.name, status: 0, stream: false, durationMs: 0, cancelled: false };
    const controller = new AbortController();
    this.#inFlight.add(controller);
    const admission: Admission = { authenticated: false };
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
      const { caller, route } = this.#admit(req, found, admission);
      // A named token's name only (the log line says which tool it was); never the token.
      if (caller !== PER_RUN_CALLER) summary.token = caller.token.name;
      if (route.route.method === 'POST' && this.#options.openBillingWindow) {
        const billing = await this.#options.openBillingWindow(caller);
        if (res.closed) billing.close(summary);
        else res.on('close', () => billing.close(summary));
      }
      await route.route.handle({
        req, res, signal: controller.signal, protocol, forward: this.#options.forward, summary,
        maxRequestBytes: this.#limits.maxRequestBytes, maxTranslatedBytes: this.#limits.maxTranslatedBytes, maxTokens: this.#limits.maxTokens,
      }, route.segment);
    } catch (error) {
      if (controller.signal.aborted) return;
      const failure = error instanceof EndpointError
        ? error
        : new EndpointError(500, 'local_endpoint_error', `The local endpoint failed: ${error instanceof Error ? error.message : String(error)}`);
      summary.status = failure.status;
      summary.problem = failure.message;
      if (res.headersSent) res.destroy();
      else sendJson(res, failure.status, protocol.errorBody(failure.status, failure.message, failure.code, failure.type), failure.headers);
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
  #admit(req: IncomingMessage, found: FoundRoute | undefined, admission: Admission): { caller: EndpointCaller; route: FoundRoute } {
    if (!isLoopbackHostHeader(req.headers.host)) {
      throw new EndpointError(403, 'host_not_allowed', 'The local endpoint answers only under 127.0.0.1, localhost or [::1].');
    }
    if (req.headers.origin !== undefined) {
      throw new EndpointError(403, 'browser_origin_refused', 'The local endpoint does not serve web pages (a request with an Origin header was refused).');
    }
    if (!found) throw new EndpointError(404, 'unknown_endpoint', `The local endpoint serves ${describeRoutes(this.#protocols)}.`);
    // Every protocol's place for the token is accepted on every path; the list's order decides between two.
    const tokens = this.#protocols.map((protocol) => protocol.token);
    const caller = identifyCaller(presentedToken(req.headers, tokens.map((token) => token.source)), this.#options.token, this.#options.namedTokens?.() ?? []);
    if (!caller) {
      throw new EndpointError(401, 'invalid_local_token', `Wrong or missing token for the local endpoint: send the token shown by "Inference: Start Local Endpoint" as the API key (${tokens.map((token) => token.described).join(' or ')}).`);
    }
    admission.authenticated = true;
    admission.caller = caller;
    const { method } = found.route;
    if (req.method !== method) {
      throw new EndpointError(405, 'method_not_allowed', `Use ${method} for this path.`, { allow: method });
    }
    return { caller, route: found };
  }
}
