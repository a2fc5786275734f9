/** What every protocol does with the service during one request, and what the endpoint reports about it afterwards. */
import { isApiError } from '../api/errors';
import { escapeControlCharacters } from '../logText';
import type { ForwardedResponse, ForwardRequest } from '../api/types';
import type { EndpointProtocol, Exchange, RequestSummary } from './protocol';
import { EndpointError } from './respond';

/** Forwards, recording the service's request id and model; a failure before any answer becomes an EndpointError. */
export async function forwardFor(exchange: Exchange, request: ForwardRequest): Promise<ForwardedResponse> {
  let response: ForwardedResponse;
  try {
    response = await exchange.forward(request, exchange.signal);
  } catch (error) {
    if (exchange.signal.aborted) throw error;
    if (!isApiError(error)) throw error;
    switch (error.kind) {
      case 'missingKey':
      case 'invalidKey':
      case 'notConfigured':
        throw new EndpointError(503, 'service_not_configured', `The local endpoint cannot call the service: ${error.message}`);
      case 'timeout':
        throw new EndpointError(504, 'upstream_timeout', error.message);
      default:
        throw new EndpointError(502, 'upstream_unreachable', error.message);
    }
  }
  if (response.meta.requestId !== undefined) exchange.summary.requestId = response.meta.requestId;
  if (response.meta.modelId !== undefined) exchange.summary.modelId = response.meta.modelId;
  return response;
}

/** The service's metadata headers for an answer the endpoint writes itself (its own content type is not the one sent). */
export function metadataHeaders(upstream: ForwardedResponse, protocol: EndpointProtocol): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(upstream.headers)) {
    if (name !== 'content-type') headers[name] = value;
  }
  return { ...headers, ...protocol.extraHeaders(upstream) };
}

/**
 * One log line per request: method, path, protocol, outcome. Never the token, the key or a body; and
 * one line only: what came from the client or the service cannot break it into a forged second one.
 */
export function describeRequest(s: RequestSummary): string {
  const outcome = s.cancelled ? 'cancelled by the client' : `HTTP ${s.status}`;
  return escapeControlCharacters([
    `local endpoint: ${s.method} ${s.path} (${s.protocol}${s.stream ? ', stream' : ''}) → ${outcome} in ${Math.round(s.durationMs)} ms`,
    s.requestId && `request ${s.requestId}`,
    s.modelId && `model ${s.modelId}`,
    s.token && `token "${s.token}"`,
    s.problem,
    ...(s.notes ?? []),
  ].filter(Boolean).join(', '));
}
