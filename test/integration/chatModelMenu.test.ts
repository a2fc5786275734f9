import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatModelsView } from '../../src/core/chat/chatRequests';
import { waitFor } from '../harness/wait';
import { useConfiguredEmulator } from './support/emulatorSetup';

/**
 * The panel's model menu as the host answers it (webview/modelMenu.ts draws it; test/ui/chatModelMenu
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
    await vscode.commands.executeCommand('inference.newChat');
    id = await waitFor('a new chat panel', () => chat().openConversations().at(-1), { timeoutMs: 5000, intervalMs: 20 });
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
});
