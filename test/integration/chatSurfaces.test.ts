import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ConversationMessage } from '../../src/core/chat/conversation';
import { waitFor } from '../harness/wait';
import { useConfiguredEmulator } from './support/emulatorSetup';

const LONG_ANSWER = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');

/**
 * The side-bar view and the editor panels as one set of surfaces over one history (issue 29 item 1):
 * a conversation moves between them with its answer in flight, and none is ever shown (written) twice.
 */
describe('Chat surfaces: the side-bar view and editor panels share conversations with one writer each (real extension host)', () => {
  const fixture = useConfiguredEmulator();
  const chat = () => fixture().api.chat;
  const lastAnswer = async (id: string): Promise<ConversationMessage | undefined> => (await chat().conversation(id))?.messages.at(-1);

  before(async () => {
    const { api, emulator } = fixture();
    await api.services.keys.set('production', emulator.keys.production.full);
    await api.services.models.select('chat', emulator.environments.production.chatModels[0], 'production');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await fixture().api.services.keys.clear('production');
  });

  it('moves a streaming answer from the view to an editor tab and back; it streams on and is saved whole, once', async () => {
    await vscode.commands.executeCommand('inference.chatView.focus');
    const first = await waitFor('the side-bar view', () => chat().sideViewConversation(), { timeoutMs: 15_000, intervalMs: 20 });
    await chat().request(first, 'newConversation', {});
    const id = chat().sideViewConversation()!;
    // Held after its first words until it has moved both ways, however slow the machine: it is
    // surely streaming while it moves. Being held, it needs no pacing.
    fixture().emulator.scriptReply('all', { text: LONG_ANSWER, holdAfterPieces: 20 });
    await chat().request(id, 'send', { text: 'A long answer, please' });
    await waitFor('some streamed text', async () => ((await lastAnswer(id))?.text.length ?? 0) > 20, { timeoutMs: 15_000, intervalMs: 20 });

    await vscode.commands.executeCommand('inference.openChatInEditor');
    assert.deepEqual(chat().openConversations().slice(-1), [id], 'the tab shows the moved conversation');
    assert.notEqual(chat().sideViewConversation(), id, 'the view no longer shows it');
    assert.equal((await lastAnswer(id))?.status, 'streaming', 'the answer streams on in the tab');

    await vscode.commands.executeCommand('inference.moveChatToSideBar');
    assert.equal(chat().sideViewConversation(), id);
    assert.ok(!chat().openConversations().includes(id), 'the tab was closed');
    assert.equal(fixture().emulator.held(), 1, 'the answer was still streaming through both moves');
    fixture().emulator.resumeHeld();
    const done = await waitFor('the answer to end', async () => ((m) => (m?.status === 'streaming' ? undefined : m))(await lastAnswer(id)), { timeoutMs: 30_000, intervalMs: 50 });
    assert.equal(done?.status, 'done');
    assert.equal(done?.text, LONG_ANSWER);
    assert.equal(fixture().emulator.requests.filter((r) => r.path.endsWith('/chat/completions')).length, 1, 'moving sent nothing again');
    // What the history holds once the view lets go of it: exactly the one answer.
    await chat().request(id, 'newConversation', {});
    const saved = await waitFor('the saved conversation', async () => (chat().sideViewConversation() !== id ? chat().conversation(id) : undefined), { timeoutMs: 5000, intervalMs: 20 });
    assert.deepEqual(saved.messages.map((m) => [m.role, m.status ?? null, m.text.length]), [['user', null, 'A long answer, please'.length], ['assistant', 'done', LONG_ANSWER.length]]);
  });

  it('opens a conversation the view shows by revealing the view, never in a second surface', async () => {
    const id = chat().sideViewConversation()!;
    await chat().request(id, 'send', { text: 'Hello' });
    await waitFor('the answer to end', async () => ((m) => (m?.role === 'assistant' && m.status !== 'streaming' ? m : undefined))(await lastAnswer(id)), { timeoutMs: 30_000, intervalMs: 50 });
    const panelsBefore = chat().openConversations();
    // Search History and Chat History end in the same place: a conversation id opened as a user would.
    await vscode.commands.executeCommand('inference.newChat');
    const panel = await waitFor('a new panel', () => chat().openConversations().find((c) => !panelsBefore.includes(c)), { timeoutMs: 5000, intervalMs: 20 });
    // The panel's own history pick lands here with the view's conversation: it is revealed there instead.
    await chat().showIn(panel, id);
    assert.equal(chat().sideViewConversation(), id);
    assert.ok(!chat().openConversations().includes(id), 'no panel shows the view\'s conversation');
    assert.ok(chat().openConversations().includes(panel), 'the panel keeps its own conversation');
  });
});
