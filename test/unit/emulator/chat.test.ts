/** Chat completions: shape, validation, determinism, pacing, billing with reserve and refund. */
import assert from 'node:assert/strict';
import http from 'node:http';
import { request as undiciRequest } from 'undici';
import { bearer, chatBody, parseSse, rawRequest, sseChunks, streamedText, useEmulator } from './helpers';
import { waitFor } from '../../harness/wait';

interface Completion {
  object: string;
  model: string;
  choices: { message: { role: string; content: string }; finish_reason: string }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

describe('emulator: chat completions', () => {
  const emu = useEmulator();
  const url = (): string => `${emu().environments.production.baseUrl}/chat/completions`;
  const post = (body: unknown, key = emu().keys.production.full): ReturnType<typeof rawRequest> => rawRequest(url(), { headers: bearer(key), body });

  it('answers non-streaming with the common chat.completion JSON and all headers', async () => {
    const res = await post(chatBody('emu-chat-large'));
    assert.equal(res.status, 200);
    const body = JSON.parse(res.text) as Completion;
    assert.equal(body.object, 'chat.completion');
    assert.equal(body.choices[0].message.role, 'assistant');
    const content = body.choices[0].message.content;
    assert.match(content, /You said: “Tell me about emulators”/);
    assert.match(content, /```ts\n[^]*\n```/);
    for (const s of ['é', '漢字', '🙂', '“']) assert.ok(content.includes(s), s);
    assert.equal(body.usage.total_tokens, body.usage.prompt_tokens + body.usage.completion_tokens);
    assert.equal(res.headers['x-service-model-id'], 'emu-chat-large');
    assert.equal(Number(res.headers['x-service-balance-credits']), emu().balance('production'));
    assert.ok(emu().balance('production') < 1000);
  });

  it('is deterministic for the same messages and different for others', async () => {
    const text = async (content: string): Promise<string> =>
      (JSON.parse((await post({ model: 'emu-chat-small', messages: [{ role: 'user', content }] })).text) as Completion).choices[0].message.content;
    assert.equal(await text('same'), await text('same'));
    assert.notEqual(await text('same'), await text('other'));
  });

  it('streams role, content pieces, finish_reason, a usage-only chunk, then [DONE]', async () => {
    const res = await post(chatBody('emu-chat-small', { stream: true }));
    assert.match(String(res.headers['content-type']), /^text\/event-stream/);
    const events = parseSse(res.text);
    assert.equal(events.at(-1)?.data, '[DONE]');
    const chunks = sseChunks(res.text);
    assert.equal(chunks[0].choices[0].delta.role, 'assistant');
    const finish = chunks.findIndex((c) => c.choices[0]?.finish_reason === 'stop');
    assert.equal(finish, chunks.length - 2);
    assert.deepEqual(chunks.at(-1)?.choices, []);
    const usage = chunks.at(-1)?.usage;
    const content = streamedText(res.text);
    const nonStream = JSON.parse((await post(chatBody('emu-chat-small'))).text) as Completion;
    assert.equal(content, nonStream.choices[0].message.content, 'the same text either way');
    assert.equal(usage?.completion_tokens, nonStream.usage.completion_tokens);
    assert.equal(emu().requests.at(-2)?.stream, true);
  });

  it('respects max_tokens with finish_reason length, streaming and not', async () => {
    const plain = JSON.parse((await post(chatBody('emu-chat-small', { max_tokens: 5 }))).text) as Completion;
    assert.equal(plain.choices[0].finish_reason, 'length');
    assert.equal(plain.usage.completion_tokens, 5);
    const streamed = sseChunks((await post(chatBody('emu-chat-small', { max_tokens: 5, stream: true }))).text);
    assert.equal(streamed.filter((c) => c.choices[0]?.delta.content).length, 5);
    assert.ok(streamed.some((c) => c.choices[0]?.finish_reason === 'length'));
  });

  it('rejects invalid bodies with 400 and a code', async () => {
    const cases: [unknown, string][] = [
      ['{not json', 'invalid_json'],
      [{ messages: [{ role: 'user', content: 'x' }] }, 'missing_model'],
      [{ model: 'emu-chat-small' }, 'invalid_messages'],
      [{ model: 'emu-chat-small', messages: [] }, 'invalid_messages'],
      [{ model: 'emu-chat-small', messages: [{ role: 'wizard', content: 'x' }] }, 'invalid_messages'],
      [{ model: 'emu-chat-small', messages: [{ role: 'user', content: 42 }] }, 'invalid_messages'],
      [chatBody('emu-chat-small', { max_tokens: 0 }), 'invalid_parameter'],
      [chatBody('emu-chat-small', { temperature: 'hot' }), 'invalid_parameter'],
      [chatBody('emu-chat-small', { stream: 'yes' }), 'invalid_parameter'],
      [chatBody('emu-chat-small', { service_parameters: [1] }), 'invalid_parameter'],
      [chatBody('emu-image-v1'), 'wrong_model_kind'],
    ];
    for (const [body, code] of cases) {
      const res = await post(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal((JSON.parse(res.text) as { error: { code: string } }).error.code, code, JSON.stringify(body));
    }
    assert.equal(emu().balance('production'), 1000, 'rejected calls cost nothing');
  });

  it('returns 404 for a model id of the other environment, with no charge', async () => {
    const res = await post(chatBody('emu-chat-next'));
    assert.equal(res.status, 404);
    assert.equal((JSON.parse(res.text) as { error: { code: string } }).error.code, 'model_not_found');
    assert.equal(emu().balance('production'), 1000);
  });

  it('records service_parameters as received', async () => {
    await post(chatBody('emu-chat-small', { service_parameters: { reasoning: 'low', tags: ['a'] } }));
    assert.deepEqual(emu().requests.at(-1)?.serviceParameters, { reasoning: 'low', tags: ['a'] });
    assert.equal(emu().requests.at(-1)?.keyLabel, 'full');
  });

  it('returns 402 for the broke key and when the wallet cannot cover the reserve', async () => {
    const broke = await post(chatBody('emu-chat-small'), emu().keys.production.broke);
    assert.equal(broke.status, 402);
    assert.equal(broke.headers['x-service-balance-credits'], '0');
    emu().setBalance('production', 1);
    const low = await post(chatBody('emu-chat-small'));
    assert.equal(low.status, 402, 'the default reserve (4096 tokens) exceeds 1 credit');
    const small = await post(chatBody('emu-chat-small', { max_tokens: 10 }));
    assert.equal(small.status, 200, 'a small max_tokens reserve fits');
    assert.ok(emu().balance('production') < 1);
  });

  it('reports the balance after the reserve on streams, then settles to the actual cost', async () => {
    const res = await post(chatBody('emu-chat-small', { stream: true }));
    const afterReserve = Number(res.headers['x-service-balance-credits']);
    assert.ok(afterReserve < 1000 - 8, `reserve of ~8.7 credits taken, header ${afterReserve}`);
    const record = emu().requests.at(-1);
    assert.ok(record && record.creditsCharged > 0.5 && record.creditsCharged < 1);
    assert.ok(Math.abs(emu().balance('production') - (1000 - record.creditsCharged)) < 1e-9);
  });
});

describe('emulator: chat pacing and client aborts', () => {
  const emu = useEmulator({ tokensPerSecond: 100 });
  const url = (): string => `${emu().environments.production.baseUrl}/chat/completions`;

  it('paces tokens at tokensPerSecond', async () => {
    const started = Date.now();
    const res = await rawRequest(url(), { headers: bearer(emu().keys.production.full), body: chatBody('emu-chat-small', { max_tokens: 20 }) });
    assert.equal(res.status, 200);
    assert.ok(Date.now() - started >= 190, `took ${Date.now() - started} ms`);
  });

  it('stops generating on a mid-stream abort and refunds what was not sent', async () => {
    const complete = await rawRequest(url(), { headers: bearer(emu().keys.production.full), body: chatBody('emu-chat-small', { stream: true }) });
    assert.equal(complete.status, 200);
    const spentComplete = 1000 - emu().balance('production');
    emu().reset();

    const controller = new AbortController();
    const res = await undiciRequest(url(), {
      method: 'POST', signal: controller.signal,
      headers: { ...bearer(emu().keys.production.full), 'content-type': 'application/json' },
      body: JSON.stringify(chatBody('emu-chat-small', { stream: true })),
    });
    let received = '';
    await assert.rejects(async () => {
      for await (const piece of res.body) {
        received += (piece as Buffer).toString('utf8');
        if ((received.match(/"content":"[^"]/g) ?? []).length >= 3) controller.abort();
      }
    });
    const record = emu().requests.at(-1);
    await waitFor('the request to finish', () => record?.finishedAt !== undefined, { timeoutMs: 3000, intervalMs: 10 });
    assert.ok(record?.clientClosedAt !== undefined, 'the log saw the client leave');
    const bytesAtClose = record?.bytesSent;
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(record?.bytesSent, bytesAtClose, 'nothing more was generated after the abort');
    const spentAborted = 1000 - emu().balance('production');
    assert.ok(spentAborted > 0, 'the sent part is charged');
    assert.ok(spentAborted < spentComplete, `aborted ${spentAborted} < complete ${spentComplete}`);
    assert.ok(Math.abs((record?.creditsCharged ?? 0) - spentAborted) < 1e-9);
  });

  it('refunds all output of a non-streaming call the client abandons while it is generated', async () => {
    const controller = new AbortController();
    const pending = undiciRequest(url(), {
      method: 'POST', signal: controller.signal,
      headers: { ...bearer(emu().keys.production.full), 'content-type': 'application/json' },
      body: JSON.stringify(chatBody('emu-chat-small')),
    });
    await waitFor('the request to be logged', () => emu().requests.length === 1, { timeoutMs: 3000, intervalMs: 10 });
    controller.abort();
    await assert.rejects(pending);
    const record = emu().requests[0];
    await waitFor('the request to finish', () => record.finishedAt !== undefined, { timeoutMs: 3000, intervalMs: 10 });
    assert.equal(record.status, 0, 'no answer was sent');
    assert.ok(record.clientClosedAt !== undefined);
    const promptTokens = 5; // "Tell me about emulators" = 4 words + 1 per message
    assert.ok(Math.abs(record.creditsCharged - (0.5 + promptTokens * 0.002)) < 1e-9, `charged ${record.creditsCharged}`);
  });

  it('survives a client that disconnects halfway through uploading the body', async () => {
    const { port } = new URL(url());
    await new Promise<void>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/api/v1/chat/completions', headers: { 'content-length': '1000', ...bearer(emu().keys.production.full) } });
      req.on('error', () => resolve());
      req.write('{"model":');
      setTimeout(() => { req.destroy(); resolve(); }, 30);
    });
    await waitFor('the request to finish', () => emu().requests[0]?.finishedAt !== undefined, { timeoutMs: 3000, intervalMs: 10 });
    const res = await rawRequest(url(), { headers: bearer(emu().keys.production.full), body: chatBody('emu-chat-small', { max_tokens: 3 }) });
    assert.equal(res.status, 200, 'still serving');
    assert.equal(emu().requests[0].clientClosedAt !== undefined, true);
  });
});
