import type { HostHealth } from './hostHealth';
import { responseHeader, TransportFailure, type HostFailure, type Transport, type TransportRequest, type TransportResponse } from './transport';

/**
 * One environment's equivalent hosts (spec: "all of them serve the same paths and are equivalent")
 * behind one Transport. A request goes to the host HostHealth puts first and moves on to the next only
 * where the service cannot have billed it:
 * - nothing reached the host (DNS, refused, TLS, connect timeout: the connection never took the request);
 * - the connection failed before the request body was fully sent (the service never had a request to run);
 * - a GET (the model list), which is never billed;
 * - 502/503/504, or another 5xx that is not JSON (an edge's page, not the service's answer), seen before
 *   any body byte is read.
 * Never on any other status (401/402/403/404/429 are answers about the account or the request, the same
 * on every host), never once a body is being read (a stream cut mid-answer stays interrupted), never when
 * the request was cancelled. The order and the set-aside hosts are HostHealth's.
 */

export interface Failover {
  from: string;
  to: string;
  reason: string;
}

/** The `cause` of the TransportFailure when every host failed without an answer: each host's error. */
export class AllHostsFailed extends Error {
  constructor(readonly failures: readonly HostFailure[], options: { cause: unknown }) {
    super(failures.map(({ origin, reason }) => `${origin}: ${reason}`).join('; '), options);
    this.name = 'AllHostsFailed';
  }
}

export interface FailoverOptions {
  /** Consulted and updated by every request; its origins are the hosts, in the user's order. */
  health: HostHealth;
  /** Each time a request moves on to another host. */
  onFailover?: (failover: Failover) => void;
}

/** Statuses an edge or load balancer answers when the host behind it is down, whatever the service would say. */
const EDGE_STATUSES = new Set([502, 503, 504]);

/** Connection errors that only happen before a request is written: the host cannot have received it. */
const NEVER_RECEIVED = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT)$|CERT|SELF_SIGNED|UNABLE_TO_VERIFY|^ERR_TLS/;

function causeCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string') codes.push(code);
    current = cause;
  }
  return codes;
}

function bodyLength(body: TransportRequest['body']): number {
  if (body === undefined) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

/** Whether a failed send can have been billed; false means another host may be tried. */
function mayHaveReachedService(request: TransportRequest, failure: TransportFailure): boolean {
  const { progress } = failure;
  if (progress.responseStarted) return true;
  if (!progress.requestStarted || request.method === 'GET') return false;
  if (request.body !== undefined && progress.bodyBytesSent < bodyLength(request.body)) return false;
  return !causeCodes(failure.cause).some((code) => NEVER_RECEIVED.test(code));
}

function describeFailure(error: unknown): string {
  const codes = causeCodes(error instanceof TransportFailure ? error.cause : error);
  if (codes.length > 0) return codes[0];
  return error instanceof Error ? error.message : String(error);
}

/** An edge's answer (see above): the service's own 5xx is JSON and is the service's answer. */
function isEdgeAnswer(response: TransportResponse): boolean {
  if (EDGE_STATUSES.has(response.status)) return true;
  return response.status >= 500 && !responseHeader(response.headers, 'content-type').includes('json');
}

function edgeReason(response: TransportResponse): string {
  const type = responseHeader(response.headers, 'content-type').split(';')[0];
  return type ? `HTTP ${response.status} (${type})` : `HTTP ${response.status}`;
}

export class FailoverTransport implements Transport {
  readonly #origins: string[];

  readonly #inner: Transport;
  readonly #options: FailoverOptions;

  constructor(inner: Transport, options: FailoverOptions) {
    this.#inner = inner;
    this.#options = options;
    this.#origins = options.health.origins;
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    const path = this.#pathOf(request.url);
    // Not addressed to one of this environment's hosts (a probe of an address being added): as it is.
    if (path === undefined) return this.#inner.send(request);
    const turns = this.#options.health.plan();
    const failures: HostFailure[] = [];
    // plan() names at least one host, and the last one tried returns or throws.
    for (let index = 0; ; index++) {
      const turn = turns[index];
      const last = index === turns.length - 1;
      const next = () => this.#options.onFailover?.({ from: turn.origin, to: turns[index + 1].origin, reason: failures[failures.length - 1].reason });
      let response: TransportResponse;
      try {
        response = await this.#inner.send({ ...request, url: turn.origin + path });
      } catch (error) {
        const reached = !request.signal?.aborted && error instanceof TransportFailure && mayHaveReachedService(request, error);
        if (reached) error.mayHaveReachedService = true;
        if (request.signal?.aborted || !(error instanceof TransportFailure) || reached) {
          turn.released();
          throw error;
        }
        const reason = describeFailure(error);
        turn.failed(reason);
        failures.push({ origin: turn.origin, reason });
        if (last) {
          const everyHost = this.#withSetAside(failures, turns);
          throw everyHost.length > 1 ? new TransportFailure(error.progress, { cause: new AllHostsFailed(everyHost, { cause: error.cause }) }) : error;
        }
        next();
        continue;
      }
      if (isEdgeAnswer(response)) {
        turn.failed(edgeReason(response));
        failures.push({ origin: turn.origin, reason: edgeReason(response) });
        if (!last) {
          response.body.cancel();
          next();
          continue;
        }
        return { ...response, route: { origin: turn.origin, failures: this.#withSetAside(failures, turns) } };
      } else if (response.status < 500) {
        turn.succeeded();
      } else {
        turn.released();
      }
      return { ...response, route: { origin: turn.origin, failures } };
    }
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /**
   * This request's failures, and the hosts it did not try because they are set aside after failing,
   * with the reason they failed then, in the user's order: one message then says why no host answered,
   * wherever the request came from (the chat panel's first request tried every host; the model list
   * right after it tries the one whose backoff ends first).
   */
  #withSetAside(failures: readonly HostFailure[], turns: readonly { origin: string }[]): HostFailure[] {
    const untried = this.#options.health.states()
      .filter((host) => host.lastError !== undefined && host.failures > 0 && !turns.some((turn) => turn.origin === host.origin))
      .map((host) => ({ origin: host.origin, reason: host.lastError!, setAside: true }));
    return [...failures, ...untried].sort((a, b) => this.#origins.indexOf(a.origin) - this.#origins.indexOf(b.origin));
  }

  /** The request's path below its origin when that origin is one of the hosts, else undefined. */
  #pathOf(url: string): string | undefined {
    for (const origin of this.#origins) {
      if (url.startsWith(origin) && (url.length === origin.length || url[origin.length] === '/')) return url.slice(origin.length);
    }
    return undefined;
  }
}
