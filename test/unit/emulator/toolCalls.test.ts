/** Scripted tool calls (a test control): the common format's tool_calls, streamed and not, and tool turns in the log. */
import assert from 'node:assert/strict';
import { bearer, chatBody, parseSse, rawRequest, useEmulator } from './helpers';

interface ToolChunk { choices: { delta: { content?: string; tool_calls?: { index: number; id?: string; function: { name?: string; arguments?: string } }[] }; finish_reason: string | null }[] }

describe('emulator: scripted tool calls', () => {
  const emu = useEmulator();
  const post = (body: unknown): ReturnType<typeof rawRequest> =>
    rawRequest(`${emu().environments.production.baseUrl}/chat/completions`, { headers: bearer(emu().keys.production.full), body });
  const weather = { name: 'get_weather', arguments: '{"city":"Zürich","unit":"celsius"}' };

  it('answers a non-streamed request with tool_calls and finish_reason tool_calls', async () => {
    emu().scriptReply('production', { text: '', toolCalls: [weather] });
    const res = await post(chatBody('emu-chat-small', { tools: [{ type: 'function', function: { name: 'get_weather', parameters: {} } }] }));
    const body = JSON.parse(res.text) as { choices: { message: { content: string | null; tool_calls: { id: string; type: string; function: { name: string; arguments: string } }[] }; finish_reason: string }[] };
    const choice = body.choices[0];
    assert.equal(choice.finish_reason, 'tool_calls');
    assert.equal(choice.message.content, null);
    assert.equal(choice.message.tool_calls[0].type, 'function');
    assert.match(choice.message.tool_calls[0].id, /^call_/);
    assert.deepEqual(choice.message.tool_calls[0].function, weather);
    assert.deepEqual(emu().requests.at(-1)?.chat?.tools, ['get_weather']);
  });

  it('streams the text, then each call opening with id and name and its arguments in pieces', async () => {
    emu().scriptReply('production', { text: 'Let me check.', toolCalls: [weather, { name: 'get_time', arguments: '{}' }], chunkChars: 5 });
    const res = await post(chatBody('emu-chat-small', { stream: true }));
    const chunks = parseSse(res.text).filter((e) => e.data && e.data !== '[DONE]').map((e) => JSON.parse(e.data ?? '') as ToolChunk);
    const deltas = chunks.map((c) => c.choices[0]?.delta).filter(Boolean);
    assert.equal(deltas.map((d) => d.content ?? '').join(''), 'Let me check.');
    const calls = deltas.flatMap((d) => d.tool_calls ?? []);
    assert.equal(calls.filter((c) => c.id).length, 2);
    assert.equal(calls.filter((c) => c.index === 0).map((c) => c.function.arguments ?? '').join(''), weather.arguments);
    assert.ok(calls.filter((c) => c.index === 0 && c.function.arguments).every((c) => [...(c.function.arguments ?? '')].length <= 5));
    assert.equal(chunks.map((c) => c.choices[0]?.finish_reason).find(Boolean), 'tool_calls');
  });

  it('accepts and records assistant tool_calls and tool results, and refuses a tool message without tool_call_id', async () => {
    const messages = [
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: weather }] },
      { role: 'tool', tool_call_id: 'call_1', content: '21 °C' },
    ];
    const ok = await post({ model: 'emu-chat-small', messages });
    assert.equal(ok.status, 200);
    const logged = emu().requests.at(-1)?.chat?.messages;
    assert.deepEqual(logged?.[1].tool_calls, [{ id: 'call_1', ...weather }]);
    assert.equal(logged?.[2].tool_call_id, 'call_1');
    const bad = await post({ model: 'emu-chat-small', messages: [...messages.slice(0, 2), { role: 'tool', content: 'x' }] });
    assert.equal(bad.status, 400);
  });
});
