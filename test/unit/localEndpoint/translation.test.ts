/** The Anthropic Messages ↔ common chat-completions translation, pure and in milliseconds. */
import assert from 'node:assert/strict';
import { anthropicToChat, TranslationError } from '../../../src/core/localEndpoint/anthropicRequest';
import {
  AnthropicStreamTranslator, anthropicErrorBody, anthropicModelList, completionToMessage, stopReasonOf, toolInputOf,
} from '../../../src/core/localEndpoint/anthropicResponse';

interface Event { event: string; data: Record<string, unknown> & { type: string } }

function events(text: string): Event[] {
  return text.split('\n\n').filter(Boolean).map((block) => {
    const [eventLine, dataLine] = block.split('\n');
    return { event: eventLine.slice('event: '.length), data: JSON.parse(dataLine.slice('data: '.length)) as Event['data'] };
  });
}

const weatherTool = { name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

describe('local endpoint: Anthropic request → chat completions', () => {
  it('maps system, turns, text blocks, max_tokens, temperature, top_p and stop_sequences', () => {
    const { chat, stream, model } = anthropicToChat({
      model: 'emu-chat-small', max_tokens: 64, temperature: 0.3, top_p: 0.9, top_k: 5, stop_sequences: ['END'],
      system: [{ type: 'text', text: 'Be brief. ' }, { type: 'text', text: 'Be kind.' }],
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
        { role: 'user', content: [{ type: 'text', text: 'Part one, ' }, { type: 'text', text: 'part two' }] },
      ],
      metadata: { user_id: 'u' },
    });
    assert.equal(stream, false);
    assert.equal(model, 'emu-chat-small');
    assert.deepEqual(chat, {
      model: 'emu-chat-small', max_tokens: 64, temperature: 0.3, top_p: 0.9, stop: ['END'],
      messages: [
        { role: 'system', content: 'Be brief. Be kind.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'Part one, part two' },
      ],
    });
  });

  it('maps tools, tool_choice, tool_use and tool_result blocks to tools, tool_calls and tool messages', () => {
    const { chat } = anthropicToChat({
      model: 'm', max_tokens: 10, tools: [weatherTool], tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
      messages: [
        { role: 'user', content: 'Weather in Bern?' },
        { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Bern' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '18 °C' }] }, { type: 'text', text: 'And tomorrow?' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Bern' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'no data', is_error: true }] },
      ],
    });
    assert.deepEqual(chat.tools, [{ type: 'function', function: { name: 'get_weather', description: 'Weather of a city', parameters: weatherTool.input_schema } }]);
    assert.deepEqual(chat.tool_choice, { type: 'function', function: { name: 'get_weather' } });
    assert.equal(chat.parallel_tool_calls, false);
    assert.deepEqual(chat.messages, [
      { role: 'user', content: 'Weather in Bern?' },
      { role: 'assistant', content: 'Checking.', tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Bern"}' } }] },
      { role: 'tool', tool_call_id: 'toolu_1', content: '18 °C' },
      { role: 'user', content: 'And tomorrow?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Bern"}' } }] },
      { role: 'tool', tool_call_id: 'toolu_2', content: 'Error: no data' },
    ]);
    assert.equal(anthropicToChat({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'x' }], tool_choice: { type: 'any' } }).chat.tool_choice, 'required');
  });

  it('asks for a stream with the usage chunk', () => {
    const { chat, stream } = anthropicToChat({ model: 'm', max_tokens: 5, stream: true, messages: [{ role: 'user', content: 'x' }] });
    assert.equal(stream, true);
    assert.equal(chat.stream, true);
    assert.deepEqual(chat.stream_options, { include_usage: true });
  });

  it('refuses what has no counterpart with a message that says what', () => {
    const refuse = (body: unknown, pattern: RegExp) => assert.throws(() => anthropicToChat(body), (e: unknown) => e instanceof TranslationError && pattern.test(e.message));
    const base = { model: 'm', max_tokens: 5 };
    refuse({ ...base, messages: [{ role: 'user', content: [{ type: 'image', source: {} }] }] }, /"image" blocks cannot be sent/);
    refuse({ model: 'm', messages: [{ role: 'user', content: 'x' }] }, /max_tokens/);
    refuse({ ...base, messages: [] }, /non-empty/);
    refuse({ ...base, messages: [{ role: 'system', content: 'x' }] }, /role/);
    refuse({ ...base, messages: [{ role: 'user', content: 'x' }], stop_sequences: ['a', 'b', 'c', 'd', 'e'] }, /at most 4/);
    refuse({ ...base, messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'web_search_20250305', name: 'web_search' }] }, /server tools/);
    refuse({ ...base, messages: [{ role: 'assistant', content: [{ type: 'tool_result', tool_use_id: 'x' }] }] }, /belong to user turns/);
  });
});

describe('local endpoint: chat completions → Anthropic responses', () => {
  it('turns a completion with text and tool calls into one message', () => {
    const message = completionToMessage({
      id: 'chatcmpl-1',
      choices: [{ message: { role: 'assistant', content: 'Sure.', tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Bern"}' } }] }, finish_reason: 'tool_calls' }],
      usage: { prompt_tokens: 12, completion_tokens: 7 },
    }, 'emu-chat-small');
    assert.match(String(message.id), /^msg_/);
    assert.deepEqual({ ...message, id: 'x' }, {
      id: 'x', type: 'message', role: 'assistant', model: 'emu-chat-small',
      content: [{ type: 'text', text: 'Sure.' }, { type: 'tool_use', id: 'call_9', name: 'get_weather', input: { city: 'Bern' } }],
      stop_reason: 'tool_use', stop_sequence: null, usage: { input_tokens: 12, output_tokens: 7 },
    });
  });

  it('maps finish reasons and keeps arguments that are not a JSON object', () => {
    assert.deepEqual(['stop', 'length', 'tool_calls', 'content_filter', undefined, 'other'].map(stopReasonOf), ['end_turn', 'max_tokens', 'tool_use', 'refusal', 'end_turn', 'end_turn']);
    assert.deepEqual(toolInputOf('{"a":1}'), { a: 1 });
    assert.deepEqual(toolInputOf(''), {});
    assert.deepEqual(toolInputOf('[1,2'), { _unparsed_arguments: '[1,2' });
  });

  it('streams text then tool calls as the protocol event sequence', () => {
    const t = new AnthropicStreamTranslator('emu-chat-small', 'msg_test');
    const chunk = (delta: unknown, finish: string | null = null) => ({ choices: [{ index: 0, delta, finish_reason: finish }] });
    const text = t.start()
      + t.chunk(chunk({ role: 'assistant', content: '' }))
      + t.chunk(chunk({ content: 'Let me ' }))
      + t.chunk(chunk({ content: 'check.' }))
      + t.chunk(chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } }] }))
      + t.chunk(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }))
      + t.chunk(chunk({ tool_calls: [{ index: 0, function: { arguments: '"Bern"}' } }] }))
      + t.chunk(chunk({ tool_calls: [{ index: 1, id: 'call_b', function: { name: 'get_time', arguments: '{}' } }] }))
      + t.chunk(chunk({}, 'tool_calls'))
      + t.chunk({ choices: [], usage: { prompt_tokens: 9, completion_tokens: 4 } })
      + t.finish();
    const seq = events(text);
    assert.ok(seq.every((e) => e.event === e.data.type), 'the event name matches the data type');
    assert.deepEqual(seq.map((e) => e.event), [
      'message_start',
      'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'content_block_start', 'content_block_delta', 'content_block_stop',
      'message_delta', 'message_stop',
    ]);
    assert.deepEqual(seq[0].data.message, {
      id: 'msg_test', type: 'message', role: 'assistant', model: 'emu-chat-small', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 },
    });
    assert.deepEqual(seq[1].data.content_block, { type: 'text', text: '' });
    assert.deepEqual(seq[2].data.delta, { type: 'text_delta', text: 'Let me ' });
    assert.deepEqual(seq[5].data, { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'call_a', name: 'get_weather', input: {} } });
    assert.deepEqual(seq[6].data.delta, { type: 'input_json_delta', partial_json: '{"city":' });
    assert.deepEqual(seq[9].data.content_block, { type: 'tool_use', id: 'call_b', name: 'get_time', input: {} });
    assert.deepEqual(seq[12].data, { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { input_tokens: 9, output_tokens: 4 } });
    assert.equal(t.finish(), '', 'a finished message ends once');
  });

  it('ends a failed stream with an error event after closing the open block', () => {
    const t = new AnthropicStreamTranslator('m');
    const seq = events(t.start() + t.chunk({ choices: [{ delta: { content: 'partial' } }] }) + t.error('api_error', 'boom'));
    assert.deepEqual(seq.map((e) => e.event), ['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'error']);
    assert.deepEqual(seq[4].data, { type: 'error', error: { type: 'api_error', message: 'boom' } });
    assert.equal(t.finish(), '');
  });

  it('lists models and shapes errors as the protocol does, status by status', () => {
    assert.deepEqual(anthropicModelList([{ id: 'a', object: 'model', created: 0 }, { id: 'b', object: 'model', created: 1700000000 }]), {
      data: [
        { type: 'model', id: 'a', display_name: 'a', created_at: '1970-01-01T00:00:00.000Z' },
        { type: 'model', id: 'b', display_name: 'b', created_at: '2023-11-14T22:13:20.000Z' },
      ],
      has_more: false, first_id: 'a', last_id: 'b',
    });
    const types = [400, 401, 402, 403, 404, 413, 429, 500, 503].map((s) => (anthropicErrorBody(s, 'm').error as { type: string }).type);
    assert.deepEqual(types, ['invalid_request_error', 'authentication_error', 'billing_error', 'permission_error', 'not_found_error', 'request_too_large', 'rate_limit_error', 'api_error', 'api_error']);
  });
});
