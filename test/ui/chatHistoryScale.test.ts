import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Conversation } from '../../src/core/chat/conversation';
import { serializeConversation } from '../../src/core/chat/history/serialization';
import { waitFor } from '../harness/wait';
import { chatSteps } from './chatSteps';
import { useWorkbench } from './fixture';
import { extensionStorage } from './sharedWorkbench';

const CONVERSATIONS = 3_000;
const MATCH_TITLE = 'Tuning the bilge pump';
const PHRASE = 'peristaltic impeller';
/** The matching message sits far above the end of a long conversation: opening at the bottom would not show it. */
const MATCH_INDEX = 6;
const MESSAGES = 40;

function conversation(index: number, now: number): Conversation {
  const at = now - index * 3_600_000;
  const match = index === 1_234;
  const messages: Conversation['messages'] = [];
  for (let i = 0; i < (match ? MESSAGES : 4); i++) {
    const assistant = i % 2 === 1;
    const text = match && i === MATCH_INDEX
      ? `A ${PHRASE} moves the water without touching it.`
      : `${assistant ? 'Answer' : 'Question'} ${i} of conversation ${index}. ${'Some words to fill the page. '.repeat(match ? 12 : 30)}`;
    messages.push({ id: `m${i}`, role: assistant ? 'assistant' : 'user', text, createdAt: at, ...(assistant && { status: 'done' as const, meta: { model: 'emu-chat-large' } }) });
  }
  return { id: `scale-${index}`, title: match ? MATCH_TITLE : `Conversation ${index}`, params: {}, createdAt: at, updatedAt: at, messages };
}

/** Thousands of saved conversations in real VS Code: Chat History lists them, search finds one word and opens it there. */
describe('chat history at scale: list, search, open a match', () => {
  const ui = useWorkbench();
  const { chat } = chatSteps(ui);
  const rows = () => ui.page.locator('.quick-input-widget .quick-input-list .monaco-list-row');

  before(() => {
    const dir = path.join(extensionStorage(ui.server), 'chat-history');
    fs.mkdirSync(dir, { recursive: true });
    const now = Date.now();
    for (let i = 0; i < CONVERSATIONS; i++) {
      const c = conversation(i, now);
      fs.writeFileSync(path.join(dir, `${c.id}.json`), `${serializeConversation(c)}\n`);
    }
  });

  it(`opens Chat History with ${CONVERSATIONS.toLocaleString('en')} conversations, newest first`, async () => {
    const started = Date.now();
    await ui.runCommand('Inference: Chat History');
    await rows().first().filter({ hasText: 'Conversation 0' }).waitFor({ timeout: 60_000 });
    console.log(`    [ui] first Chat History (the index built from ${CONVERSATIONS} files): ${Date.now() - started} ms`);
    await ui.screenshot('01-history-thousands');
    await ui.closeQuickInput();
    // The second opening reads the index only.
    const again = Date.now();
    await ui.runCommand('Inference: Chat History');
    await rows().first().filter({ hasText: 'Conversation 0' }).waitFor({ timeout: 30_000 });
    console.log(`    [ui] Chat History again (from the index): ${Date.now() - again} ms`);
    await ui.closeQuickInput();
  });

  it('searches the text of every conversation and opens the match scrolled to it', async () => {
    await ui.runCommand('Inference: Search Chat History');
    await ui.typeInInput(PHRASE.toUpperCase(), { submit: false });
    const hit = rows().filter({ hasText: MATCH_TITLE });
    await hit.waitFor({ timeout: 60_000 });
    await waitFor('the search to finish', async () => !(await ui.page.locator('.quick-input-widget .quick-input-progress-bar .progress-bit').isVisible()), { timeoutMs: 60_000, intervalMs: 200 });
    assert.equal(await rows().count(), 1, 'only the conversation that holds the words');
    await hit.filter({ hasText: `A ${PHRASE} moves the water` }).waitFor({ timeout: 10_000 });
    await ui.screenshot('02-search-result');
    await hit.click();
    // The outline goes after 2 s; from then on the message is found by its id, so that a slow
    // machine checks the same message however long the checks below take.
    const outlined = chat().locator('.message.revealed');
    await outlined.waitFor({ state: 'visible', timeout: 30_000 });
    const revealedId = await outlined.getAttribute('data-message-id');
    assert.ok(revealedId, 'the outlined message has an id');
    const revealed = chat().locator(`.message[data-message-id="${revealedId}"]`);
    // innerText is what is laid out: the message is outlined at once and scrolled to in the next
    // frame, and until then Chromium skips its off-screen box (content-visibility: auto).
    await waitFor('the revealed message to be laid out with its text', async () => new RegExp(PHRASE).test(await revealed.innerText()), { timeoutMs: 10_000, intervalMs: 100 });
    // The message is on screen, although the conversation is much taller than the panel.
    const placement = await revealed.evaluate((element) => {
      const list = element.closest('.messages') ?? element.parentElement!;
      const box = element.getBoundingClientRect();
      const view = list.getBoundingClientRect();
      return { inView: box.top >= view.top - 1 && box.top < view.bottom, scrolled: list.scrollTop, scrollable: list.scrollHeight - list.clientHeight };
    });
    assert.ok(placement.inView, `the match is in view (${JSON.stringify(placement)})`);
    assert.ok(placement.scrolled < placement.scrollable, 'and the panel is not at the bottom');
    assert.equal(await chat().locator('.message').count(), MESSAGES);
    await ui.screenshot('03-match-opened');
  });
});
