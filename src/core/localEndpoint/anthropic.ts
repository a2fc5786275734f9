/** The Anthropic Messages protocol, translated to and from the service's chat completions. */
import { chunkEventReader } from '../api/chatStream';
import { redactSecrets } from '../api/redact';
import { describeErrorBody } from '../api/responseErrors';
import type { ForwardedResponse } from '../api/types';
import { apiKeyToken } from './auth';
import { AnthropicStreamTranslator, anthropicErrorBody, anthropicModel, anthropicModelList, completionToMessage } from './anthropicResponse';
import { anthropicToChat, TranslationError } from './anthropicRequest';
import { forwardFor, metadataHeaders } from './exchange';
import { isRecord } from '../json';
import { MODEL_LIST_REQUEST, MODEL_ROUTE, readModelList } from './models';
import type { EndpointProtocol, Exchange } from './protocol';
import { EndpointError, parseJson, readAll, readRequestBody, readUpstreamJson, sendJson, write } from './respond';

/** The service's error, in Anthropic's shape, with its status and Retry-After kept. */
async function sendServiceError(exchange: Exchange, upstream: ForwardedResponse): Promise<void> {
  const text = (await readAll(upstream.body, exchange.maxTranslatedBytes)).toString('utf8');
  // The forward removed the key; what is decoded here is checked again for anything like a credential.
  const { message, code } = describeErrorBody(text, upstream.headers['content-type'], (decoded) => redactSecrets(decoded));
  const detail = message ?? `The service answered HTTP ${upstream.status}.`;
  exchange.summary.status = upstream.status;
  sendJson(exchange.res, upstream.status, anthropicErrorBody(upstream.status, code ? `${detail} (${code})` : detail), metadataHeaders(upstream, exchange.protocol));
}

async function handleMessages(exchange: Exchange): Promise<void> {
  const body = parseJson(await readRequestBody(exchange.req, exchange.maxRequestBytes), 'The request body');
  let translated: ReturnType<typeof anthropicToChat>;
  try {
    translated = anthropicToChat(body, exchange.maxTokens);
  } catch (error) {
    if (error instanceof TranslationError) throw new EndpointError(400, 'untranslatable_request', error.message);
    throw error;
  }
  exchange.summary.stream = translated.stream;
  const upstream = await forwardFor(exchange, {
    endpoint: 'chat', method: 'POST', path: '/chat/completions',
    body: Buffer.from(JSON.stringify(translated.chat), 'utf8'), accept: translated.stream ? 'text/event-stream' : 'application/json',
  });
  if (upstream.status >= 300) return sendServiceError(exchange, upstream);
  const model = upstream.meta.modelId ?? translated.model;
  const isEventStream = (upstream.headers['content-type'] ?? '').includes('text/event-stream');
  if (!translated.stream) {
    const completion = await readUpstreamJson(upstream, exchange.maxTranslatedBytes);
    let message: Record<string, unknown>;
    try {
      message = completionToMessage(completion, model);
    } catch (error) {
      throw new EndpointError(502, 'malformed_upstream', error instanceof Error ? error.message : String(error));
    }
    exchange.summary.status = 200;
    return sendJson(exchange.res, 200, message, metadataHeaders(upstream, exchange.protocol));
  }
  await streamMessages(exchange, upstream, model, isEventStream);
}

/** message_start leaves as soon as the service's headers arrive; each chunk is translated as it comes. */
async function streamMessages(exchange: Exchange, upstream: ForwardedResponse, model: string, isEventStream: boolean): Promise<void> {
  const { res } = exchange;
  const translator = new AnthropicStreamTranslator(model);
  exchange.summary.status = 200;
  res.writeHead(200, { ...metadataHeaders(upstream, exchange.protocol), 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  await write(res, translator.start());
  if (!isEventStream) {
    // A service may answer a stream request with one completion: it becomes one short stream.
    const completion = await readUpstreamJson(upstream, exchange.maxTranslatedBytes);
    await write(res, translator.chunk(completion) + translator.chunk({ choices: [], usage: isRecord(completion) ? completion.usage : undefined }) + translator.finish());
    res.end();
    return;
  }
  let done = false;
  let out = '';
  const reader = chunkEventReader((event) => {
    if (done) return;
    if (event.kind === 'chunk') {
      out += translator.chunk(event.chunk);
      return;
    }
    done = true;
    if (event.kind === 'done') out += translator.finish();
    else if (event.kind === 'malformed') out += translator.error('api_error', 'The service sent a stream event that is not valid JSON.');
    else {
      const { message } = describeErrorBody(JSON.stringify({ error: event.error }), 'application/json', (decoded) => redactSecrets(decoded));
      out += translator.error('api_error', `The service reported an error during the answer: ${message ?? 'unknown error'}`);
    }
  });
  try {
    for await (const bytes of upstream.body) {
      reader.feed(bytes);
      if (out) await write(res, out);
      out = '';
      if (res.destroyed) break;
    }
  } finally {
    if (res.destroyed) upstream.discard();
  }
  if (res.destroyed) return;
  if (!done) {
    reader.end();
    out += translator.finished ? translator.finish() : translator.error('api_error', 'The service\'s stream ended before the answer was complete.');
  }
  await write(res, out);
  res.end();
}

async function handleModels(exchange: Exchange): Promise<void> {
  const upstream = await forwardFor(exchange, MODEL_LIST_REQUEST);
  if (upstream.status >= 300) return sendServiceError(exchange, upstream);
  const models = await readModelList(exchange, upstream);
  exchange.summary.status = 200;
  sendJson(exchange.res, 200, anthropicModelList(models), metadataHeaders(upstream, exchange.protocol));
}

export const anthropicProtocol: EndpointProtocol = {
  name: 'anthropic',
  // Its SDKs send their version header on every request: it tells their GET /v1/models from OpenAI's.
  claims: (req) => req.headers['anthropic-version'] !== undefined,
  routes: [
    { method: 'POST', path: '/v1/messages', handle: handleMessages },
    { method: 'GET', path: '/v1/models', handle: handleModels },
    MODEL_ROUTE,
  ],
  token: { source: apiKeyToken, described: 'x-api-key' },
  errorBody: (status, message, _code, type) => anthropicErrorBody(status, message, type),
  sendServiceError,
  model: anthropicModel,
  // Anthropic clients read the request id from `request-id`.
  extraHeaders: (upstream): Record<string, string> => {
    const requestId = upstream.headers['x-request-id'];
    return requestId === undefined ? {} : { 'request-id': requestId };
  },
};
