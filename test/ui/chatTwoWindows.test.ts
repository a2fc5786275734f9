import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { waitForWorkbench } from '../harness/browser';
import { waitFor } from '../harness/wait';
import { chatSteps } from './chatSteps';
import { useWorkbench } from './fixture';
import * as workbench from './workbench';

/** 300 distinct words, streamed for 15 s at 20 tokens/s: long enough for the other window to start its own. */
const LONG_REPLY = Array.from({ length: 300 }, (_, i) => `word${String(i + 1).padStart(3, '0')}`).join(' ');
const normalise = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

/**
 * Issue 12, item 3: two windows stream into the same history at once and lose nothing of each
 * other's. Not in `npm test` (a second workbench window and a 15 s answer cost about 40 s);
 * `npm run test:faults` runs it.
 */
describe('chat history: two windows streaming at once', () => {
  const ui = useWorkbench({ emulator: { tokensPerSecond: 20 } });
  const { chat, lastAnswer, openChat, waitForAnswerEnd } = chatSteps(ui);

  it('two windows streaming at once keep each other\'s conversations', async function () {
    this.timeout(180_000);
    await openChat();
    const second: Page = await ui.page.context().newPage();
    try {
      await second.goto(ui.page.url(), { timeout: 60_000 });
      await waitForWorkbench(second);
      await workbench.runCommand(second, 'Inference: Pick Chat Model');
      await workbench.pickQuickPickItem(second, 'emu-chat-large');
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
      // Both streams run at once: the first answer is long (15 s at 20 tokens/s) and the second
      // question is sent once the first request is streaming, however slow the machine.
      ui.emulator.scriptReply('production', { text: LONG_REPLY });
      await composers[0].fill(questions[0]);
      await composers[0].press('Enter');
      await waitFor('the first answer to stream', () => streaming().length === 1, { timeoutMs: 30_000, intervalMs: 50 });
      await composers[1].fill(questions[1]);
      await composers[1].press('Enter');
      await waitFor('both answers to stream at once', () => streaming().length === 2, { timeoutMs: 15_000, intervalMs: 50 });
      await waitForAnswerEnd();
      // Rendered blocks join without the space between them, so the words are compared without spaces.
      const letters = (text: string | null) => (text ?? '').replace(/\s+/g, '');
      await waitFor('the first window\'s answer to be shown whole', async () => letters(await lastAnswer().locator('.markdown').textContent()) === letters(LONG_REPLY), { timeoutMs: 15_000, intervalMs: 200 });
      const secondAnswer = workbench.webviewFrame(second).locator('.message.role-assistant').last();
      await secondAnswer.locator('.message-status', { hasText: 'Answering' }).waitFor({ state: 'detached', timeout: 60_000 });
      const secondText = normalise(await secondAnswer.locator('.markdown').textContent());
      assert.match(secondText, /Question from the second window/);
      await second.close();

      await ui.runCommand('Inference: Chat History');
      const titles = await ui.quickPickItems();
      for (const title of questions) assert.ok(titles.some((t) => t.startsWith(title)), `"${title}" in the history: ${titles.join(' | ')}`);
      await ui.screenshot('03-history-of-both-windows');
      await ui.pickQuickPickItem(new RegExp(`^\\s*${questions[1]}`));
      await waitFor('the second window\'s conversation in this window', async () => normalise(await lastAnswer().locator('.markdown').textContent()) === secondText, { timeoutMs: 20_000, intervalMs: 200 });
    } finally {
      if (!second.isClosed()) await second.close();
    }
  });
});
