/** The local endpoint's chat-completions side with the official openai client, and its gatekeeping, against the emulator. */
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { spendingLimitRefusal } from '../../../src/core/localEndpoint/spendingLimit';
import type { PeriodSpend } from '../../../src/core/usage/spendingLimits';
import { BillingWindows } from '../../../src/core/usage/billingWindows';
import { waitFor } from '../../harness/wait';
import { bearer, chatBody, rawRequest } from '../emulator/helpers';
import { normaliseIds, useLocalEndpoint } from './support';

describe('local endpoint: chat-completions passthrough and access', () => {
  const fixture = useLocalEndpoint();
  const openai = (origin: string, token: string) => new OpenAI({ apiKey: token, baseURL: `${origin}/v1`, maxRetries: 0 });

  it('lists the chat models of the environment with the openai client', async () => {
    const { origin, token } = await fixture().start();
    const page = await openai(origin, token).models.list();
    assert.deepEqual(page.data.map((m) => m.id), fixture().emulator.environments.production.chatModels);
    assert.equal(fixture().emulator.requests.at(-1)?.path, '/api/v1/models?type=chat&format=openai');
    const one = await openai(origin, token).models.retrieve('emu-chat-small');
    assert.equal(one.id, 'emu-chat-small');
    assert.equal(one.owned_by, 'service');
    const missing = await openai(origin, token).models.retrieve('no-such-model').catch((e: unknown) => e);
    assert.ok(missing instanceof OpenAI.NotFoundError, String(missing));
  });

  it('holds a billing window open around each answer it forwards (none around a model list), so an answer of the window meanwhile is not measured', async () => {
    const windows = new BillingWindows();
    const events: string[] = [];
    const { origin, token } = await fixture().start({
      openBillingWindow: async () => {
        const window = await windows.open('production');
        events.push('open');
        return { close: (answered) => { events.push(`close ${answered.stream ? 'streamed' : 'whole'} ${answered.status} ${answered.requestId ? 'billed' : '-'}`); window.close(); } };
      },
    });
    await openai(origin, token).models.list();
    assert.deepEqual(events, [], 'a model list is not billed');
    const alone = await windows.open('production');
    for (const stream of [false, true]) {
      const answer = await rawRequest(`${origin}/v1/chat/completions`, { headers: bearer(token), body: chatBody('emu-chat-small', { stream }) });
      assert.equal(answer.status, 200);
    }
    await waitFor('the windows to close with the responses', () => events.length === 4, { timeoutMs: 2000, intervalMs: 5 });
    // With what was answered: the host takes a settled reading after a streamed answer only.
    assert.deepEqual(events, ['open', 'close whole 200 billed', 'open', 'close streamed 200 billed']);
    alone.close();
    assert.equal(alone.overlapped, true, 'an answer of this window while the endpoint forwarded is not measured');
  });

  it('answers a request its billing window refuses (a spending limit) with that error, in each protocol, and sends nothing', async () => {
    const spend: PeriodSpend = { period: 'day', limit: 5, measured: 5.25, unmeasured: 0, reserved: 0, counted: 5.25, warningAt: 4, resetsAt: Date.parse('2026-03-16T00:00:00Z') };
    const refusal = () => spendingLimitRefusal(spend, 'production');
    assert.equal(refusal().message, 'The daily spending limit of "production" set in VS Code is reached: 5.25 of 5 credits spent. Nothing was sent. It resets at 2026-03-16T00:00:00.000Z.');
    const { origin, token, summaries } = await fixture().start({ openBillingWindow: () => Promise.reject(refusal()) });
    const before = fixture().emulator.requests.length;
    const openaiAnswer = await rawRequest(`${origin}/v1/chat/completions`, { headers: bearer(token), body: chatBody('emu-chat-small', {}) });
    assert.equal(openaiAnswer.status, 403);
    assert.deepEqual(JSON.parse(openaiAnswer.body.toString()).error, { message: refusal().message, type: 'spending_limit_reached', code: 'spending_limit_reached' });
    const anthropicAnswer = await rawRequest(`${origin}/v1/messages`, {
      headers: { 'x-api-key': token, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'emu-chat-small', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    assert.equal(anthropicAnswer.status, 403);
    assert.deepEqual(JSON.parse(anthropicAnswer.body.toString()), { type: 'error', error: { type: 'spending_limit_reached', message: refusal().message } });
    assert.equal(fixture().emulator.requests.length, before, 'the service saw nothing');
    await waitFor('both summaries', () => summaries.length === 2, { timeoutMs: 2000, intervalMs: 5 });
    assert.deepEqual(summaries.map((s) => s.problem), [refusal().message, refusal().message], 'the refusal is in what the host logs');
  });

  for (const stream of [false, true]) {
    it(`relays a ${stream ? 'streamed' : 'non-streamed'} answer byte for byte, with the service's headers`, async () => {
      const { emulator } = fixture();
      const { origin, token, summaries } = await fixture().start();
      const body = chatBody('emu-chat-small', { stream });
      const direct = await rawRequest(`${emulator.environments.production.baseUrl}/chat/completions`, { headers: bearer(emulator.keys.production.full), body });
      const viaEndpoint = await rawRequest(`${origin}/v1/chat/completions`, { headers: bearer(token), body });
      assert.equal(viaEndpoint.status, 200);
      assert.equal(normaliseIds(viaEndpoint.text), normaliseIds(direct.text));
      assert.ok(viaEndpoint.text.length > 200);
      const record = emulator.requests.at(-1);
      assert.equal(viaEndpoint.headers['x-request-id'], record?.id);
      assert.equal(viaEndpoint.headers['x-service-model-id'], 'emu-chat-small');
      assert.match(String(viaEndpoint.headers['x-service-balance-credits']), /^\d+(\.\d+)?$/);
      assert.equal(viaEndpoint.headers['content-type'], direct.headers['content-type']);
      assert.equal(record?.keyLabel, 'full');
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual({ ...summaries.at(-1), durationMs: 0 }, {
        method: 'POST', path: '/v1/chat/completions', protocol: 'openai', status: 200, stream, durationMs: 0, cancelled: false, requestId: record?.id, modelId: 'emu-chat-small',
      });
    });
  }

  it('streams through the openai client with the same text as a direct call', async () => {
    const { emulator } = fixture();
    const { origin, token } = await fixture().start();
    const request = { model: 'emu-chat-large', messages: [{ role: 'user' as const, content: 'same text please' }] };
    const direct = new OpenAI({ apiKey: emulator.keys.production.full, baseURL: emulator.environments.production.baseUrl, maxRetries: 0 });
    const expected = (await direct.chat.completions.create(request)).choices[0].message.content;
    let text = '';
    for await (const chunk of await openai(origin, token).chat.completions.create({ ...request, stream: true })) text += chunk.choices[0]?.delta.content ?? '';
    assert.equal(text, expected);
  });

  it('refuses a wrong or missing token with 401 before anything reaches the service', async () => {
    const { origin, token } = await fixture().start();
    const before = fixture().emulator.requests.length;
    const wrong = await openai(origin, `${token}x`).models.list().then(() => undefined, (e: unknown) => e);
    assert.ok(wrong instanceof OpenAI.AuthenticationError, String(wrong));
    assert.match(wrong.message, /token for the local endpoint/);
    const missing = await rawRequest(`${origin}/v1/chat/completions`, { body: chatBody('emu-chat-small') });
    assert.equal(missing.status, 401);
    const serviceKey = await rawRequest(`${origin}/v1/models`, { headers: bearer(fixture().emulator.keys.production.full) });
    assert.equal(serviceKey.status, 401, 'the service key itself is not the endpoint token');
    assert.equal(fixture().emulator.requests.length, before, 'the emulator saw no request');
  });

  it('refuses a non-loopback Host (DNS rebinding) and browser origins, and sends no CORS headers', async () => {
    const { origin, token } = await fixture().start();
    const rebound = await rawRequest(`${origin}/v1/models`, { headers: { ...bearer(token), host: 'attacker.example:80' } });
    assert.equal(rebound.status, 403);
    assert.match(rebound.text, /host_not_allowed/);
    const page = await rawRequest(`${origin}/v1/models`, { headers: { ...bearer(token), origin: 'https://attacker.example' } });
    assert.equal(page.status, 403);
    const preflight = await rawRequest(`${origin}/v1/chat/completions`, { method: 'OPTIONS', headers: { origin: 'https://attacker.example', 'access-control-request-method': 'POST' } });
    assert.notEqual(preflight.status, 200);
    const ok = await rawRequest(`${origin}/v1/models`, { headers: { ...bearer(token), host: 'localhost' } });
    assert.equal(ok.status, 200);
    for (const res of [rebound, page, preflight, ok]) assert.ok(!Object.keys(res.headers).some((h) => h.startsWith('access-control-')), 'no CORS header');
    assert.equal(fixture().emulator.requests.length, 1, 'only the allowed request reached the emulator');
  });

  it('caps request bodies with 413 and answers unknown paths and methods in the protocol shape', async () => {
    const { origin, token } = await fixture().start({ maxRequestBytes: 1000 });
    const big = await rawRequest(`${origin}/v1/chat/completions`, { headers: bearer(token), body: chatBody('emu-chat-small', { padding: 'x'.repeat(2000) }) });
    assert.equal(big.status, 413);
    assert.equal((JSON.parse(big.text) as { error: { code: string } }).error.code, 'body_too_large');
    assert.equal((await rawRequest(`${origin}/v1/embeddings`, { headers: bearer(token), body: {} })).status, 404);
    assert.equal((await rawRequest(`${origin}/v1/chat/completions`, { headers: bearer(token) })).status, 405);
    assert.equal((await rawRequest(`${origin}/v1/chat/completions`, { headers: bearer(token), body: 'not json' })).status, 400);
    assert.equal(fixture().emulator.requests.length, 0);
  });

  it('relays 402, 404 and 429 with the service status, body and Retry-After', async () => {
    const { emulator } = fixture();
    const broke = await fixture().start({ key: emulator.keys.production.broke });
    const e402 = await openai(broke.origin, broke.token).chat.completions.create({ model: 'emu-chat-small', messages: [{ role: 'user', content: 'hi' }] }).then(() => undefined, (e: unknown) => e);
    assert.ok(e402 instanceof OpenAI.APIError && e402.status === 402 && e402.code === 'insufficient_credits', String(e402));
    const { origin, token } = await fixture().start();
    const e404 = await openai(origin, token).chat.completions.create({ model: 'emu-chat-next', messages: [{ role: 'user', content: 'hi' }] }).then(() => undefined, (e: unknown) => e);
    assert.ok(e404 instanceof OpenAI.NotFoundError, String(e404));
    emulator.injectFault('production', { fault: 'http-429', retryAfterSeconds: 7 });
    const e429 = await openai(origin, token).chat.completions.create({ model: 'emu-chat-small', messages: [{ role: 'user', content: 'hi' }] }).then(() => undefined, (e: unknown) => e);
    assert.ok(e429 instanceof OpenAI.RateLimitError, String(e429));
    assert.equal(e429.headers?.get('retry-after'), '7');
    assert.match(e429.requestID ?? '', /^req_/);
  });

  it('answers 503 with the reason when no key is available, without calling the service', async () => {
    const { origin, token } = await fixture().start({ key: '' });
    const res = await rawRequest(`${origin}/v1/models`, { headers: bearer(token) });
    assert.equal(res.status, 503);
    assert.match(res.text, /No API key is set/);
    assert.equal(fixture().emulator.requests.length, 0);
  });
});
