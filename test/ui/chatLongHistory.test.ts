import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HistoryStore } from '../../src/core/chat/history/historyStore';
import { conversationMessages } from '../shared/answerCorpus';
import { waitFor } from '../harness/wait';
import { chatSteps } from './chatSteps';
import { useWorkbench } from './fixture';
import { extensionStorage } from './sharedWorkbench';

/** A conversation of months, in real VS Code: it opens from the history at once and renders as it is scrolled. */
describe('chat panel: a 5 MB conversation from the history', () => {
  const ui = useWorkbench();
  const { chat } = chatSteps(ui);
  // Questions and done answers: nothing in them differs between the view and the stored message.
  const messages = conversationMessages(5_000_000).map(({ id, role, text, createdAt, status, meta }) => ({ id, role, text, createdAt, ...(status && { status }), ...(meta && { meta }) }));

  before(async function () {
    this.timeout(60_000);
    // Written as the extension writes history (the core store), in the window's global storage.
    const dir = path.join(extensionStorage(ui.server), 'chat-history');
    fs.mkdirSync(dir, { recursive: true });
    const store = new HistoryStore({ dir });
    await store.save({ id: 'long-conversation', title: 'A conversation of months', params: {}, createdAt: 0, updatedAt: Date.now(), messages });
    await store.save({ id: 'short-conversation', title: 'Its last turns alone', params: {}, createdAt: 0, updatedAt: Date.now() - 1000, messages: messages.slice(-4) });
  });

  /**
   * Opens a conversation from the history; the milliseconds until its latest answer is rendered.
   * Both conversations end with the same answer: the panel's title tells which one is shown. A pick
   * that did not take (once, under CI's load, the panel kept the other conversation) is made again,
   * and the log says so.
   */
  const open = async (title: string): Promise<number> => {
    let started = 0;
    await waitFor(`"${title}" opened from Chat History`, async () => {
      started = Date.now();
      // Under load the workbench has closed the history pick before its rows showed (ui.pickFromCommand
      // runs the command again then, and says so in the log), and once kept it open without them for a
      // minute, twice: an attempt is given 20 s (the rows show in 2-4 s under load) so that the next one
      // comes while this wait lasts, and a failure says what the quick input showed.
      await ui.pickFromCommand('Inference: Chat History', title, 20_000);
      try {
        await chat().locator('.conversation-title', { hasText: new RegExp(`^${title}$`) }).waitFor({ timeout: 20_000 });
        return true;
      } catch {
        console.log(`    [ui] "${title}" was not shown 20 s after its pick; picking it again`);
        return false;
      }
    }, { timeoutMs: 120_000, intervalMs: 500 });
    await chat().locator(`[data-message-id="${messages.at(-1)!.id}"] .markdown`).waitFor({ timeout: 60_000 });
    return Date.now() - started;
  };

  it('opens with the latest answer rendered, and renders an early answer when scrolled to it', async function () {
    // Its waits are bounded one by one (two opens, then the scrolling); 60 s was less than their sum.
    this.timeout(240_000);
    // The same panel showing the last turns alone first: what opening any conversation costs here.
    const short = await open('Its last turns alone');
    const long = await open('A conversation of months');
    console.log(`    [ui] from the pick to the latest answer rendered: ${long} ms for ${messages.length} messages, ${short} ms for their last 4`);
    await ui.screenshot('01-long-conversation-opened');
    await waitFor('every message in the panel', async () => (await chat().locator('.message').count()) === messages.length, { timeoutMs: 30_000, intervalMs: 200 });
    // Scrolled up with the mouse wheel, screens at a time: the answers on screen are rendered.
    await chat().locator('.messages').hover();
    for (let step = 0; step < 40; step++) await ui.page.mouse.wheel(0, -600);
    const placeholdersOnScreen = () => chat().locator('.messages').evaluate((list) => {
      const shown = list.getBoundingClientRect();
      return Array.from(list.querySelectorAll('.md-placeholder')).filter((p) => {
        const box = p.getBoundingClientRect();
        return box.bottom > shown.top && box.top < shown.bottom;
      }).length;
    });
    await waitFor('the answers on screen rendered', async () => (await placeholdersOnScreen()) === 0, { timeoutMs: 30_000, intervalMs: 100 });
    assert.ok(await chat().locator('.messages').evaluate((list) => list.scrollTop < list.scrollHeight - 4 * list.clientHeight), 'scrolled well above the end');
    await ui.screenshot('02-scrolled-up-by-wheel');
    const early = messages.find((m) => m.role === 'assistant')!;
    assert.equal(await chat().locator(`[data-message-id="${early.id}"] .md-placeholder`).count(), 1, 'an early answer waits, as plain text');
    await chat().locator(`[data-message-id="${early.id}"]`).scrollIntoViewIfNeeded();
    await chat().locator(`[data-message-id="${early.id}"] .markdown`).waitFor({ timeout: 30_000 });
    assert.equal(await chat().locator(`[data-message-id="${early.id}"] .md-placeholder`).count(), 0);
    await ui.screenshot('03-early-answer-scrolled-to');
  });

  it('finds text of an answer not rendered yet with the panel\'s find widget (Ctrl+F), and scrolls to it', async () => {
    const deferred = await chat().locator('.md-placeholder').first().evaluate((node) => (node.textContent ?? '').match(/[a-z]+(?: [a-z]+){5}/)?.[0]);
    assert.ok(deferred, 'an answer still waits as plain text');
    await chat().locator('.composer-input').click();
    await ui.page.keyboard.press('Control+F');
    const find = ui.page.locator('.simple-find-part-wrapper .simple-find-part input, .simple-find-part-wrapper textarea').first();
    await find.waitFor({ timeout: 10_000 });
    await find.fill(deferred);
    await find.press('Enter');
    // The webview's find widget shows no count in a browser: the page's own selection tells the match.
    const selected = await waitFor('the match selected in the panel', async () => {
      const text = await chat().locator('body').evaluate(() => (globalThis as unknown as { getSelection(): { toString(): string } | null }).getSelection()?.toString() ?? '');
      return text.toLowerCase() === deferred.toLowerCase() ? text : undefined;
    }, { timeoutMs: 15_000, intervalMs: 200 });
    console.log(`    [ui] find widget selected "${selected}"`);
    const onScreen = await chat().locator('body').evaluate(() => {
      const page = globalThis as unknown as { getSelection(): { getRangeAt(index: number): { getBoundingClientRect(): { top: number; bottom: number } } } | null; document: { querySelector(selector: string): { getBoundingClientRect(): { top: number; bottom: number } } | null } };
      const match = page.getSelection()!.getRangeAt(0).getBoundingClientRect();
      const list = page.document.querySelector('.messages')!.getBoundingClientRect();
      return match.top >= list.top && match.bottom <= list.bottom;
    });
    assert.ok(onScreen, 'the panel scrolled to the match');
    await ui.screenshot('04-find-in-page');
    await ui.page.keyboard.press('Escape');
  });
});
