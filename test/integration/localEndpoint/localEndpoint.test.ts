import * as assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import * as vscode from 'vscode';
import { markdownLiteral } from '../../../src/core/markdownText';
import { waitFor } from '../../harness/wait';
import { useConfiguredEmulator } from '../support/emulatorSetup';
import { rawRequest } from '../../unit/emulator/helpers';
import { normaliseIds } from '../../unit/localEndpoint/support';
import { logWritten, writtenFiles } from '../support/files';
import { startThroughCommand, type Started } from './support';

const start = () => vscode.commands.executeCommand('inference.startLocalEndpoint');

describe('Local endpoint in the real extension host: official openai and Anthropic clients, emulator behind', () => {
  const fixture = useConfiguredEmulator();
  const api = () => fixture().api;
  const emulator = () => fixture().emulator;
  let endpoint: Started;
  const openai = () => new OpenAI({ apiKey: endpoint.token, baseURL: `${endpoint.origin}/v1`, maxRetries: 0 });
  const anthropic = () => new Anthropic({ apiKey: endpoint.token, baseURL: endpoint.origin, maxRetries: 0 });
  const direct = () => new OpenAI({ apiKey: emulator().keys.production.full, baseURL: emulator().environments.production.baseUrl, maxRetries: 0 });
  const messages = [{ role: 'user' as const, content: 'Hello through the local endpoint' }];

  before(async () => {
    await api().services.keys.set('production', emulator().keys.production.full);
    endpoint = await startThroughCommand(api().localEndpoint, start);
  });
  after(() => vscode.commands.executeCommand('inference.stopLocalEndpoint'));

  it('lists the chat models in both protocols', async () => {
    const chatModels = emulator().environments.production.chatModels;
    assert.deepEqual((await openai().models.list()).data.map((m) => m.id), chatModels);
    assert.deepEqual((await anthropic().models.list()).data.map((m) => m.id), chatModels);
  });

  it('relays non-streamed and streamed chat completions byte-equal to the emulator\'s, with its headers', async () => {
    for (const stream of [false, true]) {
      const body = { model: 'emu-chat-small', messages, stream };
      const viaDirect = await rawRequest(`${emulator().environments.production.baseUrl}/chat/completions`, { headers: { authorization: `Bearer ${emulator().keys.production.full}` }, body });
      const viaEndpoint = await rawRequest(`${endpoint.origin}/v1/chat/completions`, { headers: { authorization: `Bearer ${endpoint.token}` }, body });
      assert.equal(viaEndpoint.status, 200);
      assert.equal(normaliseIds(viaEndpoint.text), normaliseIds(viaDirect.text), `stream: ${stream}`);
      assert.equal(viaEndpoint.headers['x-request-id'], emulator().requests.at(-1)?.id);
      assert.equal(viaEndpoint.headers['x-service-model-id'], 'emu-chat-small');
      assert.ok(viaEndpoint.headers['x-service-balance-credits']);
    }
    let streamed = '';
    for await (const chunk of await openai().chat.completions.create({ model: 'emu-chat-large', messages, stream: true })) streamed += chunk.choices[0]?.delta.content ?? '';
    assert.equal(streamed, (await direct().chat.completions.create({ model: 'emu-chat-large', messages })).choices[0].message.content);
  });

  it('answers Anthropic messages, streamed and not, with the emulator\'s exact text', async () => {
    const expected = (await direct().chat.completions.create({ model: 'emu-chat-small', messages })).choices[0].message.content;
    const message = await anthropic().messages.create({ model: 'emu-chat-small', max_tokens: 1024, messages });
    assert.deepEqual(message.content, [{ type: 'text', text: expected }]);
    const stream = anthropic().messages.stream({ model: 'emu-chat-small', max_tokens: 1024, messages });
    const events: string[] = [];
    for await (const event of stream) events.push(event.type);
    const final = await stream.finalMessage();
    assert.deepEqual(final.content, [{ type: 'text', text: expected }]);
    assert.equal(events[0], 'message_start');
    assert.deepEqual(events.slice(-2), ['message_delta', 'message_stop']);
  });

  it('makes a tool round trip in both protocols', async () => {
    const weather = { name: 'get_weather', arguments: '{"city":"Bern"}' };
    emulator().scriptReply('production', { text: '', toolCalls: [weather] });
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    const first = await openai().chat.completions.create({ model: 'emu-chat-small', messages, tools });
    const call = first.choices[0].message.tool_calls?.[0];
    assert.ok(call?.type === 'function' && call.function.name === 'get_weather' && call.function.arguments === weather.arguments);
    await openai().chat.completions.create({ model: 'emu-chat-small', tools, messages: [...messages, first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: '19 °C' }] });
    assert.equal(emulator().requests.at(-1)?.chat?.messages[2].tool_call_id, call.id);

    const request = { model: 'emu-chat-small', max_tokens: 200, messages, tools: [{ name: 'get_weather', input_schema: { type: 'object' as const, properties: {} } }] };
    emulator().scriptReply('production', { text: '', toolCalls: [weather] });
    const answer = await anthropic().messages.stream(request).finalMessage();
    const use = answer.content.find((block) => block.type === 'tool_use');
    assert.ok(use?.type === 'tool_use');
    assert.deepEqual(use.input, { city: 'Bern' });
    assert.equal(answer.stop_reason, 'tool_use');
    await anthropic().messages.create({ ...request, messages: [...messages, { role: 'assistant', content: answer.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '19 °C' }] }] });
    const sent = emulator().requests.at(-1)?.chat?.messages ?? [];
    assert.deepEqual(sent.map((m) => m.role), ['user', 'assistant', 'tool']);
    assert.equal(sent[2].tool_call_id, use.id);
  });

  it('refuses a wrong token with 401 (the emulator sees nothing) and a non-loopback Host', async () => {
    const wrongOpenai = await new OpenAI({ apiKey: 'local-wrong', baseURL: `${endpoint.origin}/v1`, maxRetries: 0 }).models.list().catch((e: unknown) => e);
    assert.ok(wrongOpenai instanceof OpenAI.AuthenticationError, String(wrongOpenai));
    const wrongAnthropic = await new Anthropic({ apiKey: 'local-wrong', baseURL: endpoint.origin, maxRetries: 0 }).messages
      .create({ model: 'emu-chat-small', max_tokens: 5, messages }).catch((e: unknown) => e);
    assert.ok(wrongAnthropic instanceof Anthropic.AuthenticationError, String(wrongAnthropic));
    const rebound = await rawRequest(`${endpoint.origin}/v1/models`, { headers: { authorization: `Bearer ${endpoint.token}`, host: 'rebound.example' } });
    assert.equal(rebound.status, 403);
    assert.equal(emulator().requests.length, 0, 'the emulator saw no request');
  });

  /** Sets the key and waits for SecretStorage's change event, which is what makes the endpoint pick it up. */
  const switchKey = async (key: string) => {
    const changed = new Promise<void>((resolve) => {
      const subscription = api().services.keys.onDidChange(() => {
        subscription.dispose();
        resolve();
      });
    });
    await api().services.keys.set('production', key);
    await changed;
  };

  it('maps 402 and 429 in both protocols, keeping Retry-After, and follows a key change', async () => {
    await switchKey(emulator().keys.production.broke);
    try {
      const e402 = await openai().chat.completions.create({ model: 'emu-chat-small', messages }).catch((e: unknown) => e);
      assert.ok(e402 instanceof OpenAI.APIError && e402.status === 402, String(e402));
      const a402 = await anthropic().messages.create({ model: 'emu-chat-small', max_tokens: 5, messages }).catch((e: unknown) => e);
      assert.ok(a402 instanceof Anthropic.APIError && a402.status === 402, String(a402));
    } finally {
      await switchKey(emulator().keys.production.full);
    }
    emulator().injectFault('production', { fault: 'http-429', retryAfterSeconds: 5, times: 2 });
    const e429 = await openai().chat.completions.create({ model: 'emu-chat-small', messages }).catch((e: unknown) => e);
    assert.ok(e429 instanceof OpenAI.RateLimitError && e429.headers?.get('retry-after') === '5', String(e429));
    const a429 = await anthropic().messages.create({ model: 'emu-chat-small', max_tokens: 5, messages }).catch((e: unknown) => e);
    assert.ok(a429 instanceof Anthropic.RateLimitError && a429.headers?.get('retry-after') === '5', String(a429));
  });

  it('shows port, requests answered and last request id in the status bar, and updates the balance', async () => {
    const before = api().localEndpoint.state?.served ?? 0;
    await openai().chat.completions.create({ model: 'emu-chat-small', messages });
    const requestId = emulator().requests.at(-1)?.id ?? '';
    const snapshot = await waitFor('the status item showing the last request', () => {
      const s = api().localEndpointStatus.snapshot();
      return s.tooltip.includes(markdownLiteral(requestId)) ? s : undefined;
    }, { timeoutMs: 3000, intervalMs: 20 });
    assert.equal(snapshot.visible, true);
    assert.equal(snapshot.text, `$(plug) :${new URL(endpoint.origin).port} · ${before + 1}`);
    // The balance comes from the relayed headers; wait for the record rather than racing it (it once read a stale 0).
    await waitFor('the balance from the relayed headers', () => api().services.account.get('production').balanceCredits === emulator().balance('production'), { timeoutMs: 3000, intervalMs: 20 });
  });

  it('shows the settled balance after a streamed answer, whose header left before the answer was billed', async () => {
    const readings = () => emulator().requests.filter((r) => r.method === 'GET' && r.path.startsWith('/api/v1/models'));
    const readingsBefore = readings().length;
    const viaEndpoint = await rawRequest(`${endpoint.origin}/v1/chat/completions`, { headers: { authorization: `Bearer ${endpoint.token}` }, body: { model: 'emu-chat-small', messages, stream: true } });
    assert.equal(viaEndpoint.status, 200);
    const answered = emulator().requests.findLast((r) => r.stream);
    const relayed = Number(viaEndpoint.headers['x-service-balance-credits']);
    assert.ok(Number.isFinite(relayed) && relayed < emulator().balance('production'), `the relayed header (${relayed}) held only the reserve`);
    // The reading first: the balance alone can match by chance (the previous test's answer may have cost the same).
    const reading = await waitFor('a model-list request after the answer', () => readings()[readingsBefore], { timeoutMs: 10_000, intervalMs: 20 });
    assert.ok(answered && reading.startedAt >= answered.startedAt, 'the reading came after the answer');
    await waitFor('the settled balance', () => api().services.account.get('production').balanceCredits === emulator().balance('production'), { timeoutMs: 5000, intervalMs: 20 });
  });
});

// A client's leaving reaching the service, and restarts and stops themselves, are unit tests
// (unit/localEndpoint: cancelAndLeaks, localEndpoint): here, the commands and what reaches the disk.
describe('Local endpoint: lifecycle and secrets (real extension host)', () => {
  const fixture = useConfiguredEmulator();
  const api = () => fixture().api;
  const emulator = () => fixture().emulator;

  before(() => api().services.keys.set('production', emulator().keys.production.full));
  after(() => vscode.commands.executeCommand('inference.stopLocalEndpoint'));

  it('rotates the token on each start, stops on command, and leaves neither the key nor a token on disk', async function () {
    this.timeout(60_000);
    const first = await startThroughCommand(api().localEndpoint, start);
    await rawRequest(`${first.origin}/v1/chat/completions`, { headers: { authorization: `Bearer ${first.token}` }, body: { model: 'emu-chat-small', messages: [{ role: 'user', content: 'x' }] } });
    const second = await startThroughCommand(api().localEndpoint, start);
    assert.notEqual(second.token, first.token);
    const stale = await rawRequest(`${second.origin}/v1/models`, { headers: { authorization: `Bearer ${first.token}` } });
    assert.equal(stale.status, 401);
    await vscode.commands.executeCommand('inference.stopLocalEndpoint');
    assert.equal(api().localEndpoint.state, undefined);
    assert.equal(api().localEndpointStatus.snapshot().visible, false);
    const closed = await rawRequest(`${second.origin}/v1/models`, { headers: { authorization: `Bearer ${second.token}` } });
    assert.match(closed.error ?? '', /ECONNREFUSED/, 'nothing listens any more');

    const { context, log } = api().services;
    await logWritten(context, log);
    const files = writtenFiles(context, vscode.workspace.workspaceFolders);
    assert.ok(files.some(([, text]) => text.includes('local endpoint: POST /v1/chat/completions (openai)')), 'requests are in the log');
    const secrets = [emulator().keys.production.full, emulator().keys.production.broke, first.token, second.token];
    for (const [file, text] of files) {
      for (const secret of secrets) assert.equal(text.includes(secret), false, `a secret was found in ${file}`);
    }
  });
});
