import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { isApiError } from '../../../src/core/api/errors';
import type { ImageInputs } from '../../../src/core/images/imageJob';
import { refreshAccount } from '../../../src/host/account/accountCommands';
import { generateImage, type GenerationOutcome } from '../../../src/host/images';
import { waitFor } from '../../harness/wait';
import { windowLogText } from '../support/logs';
import { useEmulatorSuite } from '../support/emulatorSetup';

const IMAGE: ImageInputs = { prompt: 'a lighthouse', model: 'auto', seed: 3, responseFormat: 'b64_json' };

function failedWith(outcome: GenerationOutcome): unknown {
  assert.equal(outcome.status, 'failed', `expected a failure, got ${outcome.status}`);
  return (outcome as Extract<GenerationOutcome, { status: 'failed' }>).error;
}

describe('Trust boundaries with the service (real extension host, emulator back end)', () => {
  const { services, emulator } = useEmulatorSuite({ keys: ['production'], freshModelLists: ['production'] });

  it('a service echoing the Authorization header puts no key in the log, through commands and presented errors', async function () {
    this.timeout(30_000);
    const key = emulator().keys.production.full;
    const model = emulator().environments.production.chatModels[0];
    emulator().injectFault('production', { fault: 'echo-authorization', path: '/models' });
    await vscode.commands.executeCommand('inference.refreshAccount');
    emulator().injectFault('production', { fault: 'echo-authorization', path: '/images/generations' });
    const image = failedWith(await generateImage(services(), IMAGE));
    await services().errors.present(image, { source: 'image generation', env: 'production' });
    emulator().injectFault('production', { fault: 'echo-authorization-mid-stream' });
    const client = await services().api.client('production');
    let streamError: unknown;
    try {
      for await (const event of client.streamChat({ model, messages: [{ role: 'user', content: 'echo' }] })) void event;
    } catch (error) {
      streamError = error;
    }
    assert.ok(isApiError(streamError) && streamError.kind === 'streamError');
    await services().errors.present(streamError, { source: 'chat', env: 'production' });
    assert.equal(emulator().requests.filter((r) => r.faults?.some((f) => f.startsWith('echo-authorization'))).length, 3, 'the service echoed three times');

    const log = await waitFor('the three redacted errors to reach the log file', () => {
      const text = windowLogText(services().context);
      return (text.match(/\[redacted\]/g) ?? []).length >= 3 ? text : undefined;
    }, { timeoutMs: 10_000, intervalMs: 100 });
    assert.equal(log.includes(key), false, 'the key is not in the log');
    assert.equal(log.includes(key.slice(emulator().keyPrefix.length)), false, 'nor the key without its prefix');
    assert.match(log, /account refresh failed in production: .*Bearer \[redacted\]/);
  });

  it('a 404 from image generation forgets the image model only, never the chat model', async () => {
    const [chatModel] = await services().models.list('chat', 'production');
    await services().models.list('image', 'production');
    await services().models.select('chat', chatModel, 'production');
    await services().models.select('image', 'emu-image-gone', 'production');
    const error = failedWith(await generateImage(services(), { ...IMAGE, model: 'emu-image-gone' }));
    assert.ok(isApiError(error) && error.kind === 'modelNotFound' && error.endpoint === 'images');
    await services().errors.present(error, { source: 'image generation', env: 'production' });
    assert.equal(services().models.selected('image', 'production'), undefined, 'the stale image model is forgotten');
    assert.equal(services().models.cached('production', 'image'), undefined, 'with its list');
    assert.equal(services().models.selectedChatModel('production'), chatModel, 'the chat model stays');
    assert.ok(services().models.cached('production', 'chat'), 'and so does the chat list');
  });

  it('a proxy\'s HTML 404 on chat is not an unknown model: the selection stays and the base URL is suspected', async () => {
    const [chatModel] = await services().models.list('chat', 'production');
    await services().models.select('chat', chatModel, 'production');
    emulator().injectFault('production', { fault: 'html-404', path: '/chat/completions' });
    const client = await services().api.client('production');
    const error = await client.chat({ model: chatModel, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    assert.ok(isApiError(error) && error.kind === 'notFound', String(error));
    assert.match(error.message, /base URL may be wrong/);
    await services().errors.present(error, { source: 'chat', env: 'production' });
    assert.equal(services().models.selectedChatModel('production'), chatModel);
    assert.deepEqual(services().errors.actionsFor(error).map((action) => action.id), ['openSettings', 'copyRequestId', 'openLogs']);
  });

  it('Refresh Balance says when the balance is from when the model list carries no balance header', async () => {
    const client = await services().api.client('production');
    await client.chat({ model: emulator().environments.production.chatModels[0], messages: [{ role: 'user', content: 'hi' }] });
    const { balanceCredits, balanceAt } = services().account.get('production');
    assert.ok(balanceCredits !== undefined && balanceAt !== undefined);
    assert.equal(await refreshAccount(services()), undefined, 'a list with the header refreshes silently');
    emulator().injectFault('production', { fault: 'no-balance-header', path: '/models' });
    const notice = await refreshAccount(services());
    assert.equal(emulator().requests.at(-1)?.faults?.[0], 'no-balance-header');
    assert.ok(notice, 'the user is told');
    assert.match(notice, /did not report a balance with the model list/);
    assert.match(notice, new RegExp(`${emulator().balance('production').toLocaleString('en-US', { maximumFractionDigits: 2 }).replace('.', '\\.')} credits, is from just now`));
    assert.match(notice, /refreshes with the next chat or image call/);
  });
});
