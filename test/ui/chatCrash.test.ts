import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { waitForWorkbench } from '../harness/browser';
import { extensionHosts } from '../harness/processes';
import { waitFor } from '../harness/wait';
import { chatSteps } from './chatSteps';
import { useWorkbench } from './fixture';
import { extensionStorage } from './sharedWorkbench';
import * as workbench from './workbench';

/** Distinct words: any prefix of an answer is recognisable, and plain text renders as itself. */
const word = (stem: string, n: number) => `${stem}${String(n).padStart(3, '0')}`;
const words = (stem: string, count: number) => Array.from({ length: count }, (_, i) => word(stem, i + 1)).join(' ');
const LONG_REPLY = words('word', 300);
const SECOND_REPLY = words('other', 120);
/**
 * The emulator holds each of these answers after this many pieces (a word each) until the
 * test lets it go: the host is killed, or another window starts its answer, surely mid-stream on a
 * machine of any speed, and the rest then streams at full pace instead of slowly all along.
 */
const HOLD_AFTER_PIECES = 60;
const normalise = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

/**
 * Issue 12, item 3, as a user lives it: the extension host process dies in the middle of a stream
 * (SIGKILL, not Reload Window); then two windows stream into the same history at once and lose
 * nothing of each other's. One workbench for both (a start costs ~10 s): the second test runs after
 * the first, and looks only for its own conversations, so what the first left does not matter; in
 * this order, because the first counts the extension hosts and a closed second window's may linger.
 */
describe('chat history: a killed extension host, two windows at once', () => {
  // The window's extension host is the only one in code-server's process group: a shared
  // code-server stops the previous file's before this file's window opens (sharedWorkbench.ts).
  const ui = useWorkbench({ emulator: { tokensPerSecond: 200 } });
  const { chat, lastAnswer, openChat, send, waitForAnswerEnd } = chatSteps(ui);
  const historyDir = () => path.join(extensionStorage(ui.server), 'chat-history');
  const shown = async () => normalise(await lastAnswer().locator('.markdown').textContent());
  /** The text of the answer being streamed as its journal on disk has it (the first line's message, then `{"t": …}` lines). */
  const journaled = () => normalise(fs.readdirSync(historyDir()).filter((f) => f.endsWith('.stream'))
    .flatMap((f) => fs.readFileSync(path.join(historyDir(), f), 'utf8').split('\n'))
    .map((line) => { try { const record = JSON.parse(line) as { t?: string; message?: { text?: string } }; return record.t ?? record.message?.text ?? ''; } catch { return ''; } }).join(''));

  it('reopens the conversation with the text received up to the last write, marked interrupted', async function () {
    this.timeout(180_000);
    await openChat();
    ui.emulator.scriptReply('production', { text: LONG_REPLY, holdAfterPieces: HOLD_AFTER_PIECES });
    const request = await send('Tell me a long story');
    await waitFor('the streamed text up to the hold', async () => (await shown()).includes(word('word', HOLD_AFTER_PIECES)), { timeoutMs: 30_000, intervalMs: 100 });
    // Whatever the machine's load, the kill comes once text on screen has reached the disk (no sleep).
    const shownBefore = await shown();
    await waitFor('the shown text to be journaled on disk', () => journaled().length >= shownBefore.length, { timeoutMs: 30_000, intervalMs: 50 });
    const hosts = extensionHosts(ui.server.process.pid);
    assert.equal(hosts.length, 1, `one extension host in code-server's process group: ${JSON.stringify(hosts)}`);
    process.kill(hosts[0].pid, 'SIGKILL');
    const shownAtKill = await shown();
    await waitFor('the emulator to see the connection drop', () => request.clientClosedAt !== undefined, { timeoutMs: 15_000, intervalMs: 100 });
    await ui.screenshot('01-extension-host-killed');
    assert.ok(shownAtKill.length < normalise(LONG_REPLY).length, 'killed mid-stream');

    await ui.reloadWindow();
    // The panel died with its extension host (VS Code closes it): the user reopens it from the history.
    await ui.runCommand('Inference: Chat History');
    await ui.pickQuickPickItem(/^\s*Tell me a long story/);
    await chat().locator('.composer-input').waitFor({ state: 'visible', timeout: 60_000 });
    await lastAnswer().locator('.message-status', { hasText: 'Interrupted' }).waitFor({ timeout: 30_000 });
    const recovered = await shown();
    await ui.screenshot('02-reopened-interrupted');
    console.log(`    [ui] conversations recovered after the kill: 1 of 1 (shown, then journaled, before the kill: ${shownBefore.length} chars; at the kill: ${shownAtKill.length}; recovered: ${recovered.length} of ${normalise(LONG_REPLY).length})`);
    assert.ok(normalise(LONG_REPLY).startsWith(recovered), 'the recovered text is what was received, in order');
    assert.ok(recovered.length >= shownBefore.length, 'everything journaled before the kill is back');
    assert.ok(recovered.length < normalise(LONG_REPLY).length, 'nothing after the kill was invented');
    assert.equal(await chat().locator('.message.role-user .user-text').last().innerText(), 'Tell me a long story');
    const files = fs.readdirSync(historyDir());
    assert.deepEqual(files.filter((f) => f.endsWith('.stream')), [], 'the dead window\'s journal was folded into the log');

    // Its card offers Continue: one request, whose text goes on in the same answer.
    const chatRequests = () => ui.emulator.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const requestsBefore = chatRequests().length;
    await lastAnswer().locator('.error-card button', { hasText: 'Continue' }).click();
    // Until the request is on its way the answer still looks ended: wait for the request, then its end.
    const continued = await waitFor('the Continue request at the emulator', () => chatRequests()[requestsBefore], { timeoutMs: 15_000, intervalMs: 50 });
    await waitFor('the continued answer to end, longer', async () => continued.finishedAt !== undefined && (await shown()).length > recovered.length
      && (await lastAnswer().locator('.message-status', { hasText: 'Answering' }).count()) === 0, { timeoutMs: 30_000, intervalMs: 100 });
    assert.equal(normalise(continued.chat?.messages.at(-2)?.content ?? null), recovered, 'it goes on from the recovered text');
    assert.ok((await shown()).startsWith(recovered), 'the same answer, longer');
    assert.equal(chatRequests().length, requestsBefore + 1, 'one request');
    assert.equal(await chat().locator('.message.role-assistant').count(), 1);
    await ui.screenshot('02b-recovered-answer-continued');
  });

  it('two windows streaming at once keep each other\'s conversations, through an edit that rewrites the log and a reload of both', async function () {
    this.timeout(240_000);
    await openChat();
    const second: Page = await ui.page.context().newPage();
    try {
      await second.goto(ui.page.url(), { timeout: 60_000 });
      await waitForWorkbench(second);
      await workbench.pickFromCommand(second, 'Inference: Pick Chat Model', 'emu-chat-large');
      // Each window shows one panel (the second may restore the first's editors) with a new conversation.
      await workbench.runCommand(second, 'Inference: Open Chat');
      const frames = [chat(), workbench.webviewFrame(second)];
      for (const frame of frames) {
        await frame.locator('.composer-input').waitFor({ state: 'visible', timeout: 30_000 });
        if (await frame.locator('.empty-state').isVisible()) continue;
        await frame.locator('.header-actions button[data-action="newConversation"]').click();
        await frame.locator('.empty-state').waitFor({ state: 'visible', timeout: 10_000 });
      }
      const composers = frames.map((frame) => frame.locator('.composer-input'));
      const questions = ['Question from the first window', 'Question from the second window'];
      const streaming = () => ui.emulator.requests.filter((r) => r.path.endsWith('/chat/completions') && r.finishedAt === undefined);
      // Both streams run at once: each answer is held mid-stream until both have started.
      ui.emulator.scriptReply('production', { text: LONG_REPLY, holdAfterPieces: HOLD_AFTER_PIECES });
      ui.emulator.scriptReply('production', { text: SECOND_REPLY, holdAfterPieces: HOLD_AFTER_PIECES });
      await composers[0].fill(questions[0]);
      await composers[0].press('Enter');
      await waitFor('the first answer to stream', () => streaming().length === 1, { timeoutMs: 30_000, intervalMs: 50 });
      await composers[1].fill(questions[1]);
      await composers[1].press('Enter');
      await waitFor('both answers held mid-stream at once', () => ui.emulator.held() === 2, { timeoutMs: 30_000, intervalMs: 50 });
      ui.emulator.resumeHeld();
      await waitForAnswerEnd();
      // Rendered blocks join without the space between them, so the words are compared without spaces.
      const letters = (text: string | null) => (text ?? '').replace(/\s+/g, '');
      await waitFor('the first window\'s answer to be shown whole', async () => letters(await lastAnswer().locator('.markdown').textContent()) === letters(LONG_REPLY), { timeoutMs: 15_000, intervalMs: 200 });
      const secondAnswer = workbench.webviewFrame(second).locator('.message.role-assistant').last();
      const secondAnswerCount = () => workbench.webviewFrame(second).locator('.message.role-assistant').count();
      await secondAnswer.locator('.message-status', { hasText: 'Answering' }).waitFor({ state: 'detached', timeout: 60_000 });
      await waitFor('the second window\'s answer to be shown whole', async () => letters(await secondAnswer.locator('.markdown').textContent()) === letters(SECOND_REPLY), { timeoutMs: 15_000, intervalMs: 200 });
      const secondText = normalise(await secondAnswer.locator('.markdown').textContent());
      // Each window's balance difference holds both charges: neither answer may claim it as its own.
      for (const answer of [lastAnswer(), secondAnswer]) {
        const unmeasured = answer.locator('.meta-credits-unknown');
        await unmeasured.waitFor({ timeout: 15_000 });
        assert.match((await unmeasured.getAttribute('title')) ?? '', /^Another request to this environment ran at the same time/);
      }

      // The second window opens the first window's conversation and asks there; the first window,
      // still showing it, follows within seconds, and its next question carries that turn as context.
      const followUp = 'A follow-up from the second window';
      // A quick pick shows its rows in the tab that has the focus (see the first window's below).
      // The panel's own History button, as a user in the chat would: from the palette, the quick pick
      // was twice found settled and empty here in clean-clone CI (rows never came). The focus is in the
      // composer, and a closing palette hands it back to the webview in steps VS Code completes
      // asynchronously (microsoft/vscode#75209), so a quick pick shown meanwhile can lose it and close.
      await second.bringToFront();
      await workbench.webviewFrame(second).locator('.header-actions button[data-action="openHistory"]').click();
      await workbench.pickQuickPickItem(second, new RegExp(`^\\s*${questions[0]}`));
      await waitFor('the first conversation in the second window', async () => normalise(await workbench.webviewFrame(second).locator('.message.role-user .user-text').first().textContent()) === questions[0], { timeoutMs: 20_000, intervalMs: 200 });
      await composers[1].fill(followUp);
      await composers[1].press('Enter');
      await waitFor('the follow-up answered in the second window', async () => (await secondAnswerCount()) >= 2 && !(await workbench.webviewFrame(second).locator('.message-status', { hasText: 'Answering' }).count()), { timeoutMs: 30_000, intervalMs: 200 });
      const userTexts = () => chat().locator('.message.role-user .user-text').allInnerTexts();
      await waitFor('the first window to show the second window\'s turn', async () => (await userTexts()).includes(followUp), { timeoutMs: 15_000, intervalMs: 200 });
      await ui.screenshot('03-first-window-follows-the-second');
      await ui.page.bringToFront();
      await send('And one more from the first window');
      await waitForAnswerEnd();
      const sent = ui.emulator.requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1)?.chat?.messages ?? [];
      assert.deepEqual(sent.filter((m) => m.role === 'user').map((m) => m.content), [questions[0], followUp, 'And one more from the first window'], 'the questions the first window sent, the second window\'s among them');

      // The first window asks a long question and takes it back (Edit and Resend, short): the taken-back
      // line then outweighs the live ones and the log is rewritten whole, which once wrote this
      // window's picture over the second window's turns. Then the second window asks once more, and
      // both windows reload: each shows every turn, and so does the file.
      const log = () => {
        const file = fs.readdirSync(historyDir()).filter((name) => name.endsWith('.json')).map((name) => path.join(historyDir(), name))
          .find((candidate) => fs.readFileSync(candidate, 'utf8').includes(questions[0]));
        assert.ok(file, 'the first conversation\'s log');
        return file;
      };
      const longQuestion = words('long', 16_000);
      ui.emulator.scriptReply('production', { text: 'An answer to the long question.' });
      await send(longQuestion);
      await waitForAnswerEnd();
      const longLogBytes = fs.statSync(log()).size;
      assert.ok(longLogBytes > longQuestion.length, 'the long question is in the log');
      const shortQuestion = 'The same question, short';
      const firstUsers = chat().locator('.message.role-user');
      await firstUsers.last().hover();
      await firstUsers.last().locator('button[data-action="editLast"]').click();
      await chat().locator('.edit-banner').waitFor({ state: 'visible', timeout: 5000 });
      ui.emulator.scriptReply('production', { text: 'An answer to the short question.' });
      await chat().locator('.composer-input').fill(shortQuestion);
      await chat().locator('.composer-input').press('Enter');
      await waitFor('the short question answered', async () => normalise(await lastAnswer().locator('.markdown').textContent()) === 'An answer to the short question.', { timeoutMs: 20_000, intervalMs: 200 });
      await waitForAnswerEnd();
      await waitFor('the log rewritten without the long question', () => fs.statSync(log()).size < longQuestion.length, { timeoutMs: 10_000, intervalMs: 100 });
      const lastFromSecond = 'The second window asks after the rewrite';
      await second.bringToFront();
      await waitFor('the second window to follow the edit', async () => (await workbench.webviewFrame(second).locator('.message.role-user .user-text').allInnerTexts()).map(normalise).includes(shortQuestion), { timeoutMs: 15_000, intervalMs: 200 });
      await composers[1].fill(lastFromSecond);
      await composers[1].press('Enter');
      await waitFor('the second window\'s last question answered', async () => (await workbench.webviewFrame(second).locator('.message.role-user .user-text').allInnerTexts()).map(normalise).includes(lastFromSecond)
        && !(await workbench.webviewFrame(second).locator('.message-status', { hasText: 'Answering' }).count()), { timeoutMs: 30_000, intervalMs: 200 });
      const everyQuestion = [questions[0], followUp, 'And one more from the first window', shortQuestion, lastFromSecond];
      const firstWindow = ui.page;
      for (const page of [firstWindow, second]) {
        await page.bringToFront();
        await page.reload({ timeout: 60_000 });
        await waitForWorkbench(page);
      }
      for (const [name, page] of [['first', firstWindow], ['second', second]] as const) {
        const frame = workbench.webviewFrame(page);
        await waitFor(`the ${name} window's panel restored with every turn`, async () => (await frame.locator('.message.role-user .user-text').allInnerTexts()).map(normalise).join(' | ') === everyQuestion.join(' | '), { timeoutMs: 30_000, intervalMs: 300 });
      }
      const onDisk = fs.readFileSync(log(), 'utf8');
      for (const question of everyQuestion) assert.ok(onDisk.includes(question), `"${question}" in the log`);
      assert.equal(onDisk.includes(longQuestion), false, 'the taken-back question is gone from the log');
      await ui.screenshot('03b-both-windows-reloaded');
      await second.close();

      // The first window takes the focus back before its quick pick opens: in a clean-clone run the
      // history quick pick opened right after the second window closed never showed its rows.
      await ui.page.bringToFront();
      const titles = await ui.quickPickItemsOf('Inference: Chat History');
      for (const title of questions) assert.ok(titles.some((t) => t.startsWith(title)), `"${title}" in the history: ${titles.join(' | ')}`);
      await ui.screenshot('04-history-of-both-windows');
      await ui.pickQuickPickItem(new RegExp(`^\\s*${questions[1]}`));
      await waitFor('the second window\'s conversation in this window', async () => normalise(await lastAnswer().locator('.markdown').textContent()) === secondText, { timeoutMs: 20_000, intervalMs: 200 });
    } finally {
      if (!second.isClosed()) await second.close();
    }
  });
});
