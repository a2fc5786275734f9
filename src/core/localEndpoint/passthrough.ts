/** The common chat-completions protocol, relayed: the client's bytes go up, the service's bytes come back. */
import { tokenLimitProblem } from './anthropicRequest';
import { isRecord } from './json';
import { forwardFor, type Exchange } from './exchange';
import { EndpointError, parseJson, readRequestBody, write } from './respond';

/** Relays the status, the allowed headers and the body as it arrives. */
export async function relay(exchange: Exchange, response: Awaited<ReturnType<typeof forwardFor>>, stream: boolean): Promise<void> {
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

export async function handleChatCompletions(exchange: Exchange): Promise<void> {
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
export async function handleModels(exchange: Exchange): Promise<void> {
  const response = await forwardFor(exchange, { endpoint: 'models', method: 'GET', path: '/models?type=chat&format=openai', accept: 'application/json' });
  await relay(exchange, response, false);
}
