/**
 * The common chat-completions protocol (OpenAI's), relayed: the client's bytes go up, the service's
 * bytes come back. The first protocol of the list: a request no protocol claims is answered in it.
 */
import type { ForwardedResponse } from '../api/types';
import { bearerToken } from './auth';
import { tokenLimitProblem } from './anthropicRequest';
import { forwardFor } from './exchange';
import { isRecord } from '../json';
import { MODEL_LIST_REQUEST, MODEL_ROUTE } from './models';
import type { EndpointProtocol, Exchange } from './protocol';
import { EndpointError, parseJson, readRequestBody, write } from './respond';

/** Relays the status, the allowed headers and the body as it arrives. */
export async function relay(exchange: Exchange, response: ForwardedResponse, stream: boolean): Promise<void> {
  const { res } = exchange;
  exchange.summary.status = response.status;
  res.writeHead(response.status, { ...response.headers, ...(stream && { 'cache-control': 'no-cache' }) });
  res.flushHeaders();
  try {
    for await (const chunk of response.body) {
      await write(res, chunk);
      if (res.destroyed) break;
    }
  } finally {
    if (res.destroyed) response.discard();
  }
  if (!res.destroyed) res.end();
}

async function handleChatCompletions(exchange: Exchange): Promise<void> {
  const raw = await readRequestBody(exchange.req, exchange.maxRequestBytes);
  const body = parseJson(raw, 'The request body');
  if (!isRecord(body)) throw new EndpointError(400, 'invalid_body', 'The request body must be a JSON object.');
  // The body is relayed as it came: a token limit no model can use (1e308) is refused here, not forwarded.
  for (const field of ['max_tokens', 'max_completion_tokens']) {
    const problem = tokenLimitProblem(field, body[field], exchange.maxTokens);
    if (problem) throw new EndpointError(400, 'invalid_max_tokens', problem);
  }
  const stream = body.stream === true;
  exchange.summary.stream = stream;
  const response = await forwardFor(exchange, {
    endpoint: 'chat', method: 'POST', path: '/chat/completions', body: raw, accept: stream ? 'text/event-stream' : 'application/json',
  });
  await relay(exchange, response, stream && response.status < 300);
}

/** The environment's chat models, as the service lists them. */
async function handleModels(exchange: Exchange): Promise<void> {
  const response = await forwardFor(exchange, MODEL_LIST_REQUEST);
  await relay(exchange, response, false);
}

export const openaiProtocol: EndpointProtocol = {
  name: 'openai',
  // Its clients send nothing that says so: it is the protocol of whatever no other protocol claims.
  claims: () => false,
  routes: [
    { method: 'POST', path: '/v1/chat/completions', handle: handleChatCompletions },
    { method: 'GET', path: '/v1/models', handle: handleModels },
    MODEL_ROUTE,
  ],
  token: { source: bearerToken, described: 'Authorization: Bearer' },
  errorBody: (status, message, code, type) => ({
    error: { message, type: type ?? (status === 401 ? 'authentication_error' : status < 500 ? 'invalid_request_error' : 'server_error'), code },
  }),
  // The service's own error body is in this protocol already: relayed as it came.
  sendServiceError: (exchange, upstream) => relay(exchange, upstream, false),
  model: (model) => model,
  extraHeaders: () => ({}),
};
