/**
 * The chat model list, read the same way in every protocol, and GET /v1/models/{id}: the service has
 * no such path, so the model is looked up in the list and written in the client's protocol.
 */
import { readModelEntries } from '../api/modelEntries';
import type { ForwardedResponse, ForwardRequest, Model } from '../api/types';
import { forwardFor, metadataHeaders } from './exchange';
import { isRecord } from '../json';
import type { Exchange, ProtocolRoute } from './protocol';
import { EndpointError, readUpstreamJson, sendJson } from './respond';

/** The service's chat models, in the common format. */
export const MODEL_LIST_REQUEST: ForwardRequest = { endpoint: 'models', method: 'GET', path: '/models?type=chat&format=openai', accept: 'application/json' };

/** The usable entries of the service's chat model list; the others are skipped and named in the request's log line. */
export async function readModelList(exchange: Exchange, upstream: ForwardedResponse): Promise<Model[]> {
  const list = await readUpstreamJson(upstream, exchange.maxTranslatedBytes);
  const { models, skipped } = readModelEntries(isRecord(list) && Array.isArray(list.data) ? list.data : []);
  if (skipped.length > 0) exchange.summary.notes = [...(exchange.summary.notes ?? []), ...skipped];
  return models;
}

/** A path segment's model id; a malformed %-escape is the client's mistake, answered 400 like any other. */
function decodeModelId(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new EndpointError(400, 'invalid_model_id', 'The model id in the path has a malformed %-escape.');
  }
}

async function handleModel(exchange: Exchange, segment: string): Promise<void> {
  const id = decodeModelId(segment);
  const upstream = await forwardFor(exchange, MODEL_LIST_REQUEST);
  if (upstream.status >= 300) return exchange.protocol.sendServiceError(exchange, upstream);
  const model = (await readModelList(exchange, upstream)).find((m) => m.id === id);
  if (!model) throw new EndpointError(404, 'model_not_found', `The model "${id}" is not a chat model of this environment: see GET /v1/models.`);
  exchange.summary.status = 200;
  sendJson(exchange.res, 200, exchange.protocol.model(model), metadataHeaders(upstream, exchange.protocol));
}

/** GET /v1/models/{id}, which every protocol serves with its own model shape. */
export const MODEL_ROUTE: ProtocolRoute = { method: 'GET', path: '/v1/models/{id}', handle: handleModel };
