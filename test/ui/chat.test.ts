import * as assert from 'node:assert/strict';
import type { FaultName } from '../emulator';
import { waitFor } from '../harness/wait';
import { useWorkbench } from './fixture';

const TOKENS_PER_SECOND = 25;

/** Issue 5 as a user sees it: the chat panel in real VS Code against the emulator. */
describe('chat panel', () => {
  const ui = useWorkbench({
    // Slow enough that an answer is visibly streaming for a few seconds, so Stop can hit it.
    emulator: { tokensPerSecond: TOKENS_PER_SECOND },
    // 429 must reach the panel as an error card instead of being retried behind a countdown.
    settings: () => ({ 'inference.rateLimit.maxRetries': 0 }),
  });
  const chat = () => ui.chatFrame();
  const assistant = () => chat().locator('.message.role-assistant');
  const lastAnswer = () => assistant().last();
  const composer = () => chat().locator('.composer-input');
  const chatRequests = () => ui.emulator.requests.filter((r) => r.path.endsWith('/chat/completions'));

  async function send(text: string): Promise<void> {
    await composer().click();
    await composer().fill(text);
    await composer().press('Enter');
  }

  async function waitForAnswerEnd(): Promise<void> {
    await chat().locator('.message.role-assistant .message-status', { hasText: 'Answering' }).waitFor({ state: 'detached', timeout: 60_000 });
  }

  it('opens from the command palette with the selected model, themed and keyboard-ready', async () => {
    await ui.runCommand('File: New Untitled Text File');
    await ui.pickFromCommand('Inference: Pick Chat Model', 'emu-chat-large');
    await ui.runCommand('Inference: Open Chat');
    await composer().waitFor({ state: 'visible', timeout: 30_000 });
    // The composer shows before the host's first snapshot names the model (until then the button reads "Model").
    await waitFor('the model button to name the picked model', async () => /emu-chat-large/.test(await chat().locator('.model-button').innerText()), { timeoutMs: 15_000, intervalMs: 200 });
    // Theme variables reach the webview: the body background is the editor background, not a default white.
    const background = await chat().locator('body').evaluate((b) => getComputedStyle(b).backgroundColor);
    assert.notEqual(background, 'rgba(0, 0, 0, 0)');
    await ui.screenshot('01-empty-chat');
  });

  it('streams an answer from the emulator and renders it as it arrives', async () => {
    await send('Hello streaming world');
    const lengths: number[] = [];
    await waitFor('the answer to grow while streaming', async () => {
      const text = (await lastAnswer().locator('.markdown').textContent().catch(() => '')) ?? '';
      if (text.length && text.length !== lengths.at(-1)) lengths.push(text.length);
      return lengths.length >= 3;
    }, { timeoutMs: 30_000, intervalMs: 100 });
    await ui.screenshot('02-streaming');
    await waitForAnswerEnd();
    const answer = lastAnswer();
    assert.match(await answer.locator('.markdown').innerText(), /Hello streaming world/);
    assert.ok(await answer.locator('.code-block pre code.hljs').count() >= 1, 'the closed ts fence is highlighted');
    assert.match(await answer.locator('.meta-model').innerText(), /emu-chat-large/);
    assert.match(await answer.locator('.meta-credits').innerText(), /credits/);
    // The header adds up the conversation's answers: one so far, so its credits.
    const total = chat().locator('.conversation-header .conversation-spend');
    assert.equal(await total.innerText(), await answer.locator('.meta-credits').innerText());
    const request = chatRequests().at(-1);
    assert.equal(request?.stream, true);
    await ui.screenshot('03-answer-complete');
  });

  it('stops mid-stream with Escape: the connection closes and the partial answer is kept', async () => {
    const before = chatRequests().length;
    // A long scripted answer (~40 s at 25 tokens/s): a loaded machine cannot finish it before Escape lands.
    ui.emulator.scriptReply('production', { text: Array.from({ length: 1000 }, (_, i) => `word${i}`).join(' ') });
    const answersBefore = await assistant().count();
    await send('Please write something long');
    // Until the new answer exists, the last one is the previous test's complete (and long) answer.
    await waitFor('the new answer', async () => (await assistant().count()) > answersBefore, { timeoutMs: 15_000, intervalMs: 100 });
    await waitFor('some streamed text', async () => ((await lastAnswer().locator('.markdown').textContent()) ?? '').length > 20, { timeoutMs: 30_000, intervalMs: 100 });
    await composer().press('Escape');
    await lastAnswer().locator('.message-status', { hasText: 'Stopped' }).waitFor({ timeout: 15_000 });
    const partial = (await lastAnswer().locator('.markdown').textContent()) ?? '';
    assert.ok(partial.length > 20, 'the partial text stays');
    const request = chatRequests()[before];
    await waitFor('the emulator to see the client close the connection', async () => request?.clientClosedAt !== undefined, { timeoutMs: 10_000, intervalMs: 100 });
    assert.equal(request.finishedAt === undefined || request.clientClosedAt! <= request.finishedAt, true);
    await ui.screenshot('04-stopped');
  });

  // A card with each kind of action the panel runs itself (a command, Retry, the panel's model menu).
  // Which kind and action every fault gets on this surface is the fault matrix's (test/integration/faults).
  const errorCases: [FaultName, RegExp, string][] = [
    ['http-401', /.+/, 'Set API Key'],
    ['reset-mid-stream', /.+/, 'Retry'],
    ['http-404', /.+/, 'Pick Model'],
  ];
  for (const [fault, message, action] of errorCases) {
    it(`shows an error card with "${action}" for ${fault}, keeping the user's message`, async () => {
      ui.emulator.injectFault('production', { fault, path: '/chat/completions' });
      const question = `Question for ${fault}`;
      const answersBefore = await chat().locator('.message.role-assistant').count();
      await send(question);
      // Until the new answer exists, the last one is the previous case's card.
      await waitFor('the new answer', async () => (await chat().locator('.message.role-assistant').count()) > answersBefore, { timeoutMs: 15_000, intervalMs: 100 });
      const card = lastAnswer().locator('.error-card');
      await card.waitFor({ timeout: 30_000 });
      assert.match(await card.innerText(), message);
      await card.locator('button', { hasText: action }).waitFor();
      assert.equal(await chat().locator('.message.role-user').last().locator('.user-text').innerText(), question);
      await ui.screenshot(`05-error-${fault}`);
      if (fault === 'reset-mid-stream') {
        assert.ok(((await lastAnswer().locator('.markdown').textContent()) ?? '').length > 0, 'text received before the reset is kept');
      }
    });
  }

  it('runs the card action: Pick Model chooses a model for this chat in the panel\'s menu and answers again with it', async () => {
    const requestsBefore = chatRequests().length;
    await lastAnswer().locator('.error-card button', { hasText: 'Pick Model' }).click();
    await chat().locator('.model-menu-title', { hasText: 'Answer again with a model of' }).waitFor({ timeout: 10_000 });
    await chat().locator('.model-menu-filter').fill('chat-small');
    await chat().locator('.model-menu-row[aria-selected="true"]', { hasText: 'emu-chat-small' }).waitFor({ timeout: 10_000 });
    await ui.screenshot('06a-pick-model-from-card');
    await chat().locator('.model-menu-filter').press('Enter');
    await waitFor('the model button to show the conversation model', async () => /emu-chat-small/.test(await chat().locator('.model-button').innerText()), { timeoutMs: 10_000, intervalMs: 200 });
    await waitFor('a new answer', async () => (await lastAnswer().locator('.error-card').count()) === 0 && /Question for http-404/.test((await lastAnswer().locator('.markdown').textContent()) ?? ''), { timeoutMs: 30_000, intervalMs: 200 });
    await waitForAnswerEnd();
    assert.equal(chatRequests().at(-1)?.model, 'emu-chat-small');
    assert.equal(chatRequests().length, requestsBefore + 1, 'answered again once');
    await ui.screenshot('06-retried-with-picked-model');
  });

  it('inserts a code block at the cursor of the editor and copies it', async () => {
    const code = (await lastAnswer().locator('.code-block pre code').first().textContent()) ?? '';
    assert.ok(code.trim().length > 0);
    await lastAnswer().locator('.code-block button[data-action="insertCode"]').first().click();
    const editorText = () => ui.page.locator('.editor-instance .monaco-editor .view-lines').first().innerText();
    const firstLine = code.trim().split('\n')[0].trim();
    await waitFor('the code in the editor', async () => (await editorText()).replace(/\u00a0/g, ' ').includes(firstLine), { timeoutMs: 15_000, intervalMs: 200 });
    await ui.screenshot('07-inserted-into-editor');
    // The editor took the chat's place in the group; showing the chat again rebuilds it from a snapshot.
    await ui.runCommand('Inference: Open Chat');
    await waitFor('the chat rebuilt from its snapshot', async () => (await chat().locator('.code-block').count()) > 0, { timeoutMs: 30_000, intervalMs: 250 });
    await lastAnswer().locator('.code-block button[data-action="copyCode"]').first().click();
    await ui.page.locator('.part.statusbar', { hasText: 'Copied to the clipboard' }).waitFor({ timeout: 10_000 });
  });

  it('restores the conversation after a window reload', async () => {
    const count = await chat().locator('.message').count();
    assert.ok(count >= 4);
    await ui.reloadWindow();
    await composer().waitFor({ state: 'visible', timeout: 60_000 });
    await waitFor('the restored messages', async () => (await chat().locator('.message').count()) === count, { timeoutMs: 30_000, intervalMs: 250 });
    assert.ok(await chat().locator('.message-status', { hasText: 'Stopped' }).count() >= 1, 'the stopped answer is restored as stopped');
    await ui.screenshot('08-after-reload');
  });

  it('shows "credits not measured" on answers of two panels that streamed at the same time', async () => {
    // The 404 test above made the environment forget its model: a new panel answers with the environment's.
    await ui.pickFromCommand('Inference: Pick Chat Model', 'emu-chat-large');
    // The first panel's answer is held mid-stream (however slow the machine) until the second
    // question is on its way; unpaced, neither answer then takes longer than its rendering.
    ui.emulator.setPacing('production', { tokensPerSecond: 0 });
    ui.emulator.scriptReply('production', { text: Array.from({ length: 200 }, (_, i) => `word${i}`).join(' '), holdAfterPieces: 20 });
    const before = chatRequests().length;
    await send('A long answer in the first panel');
    await waitFor('the first answer held mid-stream', () => chatRequests().length === before + 1 && ui.emulator.held() === 1, { timeoutMs: 15_000, intervalMs: 50 });
    await ui.runCommand('Inference: New Chat');
    await chat().locator('.empty-state').waitFor({ state: 'visible', timeout: 30_000 });
    await send('A short one in a second panel');
    await waitFor('both answers to stream at once', () => chatRequests().length === before + 2, { timeoutMs: 15_000, intervalMs: 50 });
    assert.equal(chatRequests().at(-2)?.finishedAt, undefined, 'the first answer still streamed when the second was sent');
    // Each answer read the pacing as it began: the next test's answers are paced as the file's again.
    ui.emulator.setPacing('production', { tokensPerSecond: TOKENS_PER_SECOND });
    ui.emulator.resumeHeld();
    await waitForAnswerEnd();
    const unknown = lastAnswer().locator('.meta-credits-unknown');
    await unknown.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await unknown.innerText(), 'credits not measured');
    assert.match((await unknown.getAttribute('title')) ?? '', /ran at the same time/);
    assert.equal(await lastAnswer().locator('.meta-credits').count(), 0);
    assert.equal(await chat().locator('.conversation-spend').innerText(), '1 answer, credits not measured', 'the header counts it apart');
    await ui.screenshot('09-spend-not-measured');
    // Both are in the usage view's count of what its totals leave out (the one visible webview now).
    await ui.runCommand('View: Close Editor');
    await ui.runCommand('Inference: Show Usage');
    const unmeasured = ui.chatFrame().locator('.summary .unmeasured');
    // The first panel's longer answer is counted once it has ended and its balance was read.
    await waitFor('both answers counted', async () => (await unmeasured.innerText().catch(() => '')).trim() === '· 2 more requests not measured', { timeoutMs: 30_000, intervalMs: 200 });
    await ui.screenshot('10-usage-counts-unmeasured');
    await ui.runCommand('View: Close Editor');
  });
  it('continues an answer cut short: Interrupted, then Continue makes one request and the answer reads as one text', async () => {
    await ui.runCommand('Inference: New Chat');
    await chat().locator('.empty-state').waitFor({ state: 'visible', timeout: 30_000 });
    ui.emulator.scriptReply('production', { text: Array.from({ length: 12 }, (_, i) => `Sentence ${i + 1} of the first half.`).join(' '), chunkChars: 40 });
    ui.emulator.injectFault('production', { fault: 'reset-mid-stream', path: '/chat/completions' });
    const before = chatRequests().length;
    await send('Tell me everything');
    const card = lastAnswer().locator('.error-card');
    await card.waitFor({ timeout: 30_000 });
    await lastAnswer().locator('.message-status', { hasText: 'Interrupted' }).waitFor({ timeout: 10_000 });
    const partial = ((await lastAnswer().locator('.markdown').textContent()) ?? '').trim();
    assert.ok(partial.startsWith('Sentence 1 of the first half.'), `the text before the cut is kept: ${partial}`);
    await card.locator('button', { hasText: 'Continue' }).waitFor({ timeout: 10_000 });
    await ui.screenshot('11-interrupted-with-continue');

    ui.emulator.scriptReply('production', { text: 'And the end of it.' });
    await card.locator('button', { hasText: 'Continue' }).click();
    await lastAnswer().locator('.meta-continued').waitFor({ timeout: 30_000 });
    await waitForAnswerEnd();
    assert.equal(chatRequests().length, before + 2, 'one request for the continuation');
    const sent = chatRequests().at(-1)?.chat?.messages ?? [];
    assert.equal(sent.at(-2)?.role, 'assistant', 'the text so far goes with it');
    assert.ok(JSON.stringify(sent.at(-2)?.content).includes('Sentence 1 of the first half.'));
    assert.equal(sent.at(-1)?.role, 'user');
    assert.equal(await chat().locator('.message.role-assistant').count(), 1, 'one answer');
    await waitFor('the continuation in the same answer', async () => ((await lastAnswer().locator('.markdown').textContent()) ?? '').trim().endsWith('And the end of it.'), { timeoutMs: 10_000, intervalMs: 200 });
    assert.ok(((await lastAnswer().locator('.markdown').textContent()) ?? '').trim().startsWith(partial.slice(0, 40)));
    assert.equal(await lastAnswer().locator('.error-card').count(), 0, 'the card goes with the interruption');
    assert.equal(await lastAnswer().locator('.message-status', { hasText: 'Interrupted' }).count(), 0);
    await ui.screenshot('12-continued');
  });
});
