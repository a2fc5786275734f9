/**
 * The endpoint's protocols are modules the server loops over: a third one is answered, refused and
 * authenticated in its own terms by adding its module to the list, and the two shipped ones keep the
 * refusal texts they had when the server named them itself.
 */
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { createEndpointToken } from '../../../src/core/localEndpoint/auth';
import type { EndpointProtocol } from '../../../src/core/localEndpoint/protocol';
import { ENDPOINT_PROTOCOLS, LocalEndpointServer, type RequestSummary } from '../../../src/core/localEndpoint/server';
import { sendJson } from '../../../src/core/localEndpoint/respond';
import { bearer, rawRequest } from '../emulator/helpers';

const TOY_HEADER = 'x-toy-version';

/** A protocol of this test only: its own header, path, token place, error and model shapes. */
const toyProtocol: EndpointProtocol = {
  name: 'toy',
  claims: (req) => req.headers[TOY_HEADER] !== undefined,
  routes: [{
    method: 'POST', path: '/toy/{thing}',
    handle: (exchange, segment) => {
      exchange.summary.status = 201;
      sendJson(exchange.res, 201, { toyed: segment });
      return Promise.resolve();
    },
  }],
  token: { source: (headers: IncomingHttpHeaders) => (typeof headers['x-toy-token'] === 'string' ? headers['x-toy-token'] : undefined), described: 'x-toy-token' },
  errorBody: (status, message, code) => ({ toy_error: { status, message, code } }),
  sendServiceError: () => Promise.reject(new Error('the toy protocol never calls the service')),
  model: (model) => ({ toy_model: model.id }),
  extraHeaders: () => ({ 'x-toy': '1' }),
};

describe('local endpoint protocols as modules', () => {
  const token = createEndpointToken();
  const summaries: RequestSummary[] = [];
  let server: LocalEndpointServer;
  let origin: string;

  before(async () => {
    server = new LocalEndpointServer({
      port: 0, token, protocols: [...ENDPOINT_PROTOCOLS, toyProtocol], onRequest: (summary) => summaries.push(summary),
      forward: () => Promise.reject(new Error('no service in this test')),
    });
    await server.listen();
    origin = server.baseUrl;
  });
  after(() => server.close());
  beforeEach(() => summaries.splice(0));

  it('answers a third protocol\'s route with its token place, and logs the request under its name', async () => {
    const ok = await rawRequest(`${origin}/toy/blocks`, { headers: { 'x-toy-token': token }, body: {} });
    assert.equal(ok.status, 201);
    assert.deepEqual(JSON.parse(ok.text), { toyed: 'blocks' });
    assert.equal(summaries[0]?.protocol, 'toy');
  });

  it('refuses in the third protocol\'s error shape a request it claims, naming every route and token place', async () => {
    const unknown = await rawRequest(`${origin}/nowhere`, { headers: { [TOY_HEADER]: '1', 'x-toy-token': token } });
    assert.equal(unknown.status, 404);
    assert.deepEqual(JSON.parse(unknown.text), { toy_error: {
      status: 404, code: 'unknown_endpoint',
      message: 'The local endpoint serves GET /v1/models, GET /v1/models/{id}, POST /toy/{thing}, POST /v1/chat/completions and POST /v1/messages.',
    } });
    const wrong = await rawRequest(`${origin}/toy/blocks`, { headers: { 'x-toy-token': 'wrong' }, body: {} });
    assert.equal(wrong.status, 401);
    assert.match(wrong.text, /\(Authorization: Bearer or x-api-key or x-toy-token\)/);
    const method = await rawRequest(`${origin}/toy/blocks`, { headers: { 'x-toy-token': token } });
    assert.equal(method.status, 405);
    assert.equal(method.headers.allow, 'POST');
  });

  it('still answers a path another protocol serves in that protocol, whatever the claiming header says', async () => {
    const models = await rawRequest(`${origin}/v1/models/bad%ZZ`, { headers: { ...bearer(token), [TOY_HEADER]: '1' } });
    assert.equal(models.status, 400);
    assert.equal(JSON.parse(models.text).error.code, 'invalid_model_id');
    assert.equal(summaries[0]?.protocol, 'openai');
  });

  it('keeps the refusal texts of the shipped protocols', async () => {
    const shipped = new LocalEndpointServer({ port: 0, token, forward: () => Promise.reject(new Error('no service in this test')) });
    await shipped.listen();
    try {
      const unknown = await rawRequest(`${shipped.baseUrl}/nowhere`, { headers: bearer(token) });
      assert.equal(JSON.parse(unknown.text).error.message, 'The local endpoint serves GET /v1/models, GET /v1/models/{id}, POST /v1/chat/completions and POST /v1/messages.');
      const wrong = await rawRequest(`${shipped.baseUrl}/v1/messages`, { headers: { 'x-api-key': 'wrong', 'anthropic-version': '2023-06-01' }, body: {} });
      assert.equal(JSON.parse(wrong.text).error.message, 'Wrong or missing token for the local endpoint: send the token shown by "Inference: Start Local Endpoint" as the API key (Authorization: Bearer or x-api-key).');
    } finally {
      await shipped.close();
    }
  });
});
