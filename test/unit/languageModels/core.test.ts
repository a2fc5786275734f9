/** The vscode-free parts of the language model provider: model profiles, message mapping, token estimate. */
import assert from 'node:assert/strict';
import { toChatMessages, type NeutralMessage } from '../../../src/core/languageModels/messages';
import { DEFAULT_MAX_INPUT_TOKENS, familyAndVersion, modelProfile, refusesTools } from '../../../src/core/languageModels/modelInfo';
import { estimateRequestTokens, estimateTextTokens, TOKENS_PER_MESSAGE } from '../../../src/core/languageModels/tokenEstimate';

describe('language models (core)', () => {
  describe('familyAndVersion', () => {
    const cases: Array<[string, string, string]> = [
      ['gpt-4o-2024-08-06', 'gpt-4o', '2024-08-06'],
      ['claude-3-5-sonnet-20241022', 'claude-3-5-sonnet', '20241022'],
      ['meta/llama3.1:8b', 'llama3.1', '8b'],
      ['mistral-large-latest', 'mistral-large', 'latest'],
      ['emu-chat-large-preview', 'emu-chat-large', 'preview'],
      ['emu-chat-small', 'emu-chat-small', 'emu-chat-small'],
    ];
    for (const [id, family, version] of cases) {
      it(`reads ${id} as family ${family}, version ${version}`, () => assert.deepEqual(familyAndVersion(id), { family, version }));
    }
  });

  describe('modelProfile', () => {
    it('uses the defaults without overrides, and survives settings of the wrong shape', () => {
      for (const overrides of [undefined, null, [], 'x', { 'emu-a': 'nonsense' }]) {
        const profile = modelProfile('emu-a', overrides);
        assert.equal(profile.maxInputTokens, DEFAULT_MAX_INPUT_TOKENS);
        assert.equal(profile.toolCalling, true);
        assert.equal(profile.name, 'emu-a');
      }
    });

    it('applies "*" first, then the model\'s own entry, ignoring ill-typed fields', () => {
      const overrides = { '*': { maxInputTokens: 8000, toolCalling: false }, 'emu-a': { toolCalling: true, maxOutputTokens: 512, name: 'Emu A', maxInputTokens: -3 } };
      assert.deepEqual(modelProfile('emu-a', overrides), {
        id: 'emu-a', name: 'Emu A', family: 'emu-a', version: 'emu-a', maxInputTokens: 8000, maxOutputTokens: 512, toolCalling: true,
      });
      assert.equal(modelProfile('emu-b', overrides).toolCalling, false);
    });
  });

  describe('refusesTools', () => {
    it('blames tools only for a 400 that names them, on a request that had them', () => {
      assert.equal(refusesTools({ kind: 'badRequest', serviceCode: 'tools_not_supported' }, true), true);
      assert.equal(refusesTools({ kind: 'badRequest', serviceMessage: 'This model does not support function calling' }, true), true);
      assert.equal(refusesTools({ kind: 'badRequest', serviceMessage: 'tool_choice is not allowed' }, true), true);
      assert.equal(refusesTools({ kind: 'badRequest', serviceCode: 'tools_not_supported' }, false), false);
      assert.equal(refusesTools({ kind: 'badRequest', serviceMessage: 'temperature out of range' }, true), false);
      assert.equal(refusesTools({ kind: 'server', serviceMessage: 'tools crashed' }, true), false);
    });
  });

  describe('toChatMessages', () => {
    const conversation: NeutralMessage[] = [
      { role: 'system', parts: [{ kind: 'text', text: 'Be brief.' }] },
      { role: 'user', parts: [{ kind: 'text', text: 'Weather in ' }, { kind: 'text', text: 'Oslo?' }] },
      { role: 'assistant', parts: [{ kind: 'text', text: 'Checking.' }, { kind: 'toolCall', callId: 'c1', name: 'get_weather', input: { city: 'Oslo' } }] },
      { role: 'user', parts: [{ kind: 'toolResult', callId: 'c1', text: 'Sunny' }, { kind: 'text', text: 'And tomorrow?' }] },
    ];

    it('maps tool calls to tool_calls and tool results to role "tool" messages placed before the text', () => {
      assert.deepEqual(toChatMessages(conversation), [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Oslo?' },
        { role: 'assistant', content: 'Checking.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'Sunny' },
        { role: 'user', content: 'And tomorrow?' },
      ]);
    });

    it('sends null content for an assistant turn that only called tools, and no empty user message after results', () => {
      const mapped = toChatMessages([
        { role: 'assistant', parts: [{ kind: 'toolCall', callId: 'c1', name: 'ls', input: {} }] },
        { role: 'user', parts: [{ kind: 'toolResult', callId: 'c1', text: 'a.txt' }] },
      ]);
      assert.deepEqual(mapped, [
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'a.txt' },
      ]);
    });

    it('writes calls and results as text for a model used without tools', () => {
      const mapped = toChatMessages(conversation, { toolsAsText: true });
      assert.ok(mapped.every((m) => m.role !== 'tool' && !('tool_calls' in m)));
      assert.deepEqual(mapped.slice(2), [
        { role: 'assistant', content: 'Checking.\n[called tool get_weather with {"city":"Oslo"}]' },
        { role: 'user', content: '[result of tool get_weather: Sunny]\nAnd tomorrow?' },
      ]);
    });
  });

  describe('token estimate', () => {
    it('counts 4 ASCII characters per token and one per other character, emoji as one', () => {
      assert.equal(estimateTextTokens(''), 0);
      assert.equal(estimateTextTokens('a'), 1);
      assert.equal(estimateTextTokens('abcdefgh'), 2);
      assert.equal(estimateTextTokens('漢字'), 2);
      assert.equal(estimateTextTokens('🙂'), 1);
      assert.equal(estimateTextTokens('café'), 2);
    });

    it('is additive per message and counts tools', () => {
      const messages = [{ role: 'user' as const, content: 'x'.repeat(400) }];
      assert.equal(estimateRequestTokens(messages), 100 + TOKENS_PER_MESSAGE);
      const withTools = estimateRequestTokens(messages, [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }]);
      assert.ok(withTools > 100 + TOKENS_PER_MESSAGE);
    });

    it('lands between 0.75 and 1.6 tokens per word on English prose, and is linear on a large prompt', () => {
      const prose = 'The quick brown fox jumps over the lazy dog while the emulator streams tokens to the client. '.repeat(50);
      const words = prose.trim().split(/\s+/).length;
      const estimate = estimateTextTokens(prose);
      assert.ok(estimate >= words * 0.75 && estimate <= words * 1.6, `estimate ${estimate} for ${words} words`);
      assert.equal(estimateTextTokens('x'.repeat(4_000_000)), 1_000_000);
    });
  });
});
