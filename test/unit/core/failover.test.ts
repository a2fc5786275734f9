import assert from 'node:assert/strict';
import { InferenceClient } from '../../../src/core/api/client';
import { ApiError } from '../../../src/core/api/errors';
import { FailoverTransport, type Failover } from '../../../src/core/api/failoverTransport';
import { HostHealth } from '../../../src/core/api/hostHealth';
import { FakeHosts, json, socketError, sse, type FakeReply } from '../fakes/transport';
import { drain } from './support';

const A = 'https://a.example';
const B = 'https://b.example';
const KEY = 'sk-test-key-0123456789';
const MODELS = json({ object: 'list', data: [{ id: 'm', object: 'model' }] });

/** Two hosts behind a failover transport on a manual clock; the client is set up with the primary's base URL. */
function setup(origins = [A, B]) {
  let now = 1_000_000;
  const hosts = new FakeHosts(origins, MODELS);
  const health = new HostHealth(origins, () => now, { firstMs: 1_000, longestMs: 8_000 });
  const failovers: Failover[] = [];
  const transport = new FailoverTransport(hosts, { health, onFailover: (failover) => failovers.push(failover) });
  const client = new InferenceClient({ baseUrl: `${origins[0]}/api/v1`, apiKey: KEY, transport });
  return { hosts, health, failovers, client, advance: (ms: number) => { now += ms; } };
}

const chat = (client: InferenceClient) => client.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
const CHAT_OK = json({ choices: [{ message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] }, 200, { 'x-request-id': 'r-1' });
const POST_BODY_BYTES = Buffer.byteLength(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: false }));

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    return error;
  }
  return assert.fail('expected a failure');
}

describe('Failover between equivalent hosts', () => {
  const causes: Array<[string, FakeReply]> = [
    ['a refused connection', { fail: socketError('ECONNREFUSED') }],
    ['a DNS failure', { fail: socketError('ENOTFOUND') }],
    ['a TLS failure', { fail: socketError('ERR_TLS_CERT_ALTNAME_INVALID') }],
    ['a connect timeout', { fail: socketError('UND_ERR_CONNECT_TIMEOUT') }],
    ['a reset before the body was sent', { fail: socketError('ECONNRESET'), failProgress: { requestStarted: true, bodyBytesSent: 0 } }],
    ['a refused connection reported after the connection took the request', { fail: socketError('ECONNREFUSED'), failProgress: { requestStarted: true, bodyBytesSent: POST_BODY_BYTES } }],
    ['an edge 502', { status: 502, headers: { 'content-type': 'text/html' }, body: ['<html>bad gateway</html>'] }],
    ['a 503', { status: 503, headers: { 'content-type': 'application/json' }, body: ['{"error":{"message":"overloaded"}}'] }],
    ['a 504', { status: 504, body: [] }],
    ['a 500 page that is not the service\'s JSON', { status: 500, headers: { 'content-type': 'text/html' }, body: ['<h1>oops</h1>'] }],
  ];
  for (const [name, reply] of causes) {
    it(`moves a chat request to the next host after ${name}: one request per host`, async () => {
      const { hosts, client, failovers } = setup();
      hosts.hosts[A].reply(reply);
      hosts.hosts[B].reply(CHAT_OK);
      const result = await chat(client);
      assert.equal(result.text, 'ok');
      assert.deepEqual(hosts.counts(), [1, 1]);
      assert.equal(result.meta.host, B, 'the answer names the host that served');
      assert.equal(failovers.length, 1);
      assert.equal(failovers[0].from, A);
      assert.equal(failovers[0].to, B);
      assert.equal(hosts.hosts[B].requests[0].url, `${B}/api/v1/chat/completions`, 'same path on the other host');
    });
  }

  const nonCauses: Array<[string, FakeReply, string]> = [
    ['400', json({ error: { message: 'bad' } }, 400), 'badRequest'],
    ['401', json({ error: { message: 'no' } }, 401), 'unauthorized'],
    ['402', json({ error: { message: 'pay' } }, 402), 'insufficientCredits'],
    ['403', json({ error: { message: 'scope' } }, 403), 'forbidden'],
    ['404', json({ error: { message: 'model' } }, 404), 'modelNotFound'],
    ['429', json({ error: { message: 'slow down' } }, 429, { 'retry-after': '1' }), 'rateLimited'],
    ['a service 500 in JSON', json({ error: { message: 'internal' } }, 500), 'server'],
    ['a reset after the whole body was sent', { fail: socketError('ECONNRESET'), failProgress: { requestStarted: true, bodyBytesSent: POST_BODY_BYTES } }, 'network'],
    ['a response timeout after the body was sent', { fail: socketError('UND_ERR_HEADERS_TIMEOUT'), failProgress: { requestStarted: true, bodyBytesSent: POST_BODY_BYTES } }, 'timeout'],
  ];
  for (const [name, reply, kind] of nonCauses) {
    it(`never moves a chat request on after ${name}: the other host sees nothing`, async () => {
      const { hosts, client, failovers } = setup();
      hosts.hosts[A].reply(reply);
      const error = await failure(chat(client));
      assert.equal(error.kind, kind);
      assert.deepEqual(hosts.counts(), [1, 0]);
      assert.deepEqual(failovers, []);
    });
  }

  it('says what happened: a request reset after it was sent may have reached the service, one refused never did', async () => {
    const reset = setup();
    reset.hosts.hosts[A].reply({ fail: socketError('ECONNRESET'), failProgress: { requestStarted: true, bodyBytesSent: POST_BODY_BYTES } });
    const lost = await failure(chat(reset.client));
    assert.match(lost.message, /^The connection was lost after the request was sent \(ECONNRESET\)\. It may have reached the service, so it was not sent to another host, which could bill it twice\./);
    const refused = setup();
    refused.hosts.hosts[A].reply({ fail: socketError('ECONNREFUSED') });
    refused.hosts.hosts[B].reply({ fail: socketError('ECONNREFUSED') });
    const unreached = await failure(chat(refused.client));
    assert.match(unreached.message, /Could not reach the service \(ECONNREFUSED\)\. Check the connection, proxy and base URL/);
    assert.doesNotMatch(unreached.message, /may have reached/);
    const timedOut = setup();
    timedOut.hosts.hosts[A].reply({ fail: socketError('UND_ERR_CONNECT_TIMEOUT') });
    timedOut.hosts.hosts[B].reply({ fail: socketError('UND_ERR_CONNECT_TIMEOUT') });
    const neverConnected = await failure(chat(timedOut.client));
    assert.equal(neverConnected.kind, 'timeout');
    assert.match(neverConnected.message, /Could not connect to the service in time \(UND_ERR_CONNECT_TIMEOUT\): the request was not sent\. Check the connection, proxy and base URL, or raise the "inference\.timeouts\.connectSeconds" setting/);
    assert.doesNotMatch(neverConnected.message, /took too long to answer/, 'a service never reached did not take long to answer');
  });

  it('moves a model-list GET on even after it was sent: a GET is never billed', async () => {
    const { hosts, client } = setup();
    hosts.hosts[A].reply({ fail: socketError('ECONNRESET'), failProgress: { requestStarted: true } });
    hosts.hosts[B].reply(MODELS);
    const { models, meta } = await client.listModels();
    assert.deepEqual(models.map((model) => model.id), ['m']);
    assert.equal(meta.host, B);
    assert.deepEqual(hosts.counts(), [1, 1]);
  });

  it('does not replay a 200 whose stream breaks: the partial answer and the error come out, one request in all', async () => {
    const { hosts, client } = setup();
    const stream = sse(['Hello ', 'wor']);
    hosts.hosts[A].reply({ ...stream, body: stream.body?.slice(0, 2), failAfter: socketError('ECONNRESET') });
    const outcome = await drain(client.streamChat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
    assert.equal(outcome.text, 'Hello wor');
    assert.ok(outcome.error instanceof ApiError && outcome.error.kind === 'network', String(outcome.error));
    assert.deepEqual(hosts.counts(), [1, 0]);
  });

  it('passes a request to an address that is none of its hosts on as it is (the probe of an address being added)', async () => {
    const hosts = new FakeHosts([A, B, 'https://c.example'], MODELS);
    const transport = new FailoverTransport(hosts, { health: new HostHealth([A, B]) });
    const response = await transport.send({ url: 'https://c.example/api/v1/models', method: 'GET', headers: {}, timeouts: { responseMs: 1000, idleMs: 1000 } });
    assert.equal(response.status, 200);
    assert.equal(response.route, undefined);
    assert.deepEqual(hosts.counts(), [0, 0, 1]);
  });

  it('does not move a cancelled request on', async () => {
    const { hosts, client } = setup();
    hosts.hosts[A].reply({ hang: true });
    const controller = new AbortController();
    const pending = client.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    assert.equal((await failure(pending)).kind, 'cancelled');
    assert.deepEqual(hosts.counts(), [1, 0]);
  });

  it('gives one error naming every host and its reason when all fail', async () => {
    const { hosts, client } = setup();
    hosts.hosts[A].reply({ fail: socketError('ECONNREFUSED') });
    hosts.hosts[B].reply({ status: 503, headers: { 'content-type': 'text/html' }, body: ['<html>down</html>'] });
    const error = await failure(chat(client));
    assert.match(error.message, new RegExp(`${A} \\(ECONNREFUSED\\), ${B} \\(HTTP 503 \\(text/html\\)\\)`));
    assert.deepEqual(hosts.counts(), [1, 1]);

    const second = setup();
    second.hosts.hosts[A].reply({ fail: socketError('ECONNREFUSED') });
    second.hosts.hosts[B].reply({ fail: socketError('ENOTFOUND') });
    const both = await failure(second.client.listModels());
    assert.equal(both.kind, 'network');
    assert.match(both.message, new RegExp(`${A} \\(ECONNREFUSED\\), ${B} \\(ENOTFOUND\\)`));
  });
});

describe('Health of the hosts', () => {
  it('prefers the last healthy host, sets a failed one aside, and probes it once its backoff ran out', async () => {
    const { hosts, client, advance, health } = setup();
    hosts.hosts[A].reply({ fail: socketError('ECONNREFUSED') });
    await client.listModels();
    assert.deepEqual(hosts.counts(), [1, 1]);
    await client.listModels();
    assert.deepEqual(hosts.counts(), [1, 2], 'A is set aside: the next request goes straight to B');
    advance(999);
    await client.listModels();
    assert.deepEqual(hosts.counts(), [1, 3]);
    advance(1);
    hosts.hosts[A].reply({ fail: socketError('ECONNREFUSED') });
    await client.listModels();
    assert.deepEqual(hosts.counts(), [2, 4], 'after 1 s one request probes A, fails, and moves to B');
    const [a] = health.states();
    assert.equal(a.failures, 2);
    assert.equal(a.setAsideUntil - 1_001_000, 2_000, 'the backoff doubled');
    advance(2_000);
    await client.listModels();
    assert.deepEqual(hosts.counts(), [3, 4], 'the probe succeeded: A is healthy again');
    await client.listModels();
    assert.deepEqual(hosts.counts(), [4, 4], 'and is now the last healthy host');
    assert.equal(health.states()[0].failures, 0);
  });

  it('bounds the backoff', () => {
    let now = 0;
    const health = new HostHealth([A, B], () => now, { firstMs: 1_000, longestMs: 8_000 });
    for (let failure = 0; failure < 10; failure++) {
      const [turn] = health.plan().filter((planned) => planned.origin === A);
      turn?.failed('ECONNREFUSED');
      now = health.states()[0].setAsideUntil;
    }
    const [a] = health.states();
    assert.equal(a.setAsideUntil - (a.lastFailedAt ?? 0), 8_000);
  });

  it('lets only one request at a time probe a set-aside host', () => {
    let now = 0;
    const health = new HostHealth([A, B], () => now, { firstMs: 1_000, longestMs: 8_000 });
    health.plan()[0].failed('ECONNREFUSED');
    now = 1_000;
    const first = health.plan().map((turn) => turn.origin);
    const second = health.plan().map((turn) => turn.origin);
    assert.deepEqual(first, [A, B]);
    assert.deepEqual(second, [B], 'A is being probed by the first request');
  });

  it('tries the least recently failed host when all are set aside, rather than failing without trying', async () => {
    const { hosts, client, advance } = setup();
    hosts.hosts[A].reply({ fail: socketError('ECONNREFUSED') });
    hosts.hosts[B].reply({ fail: socketError('ECONNREFUSED') });
    await failure(client.listModels());
    assert.deepEqual(hosts.counts(), [1, 1]);
    advance(10);
    const { models } = await client.listModels();
    assert.equal(models.length, 1);
    assert.deepEqual(hosts.counts(), [2, 1], 'A failed first, so it is tried first');
  });

  it('names every host when none answers, those set aside and not tried again with the reason they failed then', async () => {
    const { hosts, client, advance } = setup();
    hosts.hosts[A].reply({ fail: socketError('ECONNREFUSED') });
    hosts.hosts[B].reply({ fail: socketError('ECONNREFUSED') });
    assert.match((await failure(chat(client))).message, new RegExp(`^No host of the environment answered: ${A} \\(ECONNREFUSED\\), ${B} \\(ECONNREFUSED\\)\\.`));
    // Right after, both are set aside: the model list tries the one that failed first, and says why the other was not tried.
    advance(10);
    hosts.hosts[A].reply({ fail: socketError('ENOTFOUND') });
    const error = await failure(client.listModels());
    assert.deepEqual(hosts.counts(), [2, 1]);
    assert.match(error.message, new RegExp(`^No host of the environment answered: ${A} \\(ENOTFOUND\\), ${B} \\(ECONNREFUSED; set aside, not tried again yet\\)\\.`));
  });

  it('keeps a 429 on the host that answered it: the next host sees nothing', async () => {
    const { hosts, client } = setup();
    hosts.hosts[A].reply(json({ error: { message: 'slow down' } }, 429));
    assert.equal((await failure(chat(client))).kind, 'rateLimited');
    assert.deepEqual(hosts.counts(), [1, 0]);
    hosts.hosts[A].reply(CHAT_OK);
    await chat(client);
    assert.deepEqual(hosts.counts(), [2, 0], 'a 429 does not set the host aside');
  });
});
