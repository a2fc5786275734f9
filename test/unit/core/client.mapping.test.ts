/** The client's logic over a fake transport: what it sends, and what each status, header and body means. */
import assert from 'node:assert/strict';
import { InferenceClient, type ClientOptions } from '../../../src/core/api/client';
import { type ApiErrorKind } from '../../../src/core/api/errors';
import type { ResponseMeta } from '../../../src/core/api/types';
import { FakeTransport, json, sse, type FakeReply } from '../fakes/transport';
import { drain, failure, HELLO } from './support';

const KEY = 'svc-Zq8AbCdEfGhIjKlMnOpQrStUvWxYz0123';
const BASE = 'https://api.example.com/api/v1';
const REQUEST = { model: 'm', messages: HELLO };

function clientOver(transport: FakeTransport, options: Partial<ClientOptions> = {}): InferenceClient {
  return new InferenceClient({ baseUrl: BASE, apiKey: KEY, keyPrefix: 'svc-', transport, userAgent: 'tests', ...options });
}

const serviceError = (status: number, message: string, code?: string, headers: Record<string, string> = {}): FakeReply =>
  json({ error: { message, ...(code && { code }) } }, status, { 'x-request-id': `req-${status}`, ...headers });

describe('InferenceClient over a fake transport: requests and error mapping', () => {
  it('sends each call to its path with the key, the accepted type and the JSON body the spec asks for', async () => {
    const transport = new FakeTransport().reply(json({ data: [] }), json({ choices: [{ message: { content: 'hi' } }] }), sse(['hi']));
    const client = clientOver(transport, { timeouts: { responseMs: 1234, idleMs: 567 } });
    await client.listModels({ type: 'text' });
    await client.chat({ ...REQUEST, temperature: 0.2 });
    await drain(client.streamChat(REQUEST));
    const [list, chat, stream] = transport.requests;
    assert.equal(list.method, 'GET');
    assert.equal(list.url, `${BASE}/models?format=openai&type=text`);
    assert.equal(list.body, undefined);
    assert.deepEqual(list.headers, { authorization: `Bearer ${KEY}`, accept: 'application/json', 'user-agent': 'tests' });
    assert.deepEqual(list.timeouts, { responseMs: 1234, idleMs: 567 });
    assert.equal(chat.url, `${BASE}/chat/completions`);
    assert.equal(chat.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(String(chat.body)), { ...REQUEST, temperature: 0.2, stream: false });
    assert.equal(stream.headers.accept, 'text/event-stream');
    assert.equal(JSON.parse(String(stream.body)).stream, true);
  });

  it('refuses a missing key and a key without the configured prefix before sending anything', async () => {
    const transport = new FakeTransport();
    assert.equal((await failure(clientOver(transport, { apiKey: undefined }).listModels())).kind, 'missingKey');
    const wrongPrefix = await failure(clientOver(transport, { apiKey: 'nope-123' }).listModels());
    assert.equal(wrongPrefix.kind, 'invalidKey');
    assert.match(wrongPrefix.message, /prefix "svc-"/);
    assert.equal(transport.requests.length, 0, 'nothing was sent');
  });

  const statuses: Array<[string, FakeReply, ApiErrorKind, number]> = [
    ['400', serviceError(400, 'Bad value for temperature.'), 'badRequest', 400],
    ['401', serviceError(401, 'The API key is expired.', 'invalid_api_key'), 'unauthorized', 401],
    ['402', serviceError(402, 'Insufficient credits.', undefined, { 'x-service-balance-credits': '0' }), 'insufficientCredits', 402],
    ['403', serviceError(403, 'Not allowed.'), 'forbidden', 403],
    ['404 (the service\'s JSON)', serviceError(404, 'Unknown model m.', 'model_not_found'), 'modelNotFound', 404],
    ['429', serviceError(429, 'Too many requests.', undefined, { 'retry-after': '7' }), 'rateLimited', 429],
    ['500', serviceError(500, 'Internal error.'), 'server', 500],
    ['503', serviceError(503, 'Overloaded.'), 'server', 503],
    ['500 (an HTML page)', { status: 500, headers: { 'content-type': 'text/html', 'x-request-id': 'req-500' }, body: ['<html><head><title>500 Internal Server Error</title></head><body><h1>Oops</h1></body></html>'] }, 'server', 500],
    ['502 (plain text)', { status: 502, headers: { 'content-type': 'text/plain', 'x-request-id': 'req-502' }, body: ['Bad gateway: upstream closed'] }, 'server', 502],
    ['418', serviceError(418, 'Teapot.'), 'http', 418],
  ];
  for (const [name, reply, kind, status] of statuses) {
    it(`maps ${name} on chat to ${kind}, keeping status, the service's message and the request id`, async () => {
      const error = await failure(clientOver(new FakeTransport().reply(reply)).chat(REQUEST));
      assert.equal(error.kind, kind);
      assert.equal(error.status, status);
      assert.ok(error.serviceMessage, 'the service message survives any body shape');
      assert.doesNotMatch(error.serviceMessage ?? '', /<[a-z]/i, 'no raw HTML in the message');
      assert.equal(error.requestId, `req-${status}`);
    });
  }

  it('keeps what the headers say: the balance of a 402 (never retryable), the Retry-After of a 429', async () => {
    const broke = await failure(clientOver(new FakeTransport().reply(statuses[2][1])).chat(REQUEST));
    assert.equal(broke.meta?.balanceCredits, 0);
    assert.equal(broke.retryable, false);
    assert.match(broke.message, /credits/);
    const limited = await failure(clientOver(new FakeTransport().reply(statuses[5][1])).chat(REQUEST));
    assert.equal(limited.retryAfterSeconds, 7);
  });

  it('a 404 that is not the service\'s JSON, or any 404 on the model list, points at the base URL', async () => {
    const page = await failure(clientOver(new FakeTransport().reply({ status: 404, headers: { 'content-type': 'text/html' }, body: ['<title>404 Not Found</title>'] })).chat(REQUEST));
    assert.equal(page.kind, 'notFound');
    assert.match(page.message, /the base URL may be wrong/);
    const list = await failure(clientOver(new FakeTransport().reply(serviceError(404, 'Unknown model m.'))).listModels());
    assert.equal(list.kind, 'notFound');
  });

  it('a redirect is an error naming where it pointed (by origin), and nothing is sent there', async () => {
    const transport = new FakeTransport().reply({ status: 308, headers: { location: 'https://elsewhere.example:8443/api/v1/models?key=x' } });
    const error = await failure(clientOver(transport).listModels());
    assert.equal(error.kind, 'redirected');
    assert.match(error.message, /HTTP 308 to https:\/\/elsewhere\.example:8443\)/);
    assert.equal(transport.requests.length, 1);
  });

  it('reads the spec\'s headers into the metadata of every response, and reports errors through onResponse too', async () => {
    const headers = { 'x-request-id': 'req-1', 'x-service-model-id': 'm-2', 'x-service-balance-credits': '12.5', 'x-ratelimit-limit-requests': '60' };
    const seen: number[] = [];
    const transport = new FakeTransport().reply(json({ data: [{ id: 'a', object: 'model' }, { object: 'model' }] }, 200, headers), serviceError(402, 'No credits.'));
    const client = clientOver(transport, { onResponse: (meta) => seen.push(meta.status) });
    const before = Date.now();
    const list = await client.listModels();
    assert.deepEqual(list.models.map((m) => m.id), ['a'], 'an entry without an id is left out');
    assert.ok(list.meta.sentAt !== undefined && list.meta.sentAt >= before && list.meta.sentAt <= list.meta.receivedAt, 'when the request left, before its answer arrived');
    assert.deepEqual({ ...list.meta, receivedAt: 0, sentAt: 0 }, { status: 200, receivedAt: 0, sentAt: 0, requestId: 'req-1', modelId: 'm-2', balanceCredits: 12.5, rateLimitRequests: 60, host: 'https://api.example.com' });
    await failure(client.chat(REQUEST));
    assert.deepEqual(seen, [200, 402]);
  });

  it('redacts header values it reports (request id, model id) and HTML or text bodies that echo the key', async () => {
    const seen: ResponseMeta[] = [];
    const echo: FakeReply = {
      status: 500,
      headers: { 'content-type': 'text/html', 'x-request-id': `req-Bearer ${KEY}`, 'x-service-model-id': KEY },
      body: [`<html><head><title>Upstream said Bearer ${KEY}</title></head></html>`],
    };
    const error = await failure(clientOver(new FakeTransport().reply(echo), { onResponse: (meta) => seen.push(meta) }).listModels());
    assert.equal(error.kind, 'server');
    assert.match(error.message, /Upstream said Bearer \[redacted\]/);
    assert.equal(seen[0].requestId, 'req-Bearer [redacted]');
    const everything = `${error.message} ${JSON.stringify(error)} ${JSON.stringify(seen)}`;
    assert.equal(everything.includes(KEY.slice(4)), false);
  });

  it('redacts a key that a JSON error body spells in \\u escapes, in the message it shows and logs, streamed or not', async () => {
    const escaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const echo = (): FakeReply => ({ status: 401, headers: { 'content-type': 'application/json' }, body: [`{"error":{"message":"unknown key ${escaped}","code":"Bearer ${escaped}"}}`] });
    const client = clientOver(new FakeTransport().reply(echo(), echo()));
    const streamed = await failure(drain(client.streamChat(REQUEST)).then((outcome) => { throw outcome.error; }));
    for (const error of [streamed, await failure(client.chat(REQUEST))]) {
      assert.equal(error.kind, 'unauthorized');
      assert.match(error.message, /unknown key \[redacted\]/);
      const everything = `${error.message} ${error.serviceMessage ?? ''} ${error.serviceCode ?? ''} ${JSON.stringify(error)}`;
      assert.equal(everything.includes(KEY.slice(4)), false);
    }
  });

  it('says which kind of model list it got when "data" is missing', async () => {
    const error = await failure(clientOver(new FakeTransport().reply(json({ models: [] }))).listModels());
    assert.equal(error.kind, 'malformedResponse');
  });
});
