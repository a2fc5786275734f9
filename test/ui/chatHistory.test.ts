import * as assert from 'node:assert/strict';
import { waitFor } from '../harness/wait';
import { chatSteps } from './chatSteps';
import { useWorkbench } from './fixture';

/** Past conversations in real VS Code: list, reopen, rename, export as Markdown, delete. */
describe('chat panel: history', () => {
  const ui = useWorkbench();
  const { chat, messages, openChat, send, waitForAnswerEnd, editorText } = chatSteps(ui);
  const title = () => chat().locator('.conversation-title');
  const header = (action: string) => chat().locator(`.header-actions button[data-action="${action}"]`);
  const tab = (label: string) => ui.page.locator('.tabs-container .tab[data-resource-name^="webview-inference.chat"]', { hasText: label });
  const rows = () => ui.page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  /** The titles in the open history pick (quickPickItems would add each item's date detail). */
  const historyTitles = async () => {
    await ui.quickPickItems();
    return rows().evaluateAll((nodes) => nodes.map((n) => n.querySelector('.label-name')?.textContent?.trim() ?? ''));
  };

  async function converse(question: string, answer: string): Promise<void> {
    ui.emulator.scriptReply('production', { text: answer });
    await send(question);
    await waitForAnswerEnd();
  }

  it('renames a conversation from the panel header', async () => {
    await openChat();
    await converse('First conversation question', 'Answer **one**.');
    assert.equal(await title().innerText(), 'First conversation question');
    await header('renameConversation').click();
    await ui.typeInInput('Renamed chat');
    await waitFor('the new title', async () => (await title().innerText()) === 'Renamed chat', { timeoutMs: 10_000, intervalMs: 100 });
    await tab('Renamed chat').waitFor({ timeout: 10_000 });
  });

  it('lists conversations newest first and reopens one in the panel', async () => {
    await header('newConversation').click();
    await chat().locator('.empty-state').waitFor({ state: 'visible', timeout: 10_000 });
    await converse('Second conversation question', 'Answer two.');
    await header('openHistory').click();
    assert.deepEqual(await historyTitles(), ['Second conversation question', 'Renamed chat']);
    await ui.screenshot('01-history-list');
    await ui.pickQuickPickItem('Renamed chat');
    await waitFor('the reopened conversation', async () => (await title().innerText()) === 'Renamed chat', { timeoutMs: 10_000, intervalMs: 100 });
    assert.equal(await messages('user').count(), 1);
    assert.equal(await messages('user').locator('.user-text').innerText(), 'First conversation question');
    assert.equal((await messages('assistant').locator('.markdown').innerText()).trim(), 'Answer one.');
    assert.equal(await messages('assistant').locator('.markdown strong').innerText(), 'one', 'rendered as markdown again');
  });

  it('exports the conversation as a Markdown document', async () => {
    await header('exportMarkdown').click();
    const text = await waitFor('the exported document', async () => {
      const content = await editorText();
      return content.includes('Answer **one**.') ? content : undefined;
    }, { timeoutMs: 15_000, intervalMs: 200 });
    await ui.screenshot('02-exported-markdown');
    const lines = text.split('\n');
    assert.equal(lines[0], '# Renamed chat');
    assert.match(lines[2], /^_Exported \d{4}-\d\d-\d\dT[\d:.]+Z_$/);
    const body = lines.slice(3).join('\n').trim();
    // The editor wraps the long metadata line: any space in it may have become a line break.
    assert.match(body, /^## You\n\nFirst conversation question\n\n## Assistant\n\nAnswer \*\*one\*\*\.\n\n<sub>model\s+emu-chat-large\s+·\s+request\s+req_\w+\s+·\s+[\d-]+T[\d:.]+Z\s+·\s+[\d.]+\s+credits<\/sub>$/);
    assert.ok(!body.includes('Second conversation question'), 'only this conversation');
    assert.match(await ui.page.locator('.tabs-container .tab.active').innerText(), /Untitled/);
  });

  it('deletes conversations from the history, closing a panel that shows one', async () => {
    await ui.runCommand('Inference: Chat History');
    const row = rows().filter({ hasText: 'Second conversation question' });
    await row.hover();
    await row.locator('.action-label.codicon-trash').click();
    await waitFor('the list without it', async () => JSON.stringify(await historyTitles()) === JSON.stringify(['Renamed chat']), { timeoutMs: 10_000, intervalMs: 100 });
    const open = rows().filter({ hasText: 'Renamed chat' });
    await open.hover();
    await open.locator('.action-label.codicon-trash').click();
    await tab('Renamed chat').waitFor({ state: 'detached', timeout: 10_000 });
    await waitFor('an empty history', async () => (await rows().count()) === 0, { timeoutMs: 10_000, intervalMs: 100 });
    assert.match(await ui.page.locator('.quick-input-widget .quick-input-box input').getAttribute('placeholder') ?? '', /No saved conversations/);
    await ui.closeQuickInput();
  });
});
