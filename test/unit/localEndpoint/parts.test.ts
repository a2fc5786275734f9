/** The small pure parts of the local endpoint: token, loopback Host, log lines, the reused client. */
import assert from 'node:assert/strict';
import { createEndpointToken, isLoopbackHostHeader, presentedToken, tokenMatches } from '../../../src/core/localEndpoint/auth';
import { describeRequest } from '../../../src/core/localEndpoint/exchange';
import { ReusedValue } from '../../../src/core/localEndpoint/reusedValue';

describe('local endpoint: token and host checks', () => {
  it('creates a fresh 256-bit URL-safe token each time', () => {
    const a = createEndpointToken();
    const b = createEndpointToken();
    assert.notEqual(a, b);
    assert.match(a, /^local-[A-Za-z0-9_-]{43}$/);
  });

  it('compares tokens exactly, whatever their lengths, and never matches an empty expectation', () => {
    const token = createEndpointToken();
    assert.equal(tokenMatches(token, token), true);
    assert.equal(tokenMatches(`${token}x`, token), false);
    assert.equal(tokenMatches(token.slice(0, -1), token), false);
    assert.equal(tokenMatches('', token), false);
    assert.equal(tokenMatches(undefined, token), false);
    assert.equal(tokenMatches('', ''), false);
  });

  it('reads the token from Authorization: Bearer or x-api-key', () => {
    assert.equal(presentedToken({ authorization: 'Bearer abc' }), 'abc');
    assert.equal(presentedToken({ authorization: 'bearer   abc ' }), 'abc');
    assert.equal(presentedToken({ 'x-api-key': 'xyz' }), 'xyz');
    assert.equal(presentedToken({ authorization: 'Basic abc', 'x-api-key': 'xyz' }), 'xyz');
    assert.equal(presentedToken({ authorization: 'Basic abc' }), undefined);
    assert.equal(presentedToken({}), undefined);
  });

  it('accepts loopback Host names only', () => {
    for (const host of ['127.0.0.1', '127.0.0.1:8080', 'localhost', 'LOCALHOST:1', 'localhost.:9', '[::1]', '[::1]:443']) assert.equal(isLoopbackHostHeader(host), true, host);
    for (const host of [undefined, '', 'evil.example', 'evil.example:8080', '127.0.0.1.nip.io', 'localhost.evil.example', '10.0.0.1', '[::2]', '127.0.0.1:80:80', 'sub.localhost']) {
      assert.equal(isLoopbackHostHeader(host), false, String(host));
    }
  });
});

describe('local endpoint: log lines', () => {
  it('say what happened in one line, with the request id and the reason of a refusal', () => {
    const base = { method: 'POST', path: '/v1/messages', protocol: 'anthropic' as const, status: 200, stream: true, durationMs: 12.4, cancelled: false };
    assert.equal(describeRequest({ ...base, requestId: 'req_1', modelId: 'm' }), 'local endpoint: POST /v1/messages (anthropic, stream) → HTTP 200 in 12 ms, request req_1, model m');
    assert.equal(describeRequest({ ...base, cancelled: true }), 'local endpoint: POST /v1/messages (anthropic, stream) → cancelled by the client in 12 ms');
    assert.equal(describeRequest({ ...base, stream: false, status: 401, problem: 'Wrong or missing token' }), 'local endpoint: POST /v1/messages (anthropic) → HTTP 401 in 12 ms, Wrong or missing token');
  });
});

describe('local endpoint: the reused client', () => {
  it('is made once, made again after forget(), and not kept when making it failed', async () => {
    let made = 0;
    let fail = true;
    const value = new ReusedValue(async () => {
      made += 1;
      if (fail) throw new Error('no key yet');
      return made;
    });
    await assert.rejects(value.get(), /no key yet/);
    fail = false;
    assert.equal(await value.get(), 2, 'a failure is not reused');
    assert.equal(await value.get(), 2);
    value.forget();
    assert.equal(await value.get(), 3);
    assert.equal(made, 3);
  });
});
