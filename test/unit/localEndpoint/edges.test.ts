/**
 * The local endpoint's edges, over real sockets on 127.0.0.1: malformed paths, log lines, floods of
 * refused requests, idle and slow connections, absurd token limits.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { describeRequest } from '../../../src/core/localEndpoint/server';
import { waitFor } from '../../harness/wait';
import { bearer, chatBody, rawRequest } from '../emulator/helpers';
import { useLocalEndpoint } from './support';

const ANTHROPIC = '2023-06-01';

/** A raw connection to the endpoint that reports when the server closes it. */
function connect(origin: string, firstBytes?: string): Promise<{ socket: net.Socket; closed: Promise<string> }> {
  const { port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      if (firstBytes !== undefined) socket.write(firstBytes);
      let received = '';
      socket.on('data', (data: Buffer) => { received += data.toString('latin1'); });
      resolve({ socket, closed: new Promise((done) => socket.on('close', () => done(received))) });
    });
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, new Promise<T>((_resolve, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms).unref())]);
}

describe('local endpoint: edges', () => {
  const fixture = useLocalEndpoint();

  it('answers a malformed %-escape in /v1/models/{id}, or a target that is no URL, with 400 in the client\'s protocol, not a dropped connection', async () => {
    const { origin, token } = await fixture().start();
    const openai = await rawRequest(`${origin}/v1/models/%E0%A4%A`, { headers: bearer(token) });
    assert.equal(openai.status, 400, openai.error);
    assert.equal((JSON.parse(openai.text) as { error: { code: string } }).error.code, 'invalid_model_id');
    const anthropic = await rawRequest(`${origin}/v1/models/bad%ZZ`, { headers: { 'x-api-key': token, 'anthropic-version': ANTHROPIC } });
    assert.equal(anthropic.status, 400, anthropic.error);
    assert.deepEqual((JSON.parse(anthropic.text) as { type: string; error: { type: string } }).error.type, 'invalid_request_error');
    // A request target that is no URL at all.
    const notAPath = await connect(origin, 'GET http://[ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    assert.match(await within(notAPath.closed, 2000, 'an answer'), /^HTTP\/1\.1 400 .*"code":"invalid_path"/s);
    assert.equal(fixture().emulator.requests.length, 0);
  });

  it('writes one log line per request whatever the decoded path holds (no forged line from %0A)', async () => {
    const { origin, token, summaries } = await fixture().start();
    const res = await rawRequest(`${origin}/v1/models/x%0Alocal%20endpoint%3A%20GET%20%2Fv1%2Fmodels%20%E2%86%92%20HTTP%20200%0D%E2%80%A8`, { headers: bearer(token) });
    assert.equal(res.status, 404);
    await waitFor('the summary', () => summaries.at(-1), { timeoutMs: 2000, intervalMs: 5 });
    const line = describeRequest(summaries[0]);
    assert.doesNotMatch(line, /[\n\r\u2028]/);
    assert.match(line, /"x\\u000alocal endpoint: GET \/v1\/models → HTTP 200\\u000d\\u2028"/);
  });

  it('reports refusals before authentication a few per window, then says how many it did not', async () => {
    const { origin, token, summaries } = await fixture().start({ refusalsReported: 3, refusalWindowMs: 400 });
    for (let i = 0; i < 10; i++) assert.equal((await rawRequest(`${origin}/v1/models`, { headers: bearer('wrong') })).status, 401);
    assert.equal((await rawRequest(`${origin}/v1/nowhere`, { headers: bearer(token) })).status, 404);
    assert.equal((await rawRequest(`${origin}/v1/models`, { headers: bearer(token) })).status, 200);
    await waitFor('the authenticated request reported', () => summaries.find((s) => s.status === 200), { timeoutMs: 2000, intervalMs: 5 });
    assert.deepEqual(summaries.map((s) => s.status), [401, 401, 401, 200], 'refused ones beyond 3 are neither logged nor counted; answered ones always are');
    assert.match(describeRequest(summaries[2]), /further refusals in the next 0 s are counted, not logged/);
    await new Promise((resolve) => setTimeout(resolve, 450));
    await rawRequest(`${origin}/v1/models`, { headers: { ...bearer(token), host: 'evil.example' } });
    await waitFor('the next window\'s refusal', () => summaries.length === 5 || undefined, { timeoutMs: 2000, intervalMs: 5 });
    assert.equal(summaries[4].status, 403);
    assert.match(describeRequest(summaries[4]), /8 refused request\(s\) before this one were not logged/);
  });

  it('closes connections beyond its cap at once, and ones that are slow with their headers or body', async () => {
    const { origin } = await fixture().start({ maxConnections: 2, headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const held = [await connect(origin), await connect(origin)];
    await new Promise((resolve) => setTimeout(resolve, 50));
    const third = await connect(origin);
    await within(third.closed, 1000, 'the connection past the cap closed');
    for (const { socket } of held) socket.destroy();
    await Promise.all(held.map(({ closed }) => closed));
    await new Promise((resolve) => setTimeout(resolve, 50)); // the server's count follows its own close events

    const startedAt = performance.now();
    const slowHeaders = await connect(origin, 'GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const slowBody = await connect(origin, 'POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"model":');
    await within(slowHeaders.closed, 3000, 'slow headers closed');
    const headersClosedAt = performance.now() - startedAt;
    await within(slowBody.closed, 3000, 'a slow body closed');
    assert.ok(headersClosedAt >= 250, `not before the headers timeout (${headersClosedAt} ms)`);
  });

  it('refuses a token limit no model can use with 400 in either protocol, before it reaches the service', async () => {
    const { origin, token } = await fixture().start();
    const { emulator } = fixture();
    const openai = async (extra: Record<string, unknown>) => rawRequest(`${origin}/v1/chat/completions`, { headers: bearer(token), body: { ...chatBody('emu-chat-small'), ...extra } });
    for (const extra of [{ max_tokens: 1e308 }, { max_tokens: 1.5 }, { max_completion_tokens: 2_000_000 }]) {
      const res = await openai(extra);
      assert.equal(res.status, 400, JSON.stringify(extra));
      const { error } = JSON.parse(res.text) as { error: { code: string; message: string } };
      assert.equal(error.code, 'invalid_max_tokens');
      assert.match(error.message, /must be a whole number from 1 to 1000000/);
    }
    const messages = await rawRequest(`${origin}/v1/messages`, {
      headers: { 'x-api-key': token, 'anthropic-version': ANTHROPIC }, body: { model: 'emu-chat-small', max_tokens: 1e308, messages: [{ role: 'user', content: 'x' }] },
    });
    assert.equal(messages.status, 400);
    assert.match(messages.text, /"type":"invalid_request_error".*"max_tokens\\" must be a whole number from 1 to 1000000/);
    assert.equal(emulator.requests.length, 0, 'nothing was forwarded');
    assert.equal((await openai({ max_tokens: 1000 })).status, 200, 'a sane limit passes');
  });
});
