/**
 * What one client protocol of the local endpoint is: everything the server needs to know about it, so
 * that the server loops over a list (protocols.ts) instead of asking which protocol it is. A protocol
 * is one file that exports one of these.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ForwardedResponse, ForwardRequest, Model } from '../api/types';
import type { TokenSource } from './auth';

/** Sends one request to the active environment with its key (the host's InferenceClient.forward). */
export type Forward = (request: ForwardRequest, signal: AbortSignal) => Promise<ForwardedResponse>;

/** One line of the log: never the token, the key, or a body. */
export interface RequestSummary {
  method: string;
  path: string;
  /** The name of the protocol it was answered in. */
  protocol: string;
  status: number;
  stream: boolean;
  durationMs: number;
  /** The client went away before the answer ended; the upstream request was aborted. */
  cancelled: boolean;
  requestId?: string;
  modelId?: string;
  /** The name of the endpoint token the client used (never the token). */
  token?: string;
  /** Why the endpoint refused or failed the request, in words. */
  problem?: string;
  /** What else the log line says (refusals not logged; model entries skipped). */
  notes?: string[];
}

/** What a protocol's route gets for one request. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** Aborted when the client disconnects or the endpoint stops: aborts the upstream request too. */
  signal: AbortSignal;
  protocol: EndpointProtocol;
  forward: Forward;
  summary: RequestSummary;
  maxRequestBytes: number;
  maxTranslatedBytes: number;
  /** The largest `max_tokens` relayed (EndpointLimits.maxTokens). */
  maxTokens: number;
}

export interface ProtocolRoute {
  method: 'GET' | 'POST';
  /** The path as clients call it, also as the refusal of an unknown path lists it (`/v1/models/{id}`). */
  path: string;
  /** What the path's `{…}` segment held, still %-escaped; empty for a path without one. */
  handle(exchange: Exchange, segment: string): Promise<void>;
}

export interface EndpointProtocol {
  /** Its name in the log line. */
  name: string;
  /**
   * Whether a request says it is in this protocol (a header its clients always send). Decides a path that
   * several protocols serve, and the error shape before any route is known. A request that no protocol
   * claims is in the first protocol of the list.
   */
  claims(req: IncomingMessage): boolean;
  routes: readonly ProtocolRoute[];
  /** Where its clients put the endpoint's token, and how the refusal of a wrong one names that place. */
  token: { source: TokenSource; described: string };
  /** The body of the endpoint's own error, as its clients' SDKs expect it so that they raise their usual errors. */
  errorBody(status: number, message: string, code: string, type?: string): unknown;
  /** The service's error answer (status ≥ 300) as its clients get it. */
  sendServiceError(exchange: Exchange, upstream: ForwardedResponse): Promise<void>;
  /** One usable entry of the service's chat model list, as its clients expect a model (GET /v1/models/{id}). */
  model(model: Model): unknown;
  /** Headers it adds to an answer the endpoint writes itself, from the service's (besides the service's own). */
  extraHeaders(upstream: ForwardedResponse): Record<string, string>;
}

/** A route's path as a pattern: a `{…}` segment matches one non-empty path segment. */
function matchPath(pattern: string, pathname: string): string | undefined {
  const [prefix, suffix] = pattern.split(/\{[^}]+\}/);
  if (suffix === undefined) return pattern === pathname ? '' : undefined;
  if (!pathname.startsWith(prefix) || !pathname.endsWith(suffix)) return undefined;
  const segment = pathname.slice(prefix.length, pathname.length - suffix.length);
  return segment.length > 0 && !segment.includes('/') ? segment : undefined;
}

export interface FoundRoute { protocol: EndpointProtocol; route: ProtocolRoute; segment: string }

/**
 * The protocol a request is answered in and, when its path is served, the route: the protocol that
 * claims the request (else the first) is asked first, then the others in order, so a path only one
 * protocol serves is answered in that protocol whatever the headers say.
 */
export function findRoute(protocols: readonly EndpointProtocol[], req: IncomingMessage, pathname: string | undefined): { protocol: EndpointProtocol; found?: FoundRoute } {
  const preferred = protocols.find((protocol) => protocol.claims(req)) ?? protocols[0];
  if (pathname === undefined) return { protocol: preferred };
  for (const protocol of [preferred, ...protocols.filter((other) => other !== preferred)]) {
    for (const route of protocol.routes) {
      const segment = matchPath(route.path, pathname);
      if (segment !== undefined) return { protocol, found: { protocol, route, segment } };
    }
  }
  return { protocol: preferred };
}

/** Every served path, for the refusal of an unknown one: GET before POST, then by path. */
export function describeRoutes(protocols: readonly EndpointProtocol[]): string {
  const routes = [...new Set(protocols.flatMap((protocol) => protocol.routes.map((route) => `${route.method} ${route.path}`)))].sort();
  return routes.length > 1 ? `${routes.slice(0, -1).join(', ')} and ${routes.at(-1) ?? ''}` : routes.join('');
}
