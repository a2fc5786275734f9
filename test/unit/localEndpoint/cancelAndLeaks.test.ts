/** A client that leaves stops the upstream request; the service key never reaches a client. */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { InferenceClient } from '../../../src/core/api/client';
import { createEndpointToken } from '../../../src/core/localEndpoint/auth';
import { LocalEndpointServer } from '../../../src/core/localEndpoint/server';
import { waitFor } from '../../harness/wait';
import { bearer, rawRequest } from '../emulator/helpers';
import { useLocalEndpoint } from './support';

describe('local endpoint: cancellation reaches the service', () => {
  // Paced, so that a stream is still running when the client leaves.
  const fixture = useLocalEndpoint({ tokensPerSecond: 40 });
  const messages = [{ role: 'user' as const, content: 'a long answer please' }];

  it('closes the upstream stream when an openai client stops reading', async () => {
    const { origin, token, summaries } = await fixture().start();
    const stream = await new OpenAI({ apiKey: token, baseURL: `${origin}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'emu-chat-small', messages, stream: true });
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content) break; // leaves after the first words
    }
    const record = fixture().emulator.requests.at(-1);
    const closedAt = await waitFor('the emulator seeing the client close', () => record?.clientClosedAt, { timeoutMs: 3000, intervalMs: 10 });
    assert.ok(closedAt - (record?.startedAt ?? 0) < 1000, 'closed long before the paced answer could end');
    await waitFor('the summary saying cancelled', () => summaries.at(-1)?.cancelled || undefined, { timeoutMs: 3000, intervalMs: 10 });
  });

  it('closes the upstream stream when an Anthropic client aborts, and a non-streamed request too', async () => {
    const { origin, token } = await fixture().start();
    const client = new Anthropic({ apiKey: token, baseURL: origin, maxRetries: 0 });
    const stream = client.messages.stream({ model: 'emu-chat-small', max_tokens: 500, messages });
    await new Promise<void>((resolve) => stream.on('text', () => resolve()));
    const ended = stream.done().catch((error: unknown) => error);
    stream.abort();
    assert.ok((await ended) instanceof Anthropic.APIUserAbortError);
    const streamed = fixture().emulator.requests.at(-1);
    await waitFor('the emulator seeing the stream close', () => streamed?.clientClosedAt, { timeoutMs: 3000, intervalMs: 10 });

    const controller = new AbortController();
    const pending = client.messages.create({ model: 'emu-chat-small', max_tokens: 500, messages }, { signal: controller.signal }).catch((e: unknown) => e);
    const whole = await waitFor('the non-streamed request arriving', () => fixture().emulator.requests.find((r) => r !== streamed && !r.stream), { timeoutMs: 3000, intervalMs: 10 });
    controller.abort();
    assert.ok((await pending) instanceof Error);
    await waitFor('the emulator seeing the non-streamed request close', () => whole.clientClosedAt, { timeoutMs: 3000, intervalMs: 10 });
  });
});

describe('local endpoint: the service key stays inside', () => {
  const fixture = useLocalEndpoint();

  it('appears in no response body or header of any answer, error or refusal', async () => {
    const { emulator } = fixture();
    const key = emulator.keys.production.full;
    const { origin, token } = await fixture().start();
    const anthropicHeaders = { 'x-api-key': token, 'anthropic-version': '2023-06-01' };
    const seen = [
      await rawRequest(`${origin}/v1/models`, { headers: bearer(token) }),
      await rawRequest(`${origin}/v1/models`, { headers: anthropicHeaders }),
      await rawRequest(`${origin}/v1/chat/completions`, { headers: bearer(token), body: { model: 'emu-chat-small', messages: [{ role: 'user', content: 'hi' }], stream: true } }),
      await rawRequest(`${origin}/v1/chat/completions`, { headers: bearer(token), body: { model: 'nope', messages: [] } }),
      await rawRequest(`${origin}/v1/messages`, { headers: anthropicHeaders, body: { model: 'nope', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] } }),
      await rawRequest(`${origin}/v1/messages`, { headers: { ...anthropicHeaders, 'x-api-key': 'wrong' }, body: {} }),
    ];
    assert.deepEqual(seen.map((r) => r.status), [200, 200, 200, 400, 404, 401]);
    for (const res of seen) {
      assert.ok(!res.text.includes(key) && !JSON.stringify(res.headers).includes(key), 'key in a response');
      assert.ok(!JSON.stringify(res.headers).toLowerCase().includes('authorization'));
    }
  });

  it('removes the key from an error body that echoes it, and drops headers outside the allowlist', async () => {
    const key = 'svc-echoedsecretkey0123456789abcdefgh';
    // A service that echoes what it was sent (some proxies do).
    const echo = http.createServer((req, res) => {
      res.writeHead(400, { 'content-type': 'application/json', 'x-echo-authorization': String(req.headers.authorization), 'set-cookie': 'session=1', 'x-request-id': 'req_echo' });
      res.end(JSON.stringify({ error: { message: `Bad request with ${String(req.headers.authorization)}`, code: 'echo' } }));
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const client = new InferenceClient({ baseUrl: `http://127.0.0.1:${(echo.address() as AddressInfo).port}/api/v1`, apiKey: key });
    const token = createEndpointToken();
    const server = new LocalEndpointServer({ port: 0, token, forward: (request, signal) => client.forward(request, { signal }) });
    await server.listen();
    try {
      const passthrough = await rawRequest(`${server.baseUrl}/v1/chat/completions`, { headers: bearer(token), body: { model: 'm', messages: [] } });
      const translated = await rawRequest(`${server.baseUrl}/v1/messages`, { headers: { 'x-api-key': token, 'anthropic-version': '2023-06-01' }, body: { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] } });
      for (const res of [passthrough, translated]) {
        assert.equal(res.status, 400);
        assert.match(res.text, /Bad request with Bearer \[redacted\]/);
        assert.ok(!res.text.includes(key));
        assert.equal(res.headers['x-echo-authorization'], undefined);
        assert.equal(res.headers['set-cookie'], undefined);
        assert.equal(res.headers['x-request-id'], 'req_echo');
      }
    } finally {
      await server.close();
      await client.close();
      await new Promise((resolve) => echo.close(resolve));
    }
  });
});
