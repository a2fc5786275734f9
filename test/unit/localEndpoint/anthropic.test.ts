/** The local endpoint's Anthropic side with the official @anthropic-ai/sdk client, against the emulator. */
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { rawRequest } from '../emulator/helpers';
import { useLocalEndpoint } from './support';

describe('local endpoint: Anthropic Messages translation', () => {
  const fixture = useLocalEndpoint();
  const anthropic = (origin: string, token: string) => new Anthropic({ apiKey: token, baseURL: origin, maxRetries: 0 });
  /** The emulator's answer to the same conversation, asked directly in the common format. */
  const directText = async (content: string, system?: string): Promise<string> => {
    const { emulator } = fixture();
    const direct = new OpenAI({ apiKey: emulator.keys.production.full, baseURL: emulator.environments.production.baseUrl, maxRetries: 0 });
    const messages = [...(system ? [{ role: 'system' as const, content: system }] : []), { role: 'user' as const, content }];
    return (await direct.chat.completions.create({ model: 'emu-chat-small', messages })).choices[0].message.content ?? '';
  };

  it('lists the chat models in the Anthropic shape', async () => {
    const { origin, token } = await fixture().start();
    const page = await anthropic(origin, token).models.list();
    assert.deepEqual(page.data.map((m) => [m.type, m.id]), fixture().emulator.environments.production.chatModels.map((id) => ['model', id]));
    const one = await anthropic(origin, token).models.retrieve('emu-chat-large');
    assert.deepEqual([one.type, one.id], ['model', 'emu-chat-large']);
    const missing = await anthropic(origin, token).models.retrieve('emu-image-v1').catch((e: unknown) => e);
    assert.ok(missing instanceof Anthropic.NotFoundError, 'an image model is not a chat model');
  });

  it('answers a non-streamed message with the emulator\'s exact text, usage and headers', async () => {
    const { origin, token } = await fixture().start();
    const expected = await directText('non-streamed please');
    const { data: message, response } = await anthropic(origin, token).messages
      .create({ model: 'emu-chat-small', max_tokens: 1024, messages: [{ role: 'user', content: 'non-streamed please' }] }).withResponse();
    assert.deepEqual(message.content, [{ type: 'text', text: expected }]);
    assert.equal(message.stop_reason, 'end_turn');
    assert.ok(message.usage.output_tokens > 10 && message.usage.input_tokens > 0);
    const record = fixture().emulator.requests.at(-1);
    assert.equal(response.headers.get('request-id'), record?.id);
    assert.equal(response.headers.get('x-request-id'), record?.id);
    assert.ok(response.headers.get('x-service-balance-credits'));
    assert.deepEqual(record?.chat?.messages, [{ role: 'user', content: 'non-streamed please' }]);
    assert.equal(record?.chat?.max_tokens, 1024);
  });

  it('streams the protocol event sequence with the emulator\'s exact text', async () => {
    const { origin, token } = await fixture().start();
    const expected = await directText('streamed please', 'Be brief.');
    const stream = anthropic(origin, token).messages.stream({ model: 'emu-chat-small', max_tokens: 1024, system: 'Be brief.', messages: [{ role: 'user', content: 'streamed please' }] });
    const types: string[] = [];
    let text = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    }
    const final = await stream.finalMessage();
    assert.equal(text, expected);
    assert.equal(text, (final.content[0] as { text: string }).text);
    assert.deepEqual([...new Set(types)], ['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    assert.equal(final.stop_reason, 'end_turn');
    assert.ok(final.usage.output_tokens > 10);
    assert.equal(fixture().emulator.requests.at(-1)?.chat?.messages[0].content, 'Be brief.');
  });

  it('makes a tool round trip: tool_use with parsed input, then tool_result back as a tool message', async () => {
    const { emulator } = fixture();
    const { origin, token } = await fixture().start();
    const client = anthropic(origin, token);
    const tools = [{ name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } }];
    for (const stream of [false, true]) {
      emulator.scriptReply('production', { text: 'Checking.', toolCalls: [{ name: 'get_weather', arguments: '{"city":"Zürich"}' }], chunkChars: 4 });
      const request = { model: 'emu-chat-small', max_tokens: 200, tools, messages: [{ role: 'user' as const, content: 'Weather in Zürich?' }] };
      const first = stream ? await client.messages.stream(request).finalMessage() : await client.messages.create(request);
      assert.equal(first.stop_reason, 'tool_use');
      assert.equal(first.content[0].type === 'text' && first.content[0].text, 'Checking.');
      const use = first.content[1];
      assert.ok(use.type === 'tool_use');
      assert.deepEqual(use.input, { city: 'Zürich' });
      assert.deepEqual(emulator.requests.at(-1)?.chat?.tools, ['get_weather']);

      const second = await client.messages.create({
        ...request,
        messages: [...request.messages, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '21 °C' }] }],
      });
      assert.equal(second.stop_reason, 'end_turn');
      const sent = emulator.requests.at(-1)?.chat?.messages ?? [];
      assert.deepEqual(sent[1].tool_calls, [{ id: use.id, name: 'get_weather', arguments: '{"city":"Zürich"}' }]);
      assert.deepEqual({ role: sent[2].role, tool_call_id: sent[2].tool_call_id, content: sent[2].content }, { role: 'tool', tool_call_id: use.id, content: '21 °C' });
    }
  });

  it('maps 401, 402, 404 and 429 to the protocol\'s errors with the status and Retry-After kept', async () => {
    const { emulator } = fixture();
    const request = { model: 'emu-chat-small', max_tokens: 50, messages: [{ role: 'user' as const, content: 'hi' }] };
    const { origin, token } = await fixture().start();
    const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e);

    const e401 = await failure(anthropic(origin, 'wrong').messages.create(request));
    assert.ok(e401 instanceof Anthropic.AuthenticationError, String(e401));
    assert.equal(emulator.requests.length, 0, 'a wrong token never reaches the service');

    const broke = await fixture().start({ key: emulator.keys.production.broke });
    const e402 = await failure(anthropic(broke.origin, broke.token).messages.create(request));
    assert.ok(e402 instanceof Anthropic.APIError && e402.status === 402, String(e402));
    assert.equal((e402.error as { error: { type: string } }).error.type, 'billing_error');
    assert.match(e402.message, /insufficient/i);

    const e404 = await failure(anthropic(origin, token).messages.create({ ...request, model: 'emu-chat-next' }));
    assert.ok(e404 instanceof Anthropic.NotFoundError, String(e404));

    emulator.injectFault('production', { fault: 'http-429', retryAfterSeconds: 9 });
    const e429 = await failure(anthropic(origin, token).messages.create(request));
    assert.ok(e429 instanceof Anthropic.RateLimitError, String(e429));
    assert.equal(e429.headers?.get('retry-after'), '9');
    assert.match(e429.requestID ?? '', /^req_/);

    const bad = await failure(anthropic(origin, token).messages.create({ ...request, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } }] }] }));
    assert.ok(bad instanceof Anthropic.BadRequestError, String(bad));
  });

  it('ends a stream that fails mid-way with an error event after the text that arrived', async () => {
    fixture().emulator.injectFault('production', { fault: 'error-mid-stream' });
    const { origin, token } = await fixture().start();
    const res = await rawRequest(`${origin}/v1/messages`, {
      headers: { 'x-api-key': token, 'anthropic-version': '2023-06-01' },
      body: { model: 'emu-chat-small', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'x' }] },
    });
    const names = [...res.text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    assert.equal(names[0], 'message_start');
    assert.ok(names.includes('content_block_delta'));
    assert.equal(names.at(-1), 'error');
    assert.ok(!names.includes('message_stop'));
    assert.match(res.text, /error-mid-stream/);
  });
});
