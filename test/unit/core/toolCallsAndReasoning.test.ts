/** Tool calls and reasoning text in the core: stream parsing, assembly by index, and the client against the emulator. */
import assert from 'node:assert/strict';
import { chatResultFromJson } from '../../../src/core/api/chatCompletion';
import { parseChatEventStream } from '../../../src/core/api/chatStream';
import { ApiError } from '../../../src/core/api/errors';
import { ToolCallAssembler } from '../../../src/core/api/toolCalls';
import type { ChatRequest, ChatStreamEvent, CompletedToolCall } from '../../../src/core/api/types';
import { drain, useEmulator } from './support';

const META = { status: 200, receivedAt: 0 };

async function* bytes(...pieces: string[]): AsyncGenerator<Uint8Array> {
  for (const piece of pieces) yield new TextEncoder().encode(piece);
}

const data = (delta: Record<string, unknown>, finish: string | null = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const callPiece = (index: number, fn: Record<string, unknown>, id?: string) => data({ tool_calls: [{ index, ...(id && { id, type: 'function' }), function: fn }] });
const calls = (events: ChatStreamEvent[]): CompletedToolCall[] => events.flatMap((e) => (e.type === 'toolCall' ? [e.call] : []));
/** Streams the pieces as an answer to a request that offered these tools. */
const parse = (offeredTools: readonly string[], ...pieces: string[]) => drain(parseChatEventStream(bytes(...pieces), META, { offeredTools }));

const WEATHER = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } },
};

describe('core: tool calls and reasoning', () => {
  describe('parseChatEventStream', () => {
    it('assembles two interleaved tool calls by index and emits them only at the finish reason', async () => {
      const outcome = await parse(['get_weather', 'get_time'],
        callPiece(0, { name: 'get_weather', arguments: '' }, 'call_a'),
        callPiece(1, { name: 'get_time', arguments: '{"tz"' }, 'call_b'),
        callPiece(0, { arguments: '{"ci' }),
        callPiece(1, { arguments: ':"UTC"}' }),
        callPiece(0, { arguments: 'ty":"Oslo"}' }),
        data({}, 'tool_calls'),
        'data: [DONE]\n\n',
      );
      assert.equal(outcome.error, undefined);
      assert.deepEqual(calls(outcome.events), [
        { id: 'call_a', name: 'get_weather', arguments: '{"city":"Oslo"}', input: { city: 'Oslo' } },
        { id: 'call_b', name: 'get_time', arguments: '{"tz":"UTC"}', input: { tz: 'UTC' } },
      ]);
      const types = outcome.events.map((e) => e.type);
      assert.deepEqual(types, ['toolCall', 'toolCall', 'finish', 'end'], 'nothing is emitted for the pieces themselves');
    });

    it('flushes tool calls of a stream that ends without a finish reason', async () => {
      const outcome = await parse(['ls'], callPiece(0, { name: 'ls', arguments: '{}' }, 'c1'), 'data: [DONE]\n\n');
      assert.deepEqual(calls(outcome.events).map((c) => c.name), ['ls']);
    });

    it('turns malformed arguments into a clear malformedResponse after the text that preceded them, with no call', async () => {
      const outcome = await parse(['get_weather'],
        data({ content: 'Let me look.' }),
        callPiece(0, { name: 'get_weather', arguments: '{"city": Oslo' }, 'c1'),
        data({}, 'tool_calls'),
        'data: [DONE]\n\n',
      );
      assert.equal(outcome.text, 'Let me look.');
      assert.deepEqual(calls(outcome.events), []);
      assert.ok(outcome.error instanceof ApiError);
      assert.equal(outcome.error.kind, 'malformedResponse');
      assert.match(outcome.error.message, /get_weather.*not valid JSON/);
    });

    // Issue 27, item 6: the language-model provider passes every call on as a LanguageModelToolCallPart.
    describe('only calls to tools the request offered, with no prototype keys', () => {
      const refusedWith = (outcome: Awaited<ReturnType<typeof parse>>, pattern: RegExp) => {
        assert.deepEqual(calls(outcome.events), [], 'no call comes out');
        assert.ok(outcome.error instanceof ApiError && outcome.error.kind === 'malformedResponse', String(outcome.error));
        assert.match(outcome.error.message, pattern);
      };
      const oneCall = (fn: Record<string, unknown>) => [callPiece(0, fn, 'c1'), data({}, 'tool_calls'), 'data: [DONE]\n\n'];

      it('refuses any call when the request offered no tools, after the text before it', async () => {
        const outcome = await parse([], data({ content: 'Sure.' }), ...oneCall({ name: 'run_in_terminal', arguments: '{"command":"rm -rf ~"}' }));
        assert.equal(outcome.text, 'Sure.');
        refusedWith(outcome, /"run_in_terminal", which this request did not offer/);
      });

      it('checks the whole name of a call whose name is split across chunks', async () => {
        const split = [
          callPiece(0, { name: 'run_in', arguments: '' }, 'c1'),
          callPiece(0, { name: '_terminal', arguments: '{}' }),
          data({}, 'tool_calls'),
          'data: [DONE]\n\n',
        ];
        refusedWith(await parse(['run_in', 'read_file'], ...split), /"run_in_terminal", which this request did not offer/);
        assert.deepEqual(calls((await parse(['run_in_terminal'], ...split)).events).map((c) => c.name), ['run_in_terminal'], 'an offered name split in two is fine');
      });

      it('refuses a call to another tool even when the answer also calls an offered one', async () => {
        const outcome = await parse(['get_weather'],
          callPiece(0, { name: 'get_weather', arguments: '{}' }, 'c1'),
          callPiece(1, { name: 'delete_files', arguments: '{}' }, 'c2'),
          data({}, 'tool_calls'),
        );
        refusedWith(outcome, /"delete_files"/);
      });

      it('refuses arguments with an own __proto__, constructor or prototype key at any depth', async () => {
        for (const [args, key] of [
          ['{"__proto__":{"isAdmin":true}}', '__proto__'],
          ['{"city":"Oslo","options":{"constructor":{"prototype":{"polluted":1}}}}', 'constructor'],
          ['{"list":[1,{"deep":[{"prototype":{}}]}]}', 'prototype'],
        ]) {
          refusedWith(await parse(['get_weather'], ...oneCall({ name: 'get_weather', arguments: args })), new RegExp(`"get_weather" with the key "${key}"`));
        }
        const object = await parse(['get_weather'], ...oneCall({ name: 'get_weather', arguments: { nested: JSON.parse('{"__proto__":{"x":1}}') as object } }));
        refusedWith(object, /"__proto__"/);
        const fine = await parse(['get_weather'], ...oneCall({ name: 'get_weather', arguments: '{"city":"Oslo","proto":"x","constructors":["a"]}' }));
        assert.deepEqual(calls(fine.events)[0]?.input, { city: 'Oslo', proto: 'x', constructors: ['a'] });
      });

      it('applies the same rules to a non-streamed completion', () => {
        const body = (name: string, args: string) => ({ choices: [{ message: { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name, arguments: args } }] }, finish_reason: 'tool_calls' }] });
        assert.throws(() => chatResultFromJson(body('get_weather', '{}'), META, []), /did not offer/);
        assert.throws(() => chatResultFromJson(body('get_weather', '{"__proto__":{}}'), META, ['get_weather']), /"__proto__"/);
        assert.deepEqual(chatResultFromJson(body('get_weather', '{"city":"Oslo"}'), META, ['get_weather']).toolCalls?.map((c) => c.input), [{ city: 'Oslo' }]);
      });
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
      const assembler = new ToolCallAssembler(['a', 'b', 'now']);
      assembler.add([{ id: 'x', function: { name: 'a', arguments: '{"n":' } }]);
      assembler.add([{ function: { arguments: '1}' } }]);
      assembler.add([{ id: 'y', function: { name: 'b', arguments: { already: 'object' } } }]);
      assert.deepEqual(assembler.finish(META).map((c) => [c.id, c.name, c.input]), [['x', 'a', { n: 1 }], ['y', 'b', { already: 'object' }]]);
      assert.equal(assembler.pending, false);
    });

    it('refuses arguments that parse to something other than an object, and a call without a name', () => {
      const array = new ToolCallAssembler(['a', 'b', 'now']);
      array.add([{ index: 0, id: 'x', function: { name: 'a', arguments: '[1]' } }]);
      assert.throws(() => array.finish(META), /not a JSON object/);
      const nameless = new ToolCallAssembler(['a', 'b', 'now']);
      nameless.add([{ index: 0, id: 'x', function: { arguments: '{}' } }]);
      assert.throws(() => nameless.finish(META), /without a tool name/);
    });

    it('reads empty arguments as an empty object', () => {
      const assembler = new ToolCallAssembler(['a', 'b', 'now']);
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

    it('refuses a scripted call when the request offered no tools', async () => {
      emulator().scriptReply('production', { text: 'Running it.', toolCalls: [{ name: 'run_in_terminal', arguments: '{"command":"ls"}' }] });
      const outcome = await drain(client().streamChat({ model: model(), messages: [{ role: 'user', content: 'hi' }] }));
      assert.equal(outcome.text, 'Running it.');
      assert.deepEqual(calls(outcome.events), []);
      assert.ok(outcome.error instanceof ApiError && /did not offer/.test(outcome.error.message), String(outcome.error));
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
