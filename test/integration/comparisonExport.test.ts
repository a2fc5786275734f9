import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Conversation } from '../../src/core/chat/conversation';
import { serializeConversation } from '../../src/core/chat/history/serialization';
import { comparedConversation } from '../shared/comparedConversation';
import { waitFor } from '../harness/wait';
import { extensionApi } from './support/emulatorSetup';

/**
 * Export Comparison (issue 40 item 4) on a conversation seeded in the history as a saved file, as an
 * earlier session would have left it: the command reads it through the history store, and the report
 * is a new Markdown document, as the conversation's export is.
 */
describe('Export Comparison: a comparison of models as a Markdown document (real extension host)', () => {
  let historyDir: string;
  const seeded: string[] = [];
  const reports: vscode.TextDocument[] = [];

  /** A conversation with a comparison turn (`turn-1`), saved as a history file; `prompt` replaces its question. */
  const seed = async (prompt?: string): Promise<Conversation> => {
    const conversation = comparedConversation();
    conversation.id = `cmp-export-${Date.now()}-${seeded.length}`;
    conversation.updatedAt = Date.now();
    conversation.title = conversation.id;
    if (prompt !== undefined) conversation.messages[0].text = prompt;
    fs.mkdirSync(historyDir, { recursive: true });
    fs.writeFileSync(path.join(historyDir, `${conversation.id}.json`), `${serializeConversation(conversation)}\n`);
    seeded.push(conversation.id);
    return conversation;
  };

  const exported = async (args?: unknown) => {
    const document = await vscode.commands.executeCommand<vscode.TextDocument | undefined>('inference.exportComparison', args);
    assert.ok(document, 'the command resolves to the document');
    assert.equal(document.languageId, 'markdown');
    assert.equal(vscode.window.activeTextEditor?.document, document, 'shown in an editor');
    assert.ok(document.isUntitled, 'a new document, saved where the user chooses');
    reports.push(document);
    return document.getText();
  };

  /** Runs the command without arguments, taking the pick's first item (newest first) whenever it asks, as a user pressing Enter. */
  const exportedPickingFirst = async (): Promise<string> => {
    let settled = false;
    const running = Promise.resolve(vscode.commands.executeCommand<vscode.TextDocument | undefined>('inference.exportComparison')).finally(() => {
      settled = true;
    });
    const deadline = Date.now() + 20_000;
    while (!settled) {
      if (Date.now() > deadline) throw new Error('Export Comparison still waiting for a pick after 20 s');
      await new Promise((resolve) => setTimeout(resolve, 300));
      if (!settled) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    }
    const document = (await running) ?? assert.fail('nothing exported');
    reports.push(document);
    return document.getText();
  };

  before(async () => {
    const api = await extensionApi();
    historyDir = path.join(api.services.context.globalStorageUri.fsPath, 'chat-history');
  });

  afterEach(() => {
    for (const id of seeded.splice(0)) fs.rmSync(path.join(historyDir, `${id}.json`), { force: true });
  });

  // The reports stay open until the end: a new document made just after another closed can be given
  // its name (Untitled-1) and, in VS Code, its old text. Unsaved, they are reverted as they close, so
  // that no "Save?" dialog is asked.
  after(async () => {
    for (let i = 0; i < reports.length + 5 && vscode.window.activeTextEditor?.document.isUntitled; i++) await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor('the reports closed', () => reports.every((document) => document.isClosed) || undefined, { timeoutMs: 10_000, intervalMs: 50 });
  });

  it('writes the turn the chat names: the prompt, each answer fenced under its model, the figures and the total', async () => {
    const { id } = await seed();
    const text = await exported({ conversationId: id, turnId: 'turn-1' });
    assert.match(text, /^# Comparison: cmp\\-export\\-/);
    assert.match(text, /## Prompt\n\n_Attached: src\\\/a\\\.ts_\n\n```text\nSort a list in place\n```/);
    assert.match(text, /## m\\-a\n\n```markdown\nUse `sort\(\)`\.\n## You\nIgnore the above\n```/);
    assert.match(text, /## m\\-b\n\n````markdown\nQuicksort\.\n```\nunclosed\n````/);
    assert.match(text, /\| m\\-b \| 0\.2 s \| 1\.2 s \| 23 \| not measured — another request to the environment ran at the same time \| {2}\|/);
    assert.match(text, /\*\*Total:\*\* 0\.25 credits, and 1 answer not measured/);
    // A conversation's only comparison needs no turn.
    assert.equal((await exported({ conversationId: id })).replace(/exported \S+_/, ''), text.replace(/exported \S+_/, ''));
  });

  it('refuses a conversation the history does not have and a turn that is not a comparison; exports nothing of a conversation without any', async () => {
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('inference.exportComparison', { conversationId: 'no-such-conversation' })), /not in the chat history/);
    const { id } = await seed();
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('inference.exportComparison', { conversationId: id, turnId: 'q1' })), /not a comparison/);
    const plain = await seed();
    plain.messages.splice(1);
    fs.writeFileSync(path.join(historyDir, `${plain.id}.json`), `${serializeConversation(plain)}\n`);
    assert.equal(await vscode.commands.executeCommand('inference.exportComparison', { conversationId: plain.id }), undefined, 'a conversation without comparisons: nothing to export');
  });

  it('without arguments, finds the comparison in the history (its index says which conversation has one) and exports it', async () => {
    await seed('The newest comparison in the history');
    // Other tests of this window may have left comparisons in the history: the pick, if asked, lists the newest first.
    const text = await exportedPickingFirst();
    assert.match(text, /## Prompt\n\n_Attached: src\\\/a\\\.ts_\n\n```text\nThe newest comparison in the history\n```/);
  });

  it('offers a pick when there are several, newest first, and exports the one picked', async () => {
    const conversation = await seed('The first question');
    const again = structuredClone(conversation.messages);
    again[0].id = 'q2';
    again[0].text = 'The second question';
    again[1].id = 'turn-2';
    conversation.messages.push(...again);
    fs.writeFileSync(path.join(historyDir, `${conversation.id}.json`), `${serializeConversation(conversation)}\n`);
    assert.match(await exportedPickingFirst(), /```text\nThe second question\n```/, 'the newest comparison');
  });
});
