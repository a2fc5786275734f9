/** Tool calls and reasoning text in the core: stream parsing, assembly by index, and the client against the emulator. */
import assert from 'node:assert/strict';
import { parseChatEventStream } from '../../../src/core/chatStream';
import { ApiError } from '../../../src/core/errors';
import { ToolCallAssembler } from '../../../src/core/toolCalls';
import type { ChatRequest, ChatStreamEvent, CompletedToolCall } from '../../../src/core/types';
import { drain, useEmulator } from './support';

const META = { status: 200, receivedAt: 0 };

async function* bytes(...pieces: string[]): AsyncGenerator<Uint8Array> {
  for (const piece of pieces) yield new TextEncoder().encode(piece);
}

const data = (delta: Record<string, unknown>, finish: string | null = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const callPiece = (index: number, fn: Record<string, unknown>, id?: string) => data({ tool_calls: [{ index, ...(id && { id, type: 'function' }), function: fn }] });
const calls = (events: ChatStreamEvent[]): CompletedToolCall[] => events.flatMap((e) => (e.type === 'toolCall' ? [e.call] : []));

const WEATHER = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } },
};

describe('core: tool calls and reasoning', () => {
  describe('parseChatEventStream', () => {
    it('assembles two interleaved tool calls by index and emits them only at the finish reason', async () => {
      const outcome = await drain(parseChatEventStream(bytes(
        callPiece(0, { name: 'get_weather', arguments: '' }, 'call_a'),
        callPiece(1, { name: 'get_time', arguments: '{"tz"' }, 'call_b'),
        callPiece(0, { arguments: '{"ci' }),
        callPiece(1, { arguments: ':"UTC"}' }),
        callPiece(0, { arguments: 'ty":"Oslo"}' }),
        data({}, 'tool_calls'),
        'data: [DONE]\n\n',
      ), META));
      assert.equal(outcome.error, undefined);
      assert.deepEqual(calls(outcome.events), [
        { id: 'call_a', name: 'get_weather', arguments: '{"city":"Oslo"}', input: { city: 'Oslo' } },
        { id: 'call_b', name: 'get_time', arguments: '{"tz":"UTC"}', input: { tz: 'UTC' } },
      ]);
      const types = outcome.events.map((e) => e.type);
      assert.deepEqual(types, ['toolCall', 'toolCall', 'finish', 'end'], 'nothing is emitted for the pieces themselves');
    });

    it('flushes tool calls of a stream that ends without a finish reason', async () => {
      const outcome = await drain(parseChatEventStream(bytes(callPiece(0, { name: 'ls', arguments: '{}' }, 'c1'), 'data: [DONE]\n\n'), META));
      assert.deepEqual(calls(outcome.events).map((c) => c.name), ['ls']);
    });

    it('turns malformed arguments into a clear malformedResponse after the text that preceded them, with no call', async () => {
      const outcome = await drain(parseChatEventStream(bytes(
        data({ content: 'Let me look.' }),
        callPiece(0, { name: 'get_weather', arguments: '{"city": Oslo' }, 'c1'),
        data({}, 'tool_calls'),
        'data: [DONE]\n\n',
      ), META));
      assert.equal(outcome.text, 'Let me look.');
      assert.deepEqual(calls(outcome.events), []);
      assert.ok(outcome.error instanceof ApiError);
      assert.equal(outcome.error.kind, 'malformedResponse');
      assert.match(outcome.error.message, /get_weather.*not valid JSON/);
    });

    it('carries reasoning_content and reasoning as their own events, apart from the answer', async () => {
      const outcome = await drain(parseChatEventStream(bytes(
        data({ reasoning_content: 'Think ' }),
        data({ reasoning: 'harder.' }),
        data({ content: 'Answer.' }),
        'data: [DONE]\n\n',
      ), META));
      assert.deepEqual(outcome.events.filter((e) => e.type === 'reasoning'), [{ type: 'reasoning', text: 'Think ' }, { type: 'reasoning', text: 'harder.' }]);
      assert.equal(outcome.text, 'Answer.');
    });
  });

  describe('ToolCallAssembler', () => {
    it('continues the last call for pieces without an index and starts a new one for a new id', () => {
      const assembler = new ToolCallAssembler();
      assembler.add([{ id: 'x', function: { name: 'a', arguments: '{"n":' } }]);
      assembler.add([{ function: { arguments: '1}' } }]);
      assembler.add([{ id: 'y', function: { name: 'b', arguments: { already: 'object' } } }]);
      assert.deepEqual(assembler.finish(META).map((c) => [c.id, c.name, c.input]), [['x', 'a', { n: 1 }], ['y', 'b', { already: 'object' }]]);
      assert.equal(assembler.pending, false);
    });

    it('refuses arguments that parse to something other than an object, and a call without a name', () => {
      const array = new ToolCallAssembler();
      array.add([{ index: 0, id: 'x', function: { name: 'a', arguments: '[1]' } }]);
      assert.throws(() => array.finish(META), /not a JSON object/);
      const nameless = new ToolCallAssembler();
      nameless.add([{ index: 0, id: 'x', function: { arguments: '{}' } }]);
      assert.throws(() => nameless.finish(META), /without a tool name/);
    });

    it('reads empty arguments as an empty object', () => {
      const assembler = new ToolCallAssembler();
      assembler.add([{ index: 0, id: 'x', function: { name: 'now', arguments: '' } }]);
      assert.deepEqual(assembler.finish(META)[0].input, {});
    });
  });

  describe('InferenceClient against the emulator', () => {
    const { emulator, client } = useEmulator({ toolArgumentChunkChars: 3 });
    const model = () => emulator().environments.production.chatModels[0];
    const ask = (text: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({ model: model(), messages: [{ role: 'user', content: text }], tools: [WEATHER], ...extra });

    it('sends tools and tool_choice, and gets the streamed call back whole', async () => {
      const outcome = await drain(client().streamChat(ask('What does get_weather say for Oslo?')));
      assert.equal(outcome.error, undefined);
      const [call] = calls(outcome.events);
      assert.equal(call?.name, 'get_weather');
      assert.deepEqual(call?.input, { city: 'emulated', days: 1 });
      assert.ok(outcome.events.some((e) => e.type === 'finish' && e.reason === 'tool_calls'));
      assert.deepEqual(emulator().requests.at(-1)?.chat?.tools, ['get_weather']);
      assert.equal(outcome.text, '');
    });

    it('answers with the tool result after a tool message answers the call', async () => {
      const first = calls((await drain(client().streamChat(ask('use get_weather')))).events)[0];
      assert.ok(first);
      const followUp = ask('use get_weather', {
        messages: [
          { role: 'user', content: 'use get_weather' },
          { role: 'assistant', content: null, tool_calls: [{ id: first.id, type: 'function', function: { name: first.name, arguments: first.arguments } }] },
          { role: 'tool', tool_call_id: first.id, content: 'Sunny, 21 °C' },
        ],
      });
      const outcome = await drain(client().streamChat(followUp));
      assert.equal(outcome.error, undefined);
      assert.match(outcome.text, /get_weather returned “Sunny, 21 °C”/);
      assert.deepEqual(calls(outcome.events), []);
    });

    it('returns tool calls from a non-streaming completion too', async () => {
      const result = await client().chat(ask('call get_weather please'));
      assert.equal(result.toolCalls?.[0]?.name, 'get_weather');
      assert.equal(result.finishReason, 'tool_calls');
    });

    it('reports scripted malformed arguments as an error, never as a call', async () => {
      emulator().scriptReply('production', { text: 'Checking.', toolCalls: [{ name: 'get_weather', arguments: '{"city":' }] });
      const outcome = await drain(client().streamChat(ask('anything')));
      assert.equal(outcome.text, 'Checking.');
      assert.deepEqual(calls(outcome.events), []);
      assert.ok(outcome.error instanceof ApiError && outcome.error.kind === 'malformedResponse');
    });

    it('carries the emulator\'s scripted reasoning as reasoning events, not answer text', async () => {
      emulator().scriptReply('production', { text: 'Four.', reasoning: 'Two plus two is four.', reasoningField: 'reasoning' });
      const outcome = await drain(client().streamChat({ model: model(), messages: [{ role: 'user', content: '2+2?' }] }));
      const reasoning = outcome.events.flatMap((e) => (e.type === 'reasoning' ? [e.text] : [])).join('');
      assert.equal(reasoning, 'Two plus two is four.');
      assert.equal(outcome.text, 'Four.');
    });
  });
});
