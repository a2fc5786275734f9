import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ConversationMessage } from '../../src/core/chat/conversation';
import { waitFor } from '../harness/wait';
import { openNewChatPanel } from './support/chatPanels';
import { useConfiguredEmulator } from './support/emulatorSetup';

/**
 * With inference.chat.refreshBalanceAfterAnswer off, a streamed answer costs exactly one request of
 * the key's per-minute budget, and claims no spend it did not measure (the panel shows a spend only
 * from `creditsSpent`; the composer's UI tests cover the default, where the settled spend is shown).
 */
describe('Chat without the balance read after an answer (real extension host, emulator back end)', () => {
  const fixture = useConfiguredEmulator({ tokensPerSecond: 200 });
  const chat = () => fixture().api.chat;

  before(async () => {
    const { api, emulator } = fixture();
    await vscode.workspace.getConfiguration().update('inference.chat.refreshBalanceAfterAnswer', false, vscode.ConfigurationTarget.Global);
    await api.services.keys.set('production', emulator.keys.production.full);
    await api.services.models.select('chat', emulator.environments.production.chatModels[0], 'production');
  });

  after(async () => {
    await vscode.workspace.getConfiguration().update('inference.chat.refreshBalanceAfterAnswer', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('makes no request but the answer, and states no spend', async () => {
    const id = await openNewChatPanel(chat());
    const sentAt = Date.now();
    await chat().request(id, 'send', { text: 'Hello without a balance check' });
    const answer = await waitFor('the answer to end', async () => ((m: ConversationMessage | undefined) => (m?.role === 'assistant' && m.status !== 'streaming' ? m : undefined))((await chat().conversation(id))?.messages.at(-1)), { timeoutMs: 30_000, intervalMs: 20 });
    assert.equal(answer.status, 'done');
    // The spend would arrive within a few hundred milliseconds of the answer's end: give it time.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = fixture().emulator.requests.filter((r) => r.startedAt >= sentAt);
    assert.deepEqual(after.map((r) => r.path), ['/api/v1/chat/completions']);
    const saved = (await chat().conversation(id))?.messages.at(-1);
    assert.equal(saved?.meta?.creditsSpent, undefined, 'no spend is claimed');
  });
});
