import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from '../../harness/wait';
import { isApiError } from '../../../src/core/api/errors';
import { markdownLiteral } from '../../../src/core/markdownText';
import { useEmulatorSuite } from '../support/emulatorSetup';

describe('Models, balance and shared error handling (real extension host, emulator back end)', () => {
  const { fixture, services, emulator } = useEmulatorSuite({ keys: ['production', 'preview'], freshModelLists: ['production', 'preview'] });

  it('lists the picker contents from GET /models?type=chat of each environment, and caches them', async () => {
    assert.deepEqual(await services().models.list('chat', 'production'), emulator().environments.production.chatModels);
    assert.deepEqual(await services().models.list('chat', 'preview'), emulator().environments.preview.chatModels);
    assert.deepEqual(await services().models.list('image', 'production'), emulator().environments.production.imageModels);
    const calls = emulator().requests.length;
    await services().models.list('chat', 'production');
    assert.equal(emulator().requests.length, calls, 'second list served from the cache');
    assert.match(emulator().requests[0].path, /type=chat/);
  });

  it('shows the picker with the current model and accepts a choice', async () => {
    const [first, second] = emulator().environments.production.chatModels;
    await services().models.select('chat', second, 'production');
    const picked = services().models.pickChatModel('production');
    await waitFor('picker loaded', async () => (services().models.cached('production', 'chat') ? true : undefined), { timeoutMs: 5000, intervalMs: 20 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.equal(await picked, second, 'the current model is the active item');
    assert.notEqual(first, second);
    await waitFor('status bar shows the model', () => fixture().api.statusBar.snapshot().model.includes(second) || undefined, { timeoutMs: 3000, intervalMs: 20 });
  });

  it('a 404 for the chosen model forgets the cached list and the choice, so the picker is offered again', async () => {
    const [model] = await services().models.list('chat', 'production');
    await services().models.select('chat', model, 'production');
    emulator().injectFault('production', { fault: 'http-404' });
    const client = await services().api.client('production');
    const error = await client.chat({ model, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    assert.ok(isApiError(error) && error.kind === 'modelNotFound');
    await services().errors.present(error, { source: 'test', env: 'production' });
    assert.equal(services().models.cached('production', 'chat'), undefined);
    assert.equal(services().models.selectedChatModel('production'), undefined);
    assert.deepEqual(services().errors.actionsFor(error).map((a) => a.id), ['pickModel', 'copyRequestId', 'openLogs']);
  });

  it('updates the balance from every response, persists it per environment, and shows it in the status bar', async () => {
    const statusBar = fixture().api.statusBar;
    const client = await services().api.client('production');
    await client.chat({ model: emulator().environments.production.chatModels[0], messages: [{ role: 'user', content: 'hi' }] });
    const balance = emulator().balance('production');
    const snapshot = services().account.get('production');
    assert.equal(snapshot.balanceCredits, balance);
    assert.equal(snapshot.rateLimitRequests, 60);
    assert.equal(snapshot.lastRequestId, emulator().requests.at(-1)?.id);
    assert.deepEqual(services().context.globalState.get('inference.account.production'), snapshot, 'persisted in globalState');
    await waitFor('status bar balance', () => statusBar.snapshot().balance.includes(balance.toLocaleString('en-US', { maximumFractionDigits: 2 })) || undefined, { timeoutMs: 3000, intervalMs: 20 });
    const { tooltip } = statusBar.snapshot();
    assert.match(tooltip, /production/);
    assert.match(tooltip, /60 requests\/min/);
    // The request id is the service's text: escaped in the tooltip's Markdown (issue 27, item 5).
    assert.ok(tooltip.includes(markdownLiteral(snapshot.lastRequestId ?? '???')), tooltip);
    assert.equal(services().account.get('preview').balanceCredits === balance, false, 'preview keeps its own wallet');
  });

  it('warns below the threshold, and updates from error responses (402) too', async () => {
    await vscode.workspace.getConfiguration().update('inference.balanceWarningThreshold', 5000, vscode.ConfigurationTarget.Global);
    try {
      await (await services().api.client('production')).listModels({ type: 'chat' });
      await waitFor('warning look', () => fixture().api.statusBar.snapshot().warning || undefined, { timeoutMs: 3000, intervalMs: 20 });
      emulator().setBalance('production', 0);
      const client = await services().api.client('production');
      await client.chat({ model: emulator().environments.production.chatModels[0], messages: [{ role: 'user', content: 'hi' }] }).catch(() => undefined);
      assert.equal(services().account.get('production').balanceCredits, 0);
    } finally {
      await vscode.workspace.getConfiguration().update('inference.balanceWarningThreshold', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('retries a 429 after Retry-After, at most the configured number of times', async () => {
    // Chat requests: VS Code may refresh the language models' list (GET /models) in the background at any time.
    const chat = () => client.chat({ model: emulator().environments.production.chatModels[0], messages: [{ role: 'user', content: 'hi' }] });
    const chatRequests = () => emulator().requests.filter((r) => r.path.endsWith('/chat/completions'));
    emulator().injectFault('production', { fault: 'http-429', retryAfterSeconds: 1, times: 1, path: '/chat/completions' });
    const client = await services().api.client('production');
    const started = Date.now();
    const answer = await services().api.withRateLimitRetry('test', chat);
    assert.ok(answer.text.length > 0);
    assert.ok(Date.now() - started >= 900, 'waited for Retry-After');
    assert.deepEqual(chatRequests().map((r) => r.status), [429, 200]);

    await vscode.workspace.getConfiguration().update('inference.rateLimit.maxRetries', 1, vscode.ConfigurationTarget.Global);
    try {
      emulator().reset();
      emulator().injectFault('production', { fault: 'http-429', retryAfterSeconds: 1, times: 3, path: '/chat/completions' });
      await assert.rejects(services().api.withRateLimitRetry('test', chat), (e: unknown) => isApiError(e) && e.kind === 'rateLimited');
      assert.equal(chatRequests().length, 2, 'one try and one retry');
    } finally {
      await vscode.workspace.getConfiguration().update('inference.rateLimit.maxRetries', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('never retries a 402', async () => {
    emulator().setBalance('production', 0);
    const client = await services().api.client('production');
    await assert.rejects(services().api.withRateLimitRetry('test', () => client.chat({ model: emulator().environments.production.chatModels[0], messages: [{ role: 'user', content: 'hi' }] })),
      (e: unknown) => isApiError(e) && e.kind === 'insufficientCredits');
    assert.equal(emulator().requests.filter((r) => r.path.endsWith('/chat/completions')).length, 1);
  });
  it('a list asked for after the key changed does not share the request begun with the old key', async () => {
    await services().keys.set('production', emulator().keys.production.expired);
    await services().models.invalidate('production');
    emulator().injectFault('production', { fault: 'slow-first-byte', delayMs: 1000, path: '/models' });
    const before = emulator().requests.length;
    const withOldKey = services().models.list('chat', 'production').then(() => undefined, (error: unknown) => error);
    await waitFor('the request with the old key', () => emulator().requests.length > before || undefined, { timeoutMs: 5000, intervalMs: 20 });
    await services().keys.set('production', emulator().keys.production.full);
    assert.deepEqual(await services().models.list('chat', 'production'), emulator().environments.production.chatModels);
    const refused = await withOldKey;
    assert.ok(isApiError(refused) && refused.kind === 'unauthorized', `the old key's request answers only its caller: ${String(refused)}`);
    // (VS Code's own background refresh of the language models' list may add requests of either key.)
    const statuses = emulator().requests.slice(before).filter((r) => r.path.includes('type=chat')).map((r) => r.status);
    assert.equal(statuses[0], 401, 'the old key was refused');
    assert.ok(statuses.includes(200), `a request of its own with the new key: ${statuses.join(', ')}`);
  });
});
