import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { formatCredits } from '../../../src/core/credits';
import { markdownLiteral } from '../../../src/core/markdownText';
import { waitFor } from '../../harness/wait';
import { useConfiguredEmulator } from '../support/emulatorSetup';
import { LANGUAGE_MODELS } from '../tags';
import { collect, inferenceModels, model, nextModelsChange, VENDOR } from './support';

describe(`Language model provider: models and answers through vscode.lm (real extension host, emulator back end) ${LANGUAGE_MODELS}`, () => {
  const fixture = useConfiguredEmulator();
  const services = () => fixture().api.services;
  const emulator = () => fixture().emulator;

  beforeEach(async () => {
    await services().keys.set('production', emulator().keys.production.full);
    await services().models.invalidate('production');
    await services().models.invalidate('preview');
  });

  afterEach(async () => {
    await services().keys.clear('production');
    await services().keys.clear('preview');
    await services().environments.activate('production');
  });

  it('lists exactly the active environment\'s chat models from GET /models?type=chat, with family, version and limits', async () => {
    const models = await inferenceModels();
    assert.deepEqual(models.map((m) => m.id), emulator().environments.production.chatModels);
    assert.ok(models.every((m) => m.vendor === VENDOR && m.maxInputTokens === 64_000));
    assert.deepEqual(models.map((m) => [m.family, m.version]), [['emu-chat-large', 'emu-chat-large'], ['emu-chat-small', 'emu-chat-small']]);
    const lists = emulator().requests.map((r) => r.path);
    assert.ok(lists.length >= 1 && lists.every((path) => path === '/api/v1/models?format=openai&type=chat'), `chat model lists only: ${lists.join(', ')}`);
    await inferenceModels();
    assert.equal(emulator().requests.length, lists.length, 'the model cache answers the next selection');
  });

  it('answers VS Code\'s model-list questions from the model cache: many within its lifetime cost one request, a new key one more', async () => {
    const provider = fixture().api.languageModels;
    assert.ok(provider, 'the provider is registered in this window');
    const modelLists = () => emulator().requests.filter((r) => r.path.startsWith('/api/v1/models'));
    await waitFor('the background model-list refresh', () => provider.settled(), { timeoutMs: 5000, intervalMs: 25 });
    emulator().reset();
    // Forgetting the list fires the change event, so VS Code asks again in the background too.
    await services().models.invalidate('production', 'chat');
    const token = new vscode.CancellationTokenSource().token;
    const together = await Promise.all([1, 2, 3, 4, 5].map(() => provider.provideLanguageModelChatInformation({ silent: true }, token)));
    const oneByOne = [];
    for (let i = 0; i < 5; i++) oneByOne.push(await provider.provideLanguageModelChatInformation({ silent: true }, token));
    for (let i = 0; i < 3; i++) assert.equal((await inferenceModels()).length, emulator().environments.production.chatModels.length);
    await waitFor('VS Code\'s refreshes are over', () => provider.settled(), { timeoutMs: 5000, intervalMs: 25 });
    for (const list of [...together, ...oneByOne]) assert.deepEqual(list.map((m) => m.id), emulator().environments.production.chatModels);
    assert.equal(modelLists().length, 1, `one GET /models for 13 questions and VS Code's own: ${modelLists().map((r) => r.path).join(', ')}`);

    // Another key may see other models: the list is fetched again, once, with that key.
    await services().keys.set('production', emulator().keys.production.chatOnly);
    await Promise.all([1, 2, 3].map(() => provider.provideLanguageModelChatInformation({ silent: true }, token)));
    await waitFor('VS Code\'s refreshes are over', () => provider.settled(), { timeoutMs: 5000, intervalMs: 25 });
    assert.deepEqual(modelLists().map((r) => r.keyLabel), ['full', 'chatOnly']);
  });

  it('lists no models without a key, without a request, an error or an offer to set one (silent)', async () => {
    await services().keys.clear('production');
    // VS Code resolves a vendor's models one request at a time: once this selection is answered, any
    // resolution the key changes started is over, and what follows is only this test's.
    await inferenceModels();
    emulator().reset();
    const offersBefore = fixture().api.languageModels?.keySetupOffers;
    assert.deepEqual(await inferenceModels(), []);
    assert.equal(emulator().requests.length, 0);
    assert.equal(fixture().api.languageModels?.keySetupOffers, offersBefore, 'no notification while VS Code asks silently');
  });

  it('streams the emulator\'s answer as text parts and updates the balance and the last request id', async () => {
    const reply = 'Streamed **through** vscode.lm — é, 漢字 and 🙂 intact.';
    emulator().scriptReply('production', { text: reply, chunkChars: 6 });
    const [first] = emulator().environments.production.chatModels;
    const result = await collect(await model(first), [vscode.LanguageModelChatMessage.User('Say something')]);
    assert.equal(result.error, undefined);
    assert.equal(result.text, reply);
    // The core joins the deltas of one network read into one event, so how many parts arrive depends on the reads.
    assert.ok(result.parts.length > 0 && result.parts.every((p) => p instanceof vscode.LanguageModelTextPart), 'the answer arrives as text parts only');
    const record = emulator().requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1);
    assert.equal(record?.stream, true);
    assert.deepEqual(record?.chat?.messages, [{ role: 'user', content: 'Say something' }]);
    assert.equal(services().account.get('production').lastRequestId, record?.id);
    assert.equal(services().account.get('production').balanceCredits !== undefined, true);
    await waitFor('status bar shows the request id', () => fixture().api.statusBar.snapshot().tooltip.includes(markdownLiteral(record?.id ?? '???')) || undefined, { timeoutMs: 3000, intervalMs: 20 });
  });

  it('records each answer\'s spend in the usage ledger from the settled balance, and shows that balance in the status bar', async () => {
    // The balance before the answer is known (as after the key check, which lists the models).
    await services().models.list('chat', 'production', { refresh: true });
    const [first] = emulator().environments.production.chatModels;
    const result = await collect(await model(first), [vscode.LanguageModelChatMessage.User('What does this cost?')]);
    assert.equal(result.error, undefined);
    const record = emulator().requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1);
    assert.ok(record && record.creditsCharged > 0);
    const entry = await waitFor('the ledger entry of the answer', () => services().usage.entries().find((e) => e.requestId === record.id), { timeoutMs: 5000, intervalMs: 20 });
    assert.deepEqual({ ...entry, v: undefined, at: undefined, credits: undefined }, { v: undefined, at: undefined, credits: undefined, requestId: record.id, model: first, environment: 'production', kind: 'chat' });
    assert.ok(Math.abs((entry.credits ?? Number.NaN) - record.creditsCharged) < 1e-6, `spend ${entry.credits} is what the service charged, ${record.creditsCharged}`);
    // The settled balance (after the charge), not the stream's reading from before it.
    const settled = emulator().balance('production');
    assert.equal(services().account.get('production').balanceCredits, settled);
    await waitFor('the status bar shows the settled balance', () => fixture().api.statusBar.snapshot().balance.includes(formatCredits(settled)) || undefined, { timeoutMs: 3000, intervalMs: 20 });
  });

  it('counts tokens with the documented estimate', async () => {
    const [chat] = await inferenceModels();
    assert.equal(await chat.countTokens('abcdefgh漢字'), 4);
    assert.equal(await chat.countTokens(vscode.LanguageModelChatMessage.User('abcdefgh')), 2 + 4);
  });

  it('refuses a request over the model\'s input limit before sending it, and follows the override setting', async () => {
    const [first] = emulator().environments.production.chatModels;
    const config = vscode.workspace.getConfiguration();
    await config.update('inference.languageModels.overrides', { [first]: { maxInputTokens: 50, name: 'Small window' } }, vscode.ConfigurationTarget.Global);
    try {
      // The ids stay the same, so vscode.lm.onDidChangeChatModels does not fire; VS Code re-reads the limits.
      const chat = await waitFor('VS Code sees the overridden limit', async () => {
        const current = await model(first);
        return current.maxInputTokens === 50 ? current : undefined;
      }, { timeoutMs: 5000, intervalMs: 20 });
      assert.equal(chat.name, 'Small window');
      emulator().reset();
      const result = await collect(chat, [vscode.LanguageModelChatMessage.User('word '.repeat(100))]);
      assert.ok(result.error instanceof vscode.LanguageModelError, String(result.error));
      assert.match(result.error.message, /about \d+ tokens \(estimated\), more than the 50/);
      assert.equal(emulator().requests.filter((r) => r.path.endsWith('/chat/completions')).length, 0, 'nothing sent, nothing billed');
    } finally {
      await config.update('inference.languageModels.overrides', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('switching the environment fires the change event and lists the other environment\'s models', async () => {
    await services().keys.set('preview', emulator().keys.preview.full);
    await inferenceModels();
    const changed = nextModelsChange();
    await services().environments.activate('preview');
    await changed;
    assert.deepEqual((await inferenceModels()).map((m) => m.id), emulator().environments.preview.chatModels);
    const [previewModel] = emulator().environments.preview.chatModels;
    emulator().scriptReply('preview', { text: 'from preview' });
    const result = await collect(await model(previewModel), [vscode.LanguageModelChatMessage.User('hi')]);
    assert.equal(result.text, 'from preview');
    const chat = emulator().requests.filter((r) => r.path.endsWith('/chat/completions'));
    assert.deepEqual(chat.map((r) => [r.env, r.keyLabel]), [['preview', 'full']], 'sent to the environment that listed the model, with its key');
  });

  it('setting or clearing the key fires the change event', async () => {
    await inferenceModels();
    const cleared = nextModelsChange();
    await services().keys.clear('production');
    await cleared;
    assert.deepEqual(await inferenceModels(), []);
    const set = nextModelsChange();
    await services().keys.set('production', emulator().keys.production.full);
    await set;
    assert.equal((await inferenceModels()).length, emulator().environments.production.chatModels.length);
  });
});

describe(`Language model provider: cancellation (real extension host, paced emulator) ${LANGUAGE_MODELS}`, () => {
  const fixture = useConfiguredEmulator({ tokensPerSecond: 40 });

  before(async () => {
    await fixture().api.services.keys.set('production', fixture().emulator.keys.production.full);
  });

  after(async () => {
    await fixture().api.services.keys.clear('production');
  });

  it('cancelling the token closes the HTTP connection mid-stream (the emulator sees the client leave) and bills only what was sent', async () => {
    const emulator = fixture().emulator;
    emulator.scriptReply('production', { text: 'word '.repeat(400) });
    const [first] = emulator.environments.production.chatModels;
    const source = new vscode.CancellationTokenSource();
    let parts = 0;
    const result = await collect(await model(first), [vscode.LanguageModelChatMessage.User('long answer please')], {}, source.token, () => {
      parts++;
      if (parts === 3) source.cancel();
    });
    const record = await waitFor('the emulator logs the client closing the connection', () => {
      const chat = emulator.requests.find((r) => r.path.endsWith('/chat/completions'));
      return chat?.clientClosedAt !== undefined ? chat : undefined;
    }, { timeoutMs: 5000, intervalMs: 20 });
    assert.ok(result.text.length > 0 && result.text.length < 'word '.repeat(400).length, `partial text only (${result.text.length} characters)`);
    assert.ok((record.clientClosedAt ?? 0) - record.startedAt < 5000, 'closed well before the 10 s the answer takes');
    const wholeAnswer = 0.5 + ((4 + 400) * 2) / 1000;
    assert.ok(record.creditsCharged < wholeAnswer - 0.2, `charged ${record.creditsCharged} for what was sent, not ${wholeAnswer} for the whole answer`);
  });
});
