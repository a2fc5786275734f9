import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatModelsView } from '../../src/core/chat/protocol/chatRequests';
import { waitFor } from '../harness/wait';
import { openNewChatPanel } from './support/chatPanels';
import { useConfiguredEmulator } from './support/emulatorSetup';

/**
 * The panel's model menu as the host answers it (webview/chat/modelMenu.ts draws it; test/ui/chatModelMenu
 * drives the page): what it lists, and a pick that the environment does not list is refused,
 * because whatever a webview sends is untrusted.
 */
describe('chat model menu: the host lists the environment\'s models and refuses an unlisted pick (real extension host)', () => {
  const fixture = useConfiguredEmulator();
  const chat = () => fixture().api.chat;
  const models = () => fixture().emulator.environments.production.chatModels;
  let id: string;

  before(async () => {
    const { api, emulator } = fixture();
    assert.ok(models().length >= 2, 'the emulator offers two chat models or more');
    await api.services.keys.set('production', emulator.keys.production.full);
    await api.services.models.select('chat', models()[0], 'production');
    id = await openNewChatPanel(chat());
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await fixture().api.services.keys.clear('production');
  });

  const menu = async () => await chat().request(id, 'chatModels', {}) as ChatModelsView;
  const conversationModel = async () => (await chat().conversation(id))?.model;

  it('lists every chat model of the environment, with the environment\'s model and no conversation model yet', async () => {
    const view = await menu();
    assert.deepEqual(view.models, models());
    assert.equal(view.environmentModel, models()[0]);
    assert.equal(view.current, undefined);
  });

  it('sets a listed model for this conversation only, and goes back to the environment\'s', async () => {
    await chat().request(id, 'setChatModel', { model: models()[1] });
    assert.equal(await conversationModel(), models()[1]);
    assert.equal((await menu()).current, models()[1]);
    assert.equal(fixture().api.services.models.selectedChatModel('production'), models()[0], 'the environment keeps its model');
    await chat().request(id, 'setChatModel', {});
    assert.equal(await conversationModel(), undefined);
  });

  it('refuses a model the environment does not list, and keeps the conversation\'s model', async () => {
    await chat().request(id, 'setChatModel', { model: models()[1] });
    await assert.rejects(chat().request(id, 'setChatModel', { model: 'not-offered-model' }), /does not list the model "not-offered-model"/);
    assert.equal(await conversationModel(), models()[1]);
    assert.equal((await menu()).current, models()[1]);
  });

  it('answers a failed question again, once, with the model picked from its card, and not an answer that is no longer last', async () => {
    const { emulator } = fixture();
    const posts = () => emulator.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const lastAnswer = async () => (await chat().conversation(id))?.messages.at(-1);
    const settled = () => waitFor('the answer to end', async () => ((m) => (m?.role === 'assistant' && m.status !== 'streaming' ? m : undefined))(await lastAnswer()), { timeoutMs: 15_000, intervalMs: 20 });
    await chat().request(id, 'setChatModel', {});
    emulator.injectFault('production', { fault: 'http-404', path: '/chat/completions' });
    await chat().request(id, 'send', { text: 'Which model answers?' });
    const failed = await settled();
    assert.equal(failed.status, 'error');
    const before = posts().length;
    await chat().request(id, 'setChatModel', { model: models()[1], answerAgain: failed.id });
    await waitFor('the new answer', async () => ((m) => (m && m.id !== failed.id && m.status === 'done' ? m : undefined))(await lastAnswer()), { timeoutMs: 15_000, intervalMs: 20 });
    assert.equal(posts().length, before + 1, 'one request for the new answer');
    assert.equal(posts().at(-1)?.model, models()[1]);
    assert.equal((await chat().conversation(id))?.messages.filter((m) => m.role === 'assistant').length, 1, 'the failed answer was replaced');
    // The same model picked from a card answers again too: the user asked for it.
    emulator.injectFault('production', { fault: 'http-404', path: '/chat/completions' });
    await chat().request(id, 'send', { text: 'And now?' });
    const failedAgain = await settled();
    assert.equal(failedAgain.status, 'error');
    await chat().request(id, 'setChatModel', { model: models()[1], answerAgain: failedAgain.id });
    const last = await waitFor('the answer with the same model', async () => ((m) => (m && m.id !== failedAgain.id && m.status === 'done' ? m : undefined))(await lastAnswer()), { timeoutMs: 15_000, intervalMs: 20 });
    assert.equal(posts().length, before + 3, 'the failed question and its one answer again');
    assert.equal(posts().at(-1)?.model, models()[1]);
    // The card of an answer that is no longer the last sets the model only.
    await chat().request(id, 'setChatModel', { model: models()[0], answerAgain: failed.id });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(posts().length, before + 3, 'nothing is sent for an answer that is not the last');
    assert.equal((await lastAnswer())?.id, last.id);
    assert.equal(await conversationModel(), models()[0]);
  });
});
