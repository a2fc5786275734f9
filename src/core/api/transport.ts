/**
 * What the client needs from HTTP, and nothing more: send one request, get its status, headers and
 * body as a stream. `undiciTransport.ts` is the real one; tests use a fake (test/unit/fakes/transport.ts),
 * so the client's logic runs without sockets. A transport that tries several hosts can wrap another:
 * a failure says how far the request got (`TransportFailure.progress`), so it knows whether a retry
 * elsewhere could run the request twice.
 */

export interface Timeouts {
  /** TCP + TLS connection set-up. */
  connectMs: number;
  /** Until the response headers arrive: long generations are normal, so this is generous. */
  responseMs: number;
  /** Longest silence between two pieces of a response body (streams included). */
  idleMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = {
  connectMs: 30_000,
  responseMs: 600_000,
  idleMs: 300_000,
};

export function resolveTimeouts(partial: Partial<Timeouts> = {}): Timeouts {
  return { ...DEFAULT_TIMEOUTS, ...partial };
}

export interface TransportRequest {
  /** Absolute. A transport never follows a redirect: the key must not go where the service points. */
  url: string;
  method: 'GET' | 'POST';
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
  body?: string | Uint8Array;
  /** Aborting rejects a pending send and ends a body being read; the connection is closed. */
  signal?: AbortSignal;
  /** The connection's own set-up time is the transport's (`connectMs`); these are per request. */
  timeouts: Pick<Timeouts, 'responseMs' | 'idleMs'>;
}

/** Lower-case names; a repeated header is an array. */
export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface ResponseBody extends AsyncIterable<Uint8Array> {
  /** Stops reading and closes the connection (a stream left early). Safe at any time, more than once. */
  cancel(): void;
  /** Reads and drops what is left, up to `limitBytes` (else closes), so that the connection can serve again. */
  drain(limitBytes: number): Promise<void>;
}

/** Why a host was left for another (failoverTransport.ts), as the log and an error tell it. */
export interface HostFailure {
  origin: string;
  reason: string;
  /** Not tried by this request: set aside after failing so (its reason is from then). */
  setAside?: boolean;
}

/** Which of an environment's hosts served a response, and those that failed before it (set by a failover transport). */
export interface Route {
  origin: string;
  failures: readonly HostFailure[];
}

export interface TransportResponse {
  status: number;
  headers: ResponseHeaders;
  body: ResponseBody;
  route?: Route;
}

/** How far a request got before it failed. */
export interface TransportProgress {
  /** A connection took the request: some of it may have reached the host. False: nothing left this machine. */
  requestStarted: boolean;
  /** Bytes of the request body handed to the connection. */
  bodyBytesSent: number;
  /** Some of a response arrived (its status line at least). */
  responseStarted: boolean;
}

export const NOTHING_SENT: Readonly<TransportProgress> = { requestStarted: false, bodyBytesSent: 0, responseStarted: false };

/**
 * Why `send` rejected, with how far the request got. `cause` is the underlying error (its codes decide
 * what the user is told, see transportErrors.ts); errors while reading a body are never wrapped, as
 * the response had started by then.
 */
export class TransportFailure extends Error {
  /**
   * Set by the failover transport when it tried no other host because the request may have reached
   * this one, and been billed: what the user is told then is not "could not reach".
   */
  mayHaveReachedService = false;

  constructor(readonly progress: Readonly<TransportProgress>, options: { cause: unknown }) {
    super('The request failed before its response arrived', options);
    this.name = 'TransportFailure';
  }
}

/**
 * The `code` of a TransportFailure's cause when a proxy refused to open the tunnel (407 asking for
 * credentials, 403, 502 …); its `status` is the proxy's answer. Nothing reached the service.
 */
export const PROXY_REFUSED = 'PROXY_REFUSED';

export interface Transport {
  /** Resolves when the response headers arrived; rejects with a TransportFailure. */
  send(request: TransportRequest): Promise<TransportResponse>;
  /** Releases its connections; requests in flight finish first. */
  close(): Promise<void>;
}

/** The first value of a response header, or ''. */
export function responseHeader(headers: ResponseHeaders, name: string): string {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}
