/**
 * The emulator's tool calls (common chat format) and reasoning text: calls the user names and scripted
 * ones (a test control), streamed and not; tool turns in the log; validation, refusal, billing.
 */
import assert from 'node:assert/strict';
import { bearer, rawRequest, sseChunks, streamedText, useEmulator, type RawResponse } from './helpers';

const WEATHER = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { enum: ['C', 'F'] } } } } };

interface ToolDelta { index: number; id?: string; function: { name?: string; arguments: string } }
interface NonStreamedChoice { message: { content: string | null; tool_calls: { id: string; type: string; function: { name: string; arguments: string } }[] }; finish_reason: string }

describe('emulator: tool calls and reasoning', () => {
  const emu = useEmulator({ modelsWithoutTools: ['emu-chat-small'], toolArgumentChunkChars: 4 });
  const post = (body: Record<string, unknown>) =>
    rawRequest(`${emu().environments.production.baseUrl}/chat/completions`, { headers: bearer(emu().keys.production.full), body: { model: 'emu-chat-large', ...body } });
  const ask = (content: string, extra: Record<string, unknown> = {}) => post({ messages: [{ role: 'user', content }], tools: [WEATHER], stream: true, ...extra });
  const toolDeltas = (text: string): ToolDelta[] =>
    sseChunks(text).flatMap((c) => ((c.choices[0]?.delta as { tool_calls?: ToolDelta[] } | undefined)?.tool_calls ?? []));
  const nonStreamed = (res: RawResponse): NonStreamedChoice => (JSON.parse(res.text) as { choices: NonStreamedChoice[] }).choices[0];

  it('calls a tool the user names, streaming the arguments in pieces, and finishes with tool_calls', async () => {
    const res = await ask('What does get_weather say?');
    assert.equal(res.status, 200);
    const deltas = toolDeltas(res.text);
    assert.equal(deltas[0].function.name, 'get_weather');
    assert.match(deltas[0].id ?? '', /^call_/);
    assert.equal(deltas[0].function.arguments, '');
    assert.ok(deltas.length > 3, 'arguments arrive in several pieces');
    assert.ok(deltas.slice(1).every((d) => d.index === 0 && d.id === undefined && d.function.arguments.length <= 4));
    assert.deepEqual(JSON.parse(deltas.map((d) => d.function.arguments).join('')), { city: 'emulated', unit: 'C' });
    assert.equal(sseChunks(res.text).find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason, 'tool_calls');
    assert.equal(streamedText(res.text), '', 'no answer text with the call');
    const usage = sseChunks(res.text).at(-1)?.usage;
    assert.ok((usage?.completion_tokens ?? 0) > 0, 'the call is billed as output');
    assert.deepEqual(emu().requests.at(-1)?.chat?.tools, ['get_weather']);
  });

  it('answers in text when no tool is named with tool_choice auto, and calls one when it is required or named', async () => {
    assert.deepEqual(toolDeltas((await ask('Hello there')).text), []);
    assert.equal(toolDeltas((await ask('Hello', { tool_choice: 'required' })).text)[0]?.function.name, 'get_weather');
    assert.equal(toolDeltas((await ask('Hello', { tool_choice: { type: 'function', function: { name: 'get_weather' } } })).text)[0]?.function.name, 'get_weather');
    assert.deepEqual(toolDeltas((await ask('get_weather', { tool_choice: 'none' })).text), []);
  });

  it('answers after the tool result, quoting it, and logs the tool turns', async () => {
    const history = [
      { role: 'user', content: 'get_weather for Oslo' },
      { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'Sunny, 21 °C' },
    ];
    const withNullContent = await post({ messages: [history[0], { ...history[1], content: null }, history[2]] });
    assert.equal(withNullContent.status, 200, 'an assistant turn with content null, not streamed, no tools offered');
    const res = await post({ stream: true, tools: [WEATHER], messages: history });
    assert.equal(res.status, 200);
    assert.match(streamedText(res.text), /^Tool results: get_weather returned “Sunny, 21 °C”/);
    assert.deepEqual(toolDeltas(res.text), []);
    const logged = emu().requests.at(-1)?.chat?.messages;
    assert.deepEqual(logged?.[1].tool_calls, [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }]);
    assert.equal(logged?.[2].tool_call_id, 'call_1');
  });

  it('refuses unanswered calls, stray tool messages and malformed tools with 400 and a code', async () => {
    const call = { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ messages: [{ role: 'user', content: 'x' }, call, { role: 'user', content: 'y' }] }, 'missing_tool_result'],
      [{ messages: [{ role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'c9', content: 'r' }] }, 'invalid_tool_message'],
      [{ messages: [{ role: 'user', content: 'x' }, call, { role: 'tool', content: 'r' }] }, 'invalid_messages'],
      [{ messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function', function: { name: 'bad name!' } }] }, 'invalid_tools'],
      [{ messages: [{ role: 'user', content: 'x' }], tool_choice: 'required' }, 'invalid_tool_choice'],
      [{ messages: [{ role: 'user', content: 'x' }], tools: [WEATHER], tool_choice: { type: 'function', function: { name: 'other' } } }, 'invalid_tool_choice'],
    ];
    for (const [body, code] of cases) {
      const res = await post(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal((JSON.parse(res.text) as { error: { code: string } }).error.code, code);
    }
  });

  it('has models that refuse tools (an option), with a 400 that names them and no charge', async () => {
    const before = emu().balance('production');
    const res = await post({ model: 'emu-chat-small', messages: [{ role: 'user', content: 'hi' }], tools: [WEATHER] });
    assert.equal(res.status, 400);
    const { error } = JSON.parse(res.text) as { error: { code: string; message: string } };
    assert.equal(error.code, 'tools_not_supported');
    assert.match(error.message, /tools/);
    assert.equal(emu().balance('production'), before);
    assert.equal((await post({ model: 'emu-chat-small', messages: [{ role: 'user', content: 'hi' }] })).status, 200, 'the same model without tools answers');
  });

  it('streams scripted text, then each call opening with id and name and its arguments in pieces of the scripted size', async () => {
    const weather = { name: 'get_weather', arguments: '{"city":"Zürich","unit":"celsius"}' };
    emu().scriptReply('production', { text: 'Let me check.', toolCalls: [weather, { name: 'get_time', arguments: '{}' }], chunkChars: 5 });
    const res = await post({ messages: [{ role: 'user', content: 'Tell me about emulators' }], stream: true });
    assert.equal(streamedText(res.text), 'Let me check.');
    const calls = toolDeltas(res.text);
    assert.equal(calls.filter((c) => c.id).length, 2);
    const first = calls.filter((c) => c.index === 0 && c.function.arguments);
    assert.equal(first.map((c) => c.function.arguments).join(''), weather.arguments);
    assert.ok(first.every((c) => [...c.function.arguments].length <= 5));
    assert.ok(first.some((c) => [...c.function.arguments].length === 5), 'the script\'s size, not the emulator\'s 4');
    assert.equal(sseChunks(res.text).map((c) => c.choices[0]?.finish_reason).find(Boolean), 'tool_calls');
  });

  it('sends a scripted call exactly, even with malformed arguments', async () => {
    emu().scriptReply('production', { text: '', toolCalls: [{ id: 'fixed', name: 'get_weather', arguments: '{"city": Oslo' }], chunkChars: 5 });
    const deltas = toolDeltas((await ask('x')).text);
    assert.equal(deltas[0].id, 'fixed');
    assert.equal(deltas.map((d) => d.function.arguments).join(''), '{"city": Oslo');
  });

  it('answers a non-streamed request with tool_calls and finish_reason tool_calls, scripted or named by the user', async () => {
    const weather = { name: 'get_weather', arguments: '{"city":"Zürich","unit":"celsius"}' };
    emu().scriptReply('production', { text: '', toolCalls: [weather] });
    const scripted = nonStreamed(await post({ messages: [{ role: 'user', content: 'Tell me about emulators' }], tools: [WEATHER] }));
    assert.equal(scripted.finish_reason, 'tool_calls');
    assert.equal(scripted.message.content, null);
    assert.equal(scripted.message.tool_calls[0].type, 'function');
    assert.match(scripted.message.tool_calls[0].id, /^call_/);
    assert.deepEqual(scripted.message.tool_calls[0].function, weather);
    assert.deepEqual(emu().requests.at(-1)?.chat?.tools, ['get_weather']);
    const named = nonStreamed(await post({ messages: [{ role: 'user', content: 'get_weather' }], tools: [WEATHER] }));
    assert.equal(named.message.content, null);
    assert.equal(named.message.tool_calls[0].function.name, 'get_weather');
    assert.equal(named.finish_reason, 'tool_calls');
  });

  it('streams scripted reasoning before the answer in the field asked for', async () => {
    emu().scriptReply('production', { text: 'Four.', reasoning: 'Two and two make four.' });
    emu().scriptReply('production', { text: 'Four.', reasoning: 'Quick.', reasoningField: 'reasoning' });
    const first = sseChunks((await ask('2+2?')).text).map((c) => c.choices[0]?.delta as Record<string, string> | undefined);
    assert.equal(first.map((d) => d?.reasoning_content ?? '').join(''), 'Two and two make four.');
    const firstContent = first.findIndex((d) => d?.content);
    const lastReasoning = first.map((d) => Boolean(d?.reasoning_content)).lastIndexOf(true);
    assert.ok(lastReasoning < firstContent, 'reasoning comes first');
    const second = sseChunks((await ask('2+2?')).text).map((c) => c.choices[0]?.delta as Record<string, string> | undefined);
    assert.equal(second.map((d) => d?.reasoning ?? '').join(''), 'Quick.');
    assert.equal(second.map((d) => d?.content ?? '').join(''), 'Four.');
  });

  it('validates scripted tool calls and reasoning given over HTTP', async () => {
    const control = (body: unknown) => rawRequest(`${emu().environments.production.origin}/__emulator/reply`, { method: 'POST', body });
    assert.equal((await control({ text: '', toolCalls: [{ name: 'x', arguments: {} }] })).status, 400);
    assert.equal((await control({ text: '', reasoningField: 'thoughts' })).status, 400);
    assert.equal((await control({ text: '', toolCalls: [{ name: 'x', arguments: '{}' }], reasoning: 'r' })).status, 201);
  });
});
