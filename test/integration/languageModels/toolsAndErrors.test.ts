import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { isApiError } from '../../../src/core/api/errors';
import { waitFor } from '../../harness/wait';
import { useConfiguredEmulator } from '../support/emulatorSetup';
import { LANGUAGE_MODELS } from '../tags';
import { causeKind, collect, isLanguageModelError, model, toolCalling } from './support';

const WEATHER: vscode.LanguageModelChatTool = {
  name: 'get_weather',
  description: 'The weather of a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe(`Language model provider: tool calls and errors (real extension host, emulator back end) ${LANGUAGE_MODELS}`, () => {
  // emu-chat-small refuses tools (400 tools_not_supported), as some models of compatible services do.
  const fixture = useConfiguredEmulator({ modelsWithoutTools: ['emu-chat-small'], toolArgumentChunkChars: 3 });
  const services = () => fixture().api.services;
  const emulator = () => fixture().emulator;
  const chatRequests = () => emulator().requests.filter((r) => r.path.endsWith('/chat/completions'));

  beforeEach(async () => {
    await services().keys.set('production', emulator().keys.production.full);
  });

  after(async () => {
    await services().keys.clear('production');
  });

  it('runs a tool round trip: streamed call in pieces → LanguageModelToolCallPart, result → final answer', async () => {
    const chat = await model('emu-chat-large');
    const question = vscode.LanguageModelChatMessage.User('Use get_weather for Oslo');
    const first = await collect(chat, [question], { tools: [WEATHER] });
    assert.equal(first.error, undefined);
    assert.equal(first.toolCalls.length, 1);
    const [call] = first.toolCalls;
    assert.equal(call.name, 'get_weather');
    assert.deepEqual(call.input, { city: 'emulated' });
    assert.deepEqual(chatRequests()[0].chat?.tools, ['get_weather']);
    assert.equal(chatRequests()[0].chat?.tool_choice, 'auto');

    const second = await collect(chat, [
      question,
      vscode.LanguageModelChatMessage.Assistant([call]),
      vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart('Sunny, 21 °C')])]),
    ], { tools: [WEATHER] });
    assert.equal(second.error, undefined);
    assert.match(second.text, /get_weather returned “Sunny, 21 °C”/);
    const sent = chatRequests()[1].chat?.messages ?? [];
    assert.deepEqual(sent.map((m) => m.role), ['user', 'assistant', 'tool']);
    assert.deepEqual(sent[1].tool_calls, [{ id: call.callId, name: 'get_weather', arguments: '{"city":"emulated"}' }]);
    assert.equal(sent[2].tool_call_id, call.callId);
  });

  it('passes the Required tool mode as tool_choice "required"', async () => {
    const result = await collect(await model('emu-chat-large'), [vscode.LanguageModelChatMessage.User('hello')], {
      tools: [WEATHER], toolMode: vscode.LanguageModelChatToolMode.Required,
    });
    assert.equal(result.toolCalls[0]?.name, 'get_weather');
    assert.equal(chatRequests()[0].chat?.tool_choice, 'required');
  });

  it('turns malformed tool arguments into a clear error after the text, never into a call', async () => {
    emulator().scriptReply('production', { text: 'Checking. ', toolCalls: [{ name: 'get_weather', arguments: '{"city": Oslo' }] });
    const result = await collect(await model('emu-chat-large'), [vscode.LanguageModelChatMessage.User('weather?')], { tools: [WEATHER] });
    assert.equal(result.text, 'Checking. ');
    assert.deepEqual(result.toolCalls, []);
    assert.ok(result.error instanceof vscode.LanguageModelError, String(result.error));
    assert.match(result.error.message, /arguments for the tool "get_weather" that are not valid JSON/);
    assert.equal(causeKind(result.error), 'malformedResponse');
  });

  it('passes on no call to a tool the request did not offer (issue 27, item 6)', async () => {
    emulator().scriptReply('production', { text: 'Running it. ', toolCalls: [{ name: 'run_in_terminal', arguments: '{"command":"ls"}' }] });
    const result = await collect(await model('emu-chat-large'), [vscode.LanguageModelChatMessage.User('weather?')], { tools: [WEATHER] });
    assert.equal(result.text, 'Running it. ');
    assert.deepEqual(result.toolCalls, []);
    assert.ok(result.error instanceof vscode.LanguageModelError, String(result.error));
    assert.match(result.error.message, /"run_in_terminal", which this request did not offer/);
  });

  it('remembers a model whose service refuses tools (400 naming them) and then sends it no tools', async () => {
    const chat = await model('emu-chat-small');
    assert.equal(toolCalling(chat), true);
    const providerChanged = new Promise<void>((resolve) => {
      const subscription = fixture().api.languageModels?.onDidChangeLanguageModelChatInformation(() => {
        subscription?.dispose();
        resolve();
      });
    });
    const refused = await collect(chat, [vscode.LanguageModelChatMessage.User('Use get_weather')], { tools: [WEATHER] });
    assert.ok(refused.error instanceof vscode.LanguageModelError);
    assert.match(refused.error.message, /HTTP 400.*does not support tools.*without tools for the rest of this session/);
    await providerChanged;
    // vscode.lm.onDidChangeChatModels fires only when the set of ids changes; the capability is re-read.
    await waitFor('VS Code sees the model without tool calling', async () => toolCalling(await model('emu-chat-small')) === false || undefined, { timeoutMs: 5000, intervalMs: 20 });
    const again = await collect(await model('emu-chat-small'), [vscode.LanguageModelChatMessage.User('Use get_weather')], { tools: [WEATHER] });
    assert.equal(again.error, undefined);
    assert.ok(again.text.length > 0);
    assert.equal(chatRequests().at(-1)?.chat?.tools, undefined, 'the retry went without tools');
  });

  it('sends no tools to a model the override setting turns them off for, and says so when a tool is required', async () => {
    const config = vscode.workspace.getConfiguration();
    await config.update('inference.languageModels.overrides', { 'emu-chat-large': { toolCalling: false } }, vscode.ConfigurationTarget.Global);
    try {
      const chat = await waitFor('VS Code sees the override', async () => {
        const current = await model('emu-chat-large');
        return toolCalling(current) === false ? current : undefined;
      }, { timeoutMs: 5000, intervalMs: 20 });
      const result = await collect(chat, [vscode.LanguageModelChatMessage.User('Use get_weather')], { tools: [WEATHER] });
      assert.equal(result.error, undefined);
      assert.equal(chatRequests().at(-1)?.chat?.tools, undefined);
      const required = await collect(chat, [vscode.LanguageModelChatMessage.User('x')], { tools: [WEATHER], toolMode: vscode.LanguageModelChatToolMode.Required });
      assert.match(String((required.error as Error | undefined)?.message), /cannot be required to call one/);
    } finally {
      await config.update('inference.languageModels.overrides', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  /** The text the rest of the extension shows for the same failure, from the core client directly. */
  async function sameFailureFromClient(fault: 'http-401' | 'http-404'): Promise<string> {
    emulator().injectFault('production', { fault, path: '/chat/completions' });
    const client = await services().api.client('production');
    const error = await client.chat({ model: 'emu-chat-large', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    assert.ok(isApiError(error));
    emulator().reset();
    return error.message;
  }

  it('maps 401 to NoPermissions and 404 to NotFound, with the extension\'s usual texts', async () => {
    for (const [fault, code, kind] of [['http-401', 'NoPermissions', 'unauthorized'], ['http-404', 'NotFound', 'modelNotFound']] as const) {
      const expected = await sameFailureFromClient(fault);
      const chat = await model('emu-chat-large');
      emulator().injectFault('production', { fault, path: '/chat/completions' });
      const result = await collect(chat, [vscode.LanguageModelChatMessage.User('hi')]);
      assert.ok(isLanguageModelError(result.error, code), `${fault}: ${String(result.error)}`);
      assert.ok(result.error.message.startsWith(expected), `${fault}: "${result.error.message}" starts with "${expected}"`);
      assert.match(result.error.message, /\(request req_/);
      assert.equal(causeKind(result.error), kind);
    }
  });

  it('maps 402 to Blocked without retrying it', async () => {
    emulator().setBalance('production', 0);
    const result = await collect(await model('emu-chat-large'), [vscode.LanguageModelChatMessage.User('hi')]);
    assert.ok(isLanguageModelError(result.error, 'Blocked'), String(result.error));
    assert.match(result.error.message, /insufficient credits.*HTTP 402/);
    assert.equal(causeKind(result.error), 'insufficientCredits');
    assert.equal(chatRequests().length, 1, 'a 402 is never retried');
    assert.equal(services().account.get('production').balanceCredits, 0, 'the status bar learns the balance from the 402');
  });

  it('honours 429: waits out Retry-After and answers, or reports Blocked once retries are used up', async () => {
    emulator().injectFault('production', { fault: 'http-429', retryAfterSeconds: 1, path: '/chat/completions' });
    emulator().scriptReply('production', { text: 'after the wait' });
    const chat = await model('emu-chat-large');
    const started = Date.now();
    const retried = await collect(chat, [vscode.LanguageModelChatMessage.User('hi')]);
    assert.equal(retried.text, 'after the wait');
    assert.ok(Date.now() - started >= 900, 'waited for Retry-After');
    assert.deepEqual(chatRequests().map((r) => r.status), [429, 200]);

    const config = vscode.workspace.getConfiguration();
    await config.update('inference.rateLimit.maxRetries', 0, vscode.ConfigurationTarget.Global);
    try {
      emulator().injectFault('production', { fault: 'http-429', retryAfterSeconds: 1, path: '/chat/completions' });
      const blocked = await collect(chat, [vscode.LanguageModelChatMessage.User('hi')]);
      assert.ok(isLanguageModelError(blocked.error, 'Blocked'), String(blocked.error));
      assert.match(blocked.error.message, /Rate limit reached for this key \(HTTP 429\)/);
      assert.equal(causeKind(blocked.error), 'rateLimited');
    } finally {
      await config.update('inference.rateLimit.maxRetries', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
