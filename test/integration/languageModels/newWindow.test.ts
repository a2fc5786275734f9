import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CachedModelList } from '../../../src/core/models/modelListCache';
import { ApiKeyStore } from '../../../src/host/shared/apiKeyStore';
import { InferenceChatModelProvider } from '../../../src/host/languageModels/provider';
import { ModelService } from '../../../src/host/shared/modelService';
import type { Services } from '../../../src/host/shared/services';
import { waitFor } from '../../harness/wait';
import { useConfiguredEmulator } from '../support/emulatorSetup';
import { LANGUAGE_MODELS } from '../tags';

/**
 * What a new window's activation builds for VS Code's start-up question: a key store and a model
 * service with nothing in memory, over the same globalState and SecretStorage (all windows share
 * them), and a provider over those. VS Code asks it silently at start.
 */
function newWindow(services: Services): { provider: InferenceChatModelProvider; models: ModelService; dispose(): void } {
  const keys = new ApiKeyStore(services.context.secrets);
  const models = new ModelService(services.context.globalState, services.environments, services.api, keys, services.log);
  const provider = new InferenceChatModelProvider({ ...services, keys, models });
  return { provider, models, dispose: () => [provider, models, keys].forEach((owner) => owner.dispose()) };
}

const startUpQuestion = (provider: InferenceChatModelProvider) =>
  provider.provideLanguageModelChatInformation({ silent: true }, new vscode.CancellationTokenSource().token);

describe(`Language model provider: on by default, the model list persisted across windows (real extension host, emulator back end) ${LANGUAGE_MODELS}`, () => {
  const fixture = useConfiguredEmulator();
  const services = () => fixture().api.services;
  const emulator = () => fixture().emulator;
  const modelLists = () => emulator().requests.filter((r) => r.path.startsWith('/api/v1/models'));
  const windows: { dispose(): void }[] = [];
  const open = () => {
    const window = newWindow(services());
    windows.push(window);
    return window;
  };

  beforeEach(async () => {
    await services().keys.set('production', emulator().keys.production.full);
    // The list of this key, as a window that ran before left it.
    await services().models.list('chat', 'production', { refresh: true });
    const provider = fixture().api.languageModels;
    if (provider) await waitFor('VS Code\'s refreshes after the key change', () => provider.settled(), { timeoutMs: 5000, intervalMs: 25 });
    emulator().reset();
  });

  afterEach(async () => {
    for (const window of windows.splice(0)) window.dispose();
    await services().keys.clear('production');
  });

  it('is on without any setting: the window whose settings do not name it registers the provider', () => {
    const inspected = vscode.workspace.getConfiguration().inspect<boolean>('inference.languageModels.enabled');
    assert.deepEqual([inspected?.globalValue, inspected?.workspaceValue, inspected?.defaultValue], [undefined, undefined, true]);
    assert.ok(fixture().api.languageModels, 'the provider is registered');
  });

  it('a new window\'s start-up question is answered from the persisted list without a GET /models while it is current', async () => {
    const answers = await Promise.all([open(), open()].map((window) => startUpQuestion(window.provider)));
    for (const answer of answers) assert.deepEqual(answer.map((m) => m.id), emulator().environments.production.chatModels);
    assert.deepEqual(modelLists().map((r) => r.path), [], 'no request at a window start with a fresh list');
  });

  it('persists the address and a tag of the key with the list, never the key', () => {
    const stored = services().context.globalState.get<CachedModelList>('inference.models.production.chat');
    assert.ok(stored?.keyTag && stored.baseUrl === emulator().environments.production.baseUrl);
    const text = JSON.stringify(stored);
    const key = emulator().keys.production.full;
    for (const part of [key, key.slice(-12), Buffer.from(key).toString('base64')]) assert.ok(!text.includes(part), 'no part of the key is stored');
  });

  it('a list of another key answers nothing in a new window: it asks once, with the key it has', async () => {
    // Another window stored the list with another key (this one changes the secret without an event to the provider under test).
    const stored = services().context.globalState.get<CachedModelList>('inference.models.production.chat');
    await services().context.globalState.update('inference.models.production.chat', { ...stored, keyTag: 'tag-of-another-key' });
    const window = open();
    assert.deepEqual((await startUpQuestion(window.provider)).map((m) => m.id), emulator().environments.production.chatModels);
    assert.deepEqual(modelLists().map((r) => r.keyLabel), ['full']);
  });

  it('a stale list answers at once and is refreshed once in the background, for all windows together', async () => {
    const stored = services().context.globalState.get<CachedModelList>('inference.models.production.chat');
    const minutes = vscode.workspace.getConfiguration().get<number>('inference.modelCacheMinutes') ?? 60;
    await services().context.globalState.update('inference.models.production.chat', { ...stored, ids: ['an-older-model'], fetchedAt: Date.now() - (minutes + 1) * 60_000 });
    const [first, second] = [open(), open()];
    const changed = new Promise<void>((resolve) => first.models.onDidChangeModels(() => resolve()));
    const answers = await Promise.all([first, second, first].map((window) => startUpQuestion(window.provider)));
    for (const answer of answers) assert.deepEqual(answer.map((m) => m.id), ['an-older-model'], 'the stored list answers without waiting for the network');
    await changed;
    assert.equal(modelLists().length, 1, 'one background refresh for both windows');
    assert.deepEqual((await startUpQuestion(open().provider)).map((m) => m.id), emulator().environments.production.chatModels);
    assert.equal(modelLists().length, 1, 'the refreshed list is current for the next window');
  });

  it('a new window without a key offers no models and asks nothing', async () => {
    await services().keys.clear('production');
    const provider = fixture().api.languageModels;
    if (provider) await waitFor('VS Code\'s questions after the key change', () => provider.settled(), { timeoutMs: 5000, intervalMs: 25 });
    emulator().reset();
    assert.deepEqual(await startUpQuestion(open().provider), []);
    assert.deepEqual(modelLists().map((r) => r.path), []);
  });
});
