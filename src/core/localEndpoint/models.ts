/** GET /v1/models/{id} in both protocols: the service has no such path, so it is looked up in the chat model list. */
import { anthropicModel } from './anthropicResponse';
import { readModelList, sendServiceError } from './anthropic';
import { forwardFor, metadataHeaders, type Exchange } from './exchange';
import { relay } from './passthrough';
import { EndpointError, sendJson } from './respond';

export async function handleModel(exchange: Exchange, id: string): Promise<void> {
  const upstream = await forwardFor(exchange, { endpoint: 'models', method: 'GET', path: '/models?type=chat&format=openai', accept: 'application/json' });
  if (upstream.status >= 300) {
    return exchange.protocol === 'anthropic' ? sendServiceError(exchange, upstream) : relay(exchange, upstream, false);
  }
  const model = (await readModelList(exchange, upstream)).find((m) => m.id === id);
  if (!model) throw new EndpointError(404, 'model_not_found', `The model "${id}" is not a chat model of this environment: see GET /v1/models.`);
  exchange.summary.status = 200;
  const body = exchange.protocol === 'anthropic' ? anthropicModel(model) : model;
  sendJson(exchange.res, 200, body, metadataHeaders(upstream, exchange.protocol));
}
