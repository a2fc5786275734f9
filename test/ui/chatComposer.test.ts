import * as assert from 'node:assert/strict';
import { waitFor } from '../harness/wait';
import { chatSteps } from './chatSteps';
import { useWorkbench } from './fixture';

const SAMPLE = ['export function add(a: number, b: number): number {', '  return a + b;', '}', '', 'export const answer = add(40, 2);', ''].join('\n');

/** The composer and the answer actions in real VS Code, checked against what the emulator received. */
describe('chat panel: composer, context and answer actions', () => {
  const ui = useWorkbench({ emulator: { tokensPerSecond: 40 }, workspaceFiles: { 'src/sample.ts': SAMPLE } });
  const { chat, composer, messages, lastAnswer, chatRequests, lastUserContent, openChat, send, waitForAnswerEnd, selectLines2To3 } = chatSteps(ui);
  const chips = () => chat().locator('.composer .chips .chip');

  it('Shift+Enter adds a line, Enter sends the whole message', async () => {
    await openChat();
    ui.emulator.scriptReply('production', { text: 'Two lines received.' });
    const before = chatRequests().length;
    await composer().click();
    await composer().pressSequentially('line one');
    await composer().press('Shift+Enter');
    await composer().pressSequentially('line two');
    assert.equal(await composer().inputValue(), 'line one\nline two');
    assert.equal(chatRequests().length, before, 'Shift+Enter sent nothing');
    await composer().press('Enter');
    await waitFor('the request', () => chatRequests().length > before, { timeoutMs: 15_000, intervalMs: 50 });
    assert.equal(lastUserContent(), 'line one\nline two');
    await waitForAnswerEnd();
    assert.equal(await messages('user').last().locator('.user-text').innerText(), 'line one\nline two');
    assert.equal(await composer().inputValue(), '', 'the composer is cleared after sending');
  });

  it('attaches the selection and the active file as chips, removes one, and sends only what is left', async () => {
    await selectLines2To3('src/sample.ts');
    await ui.runCommand('Inference: Open Chat');
    await composer().waitFor({ state: 'visible', timeout: 30_000 });
    await chat().locator('button[data-action="attachSelection"]').click();
    await chips().filter({ hasText: 'sample.ts:2-3' }).waitFor({ timeout: 10_000 });
    await chat().locator('button[data-action="attachFile"]').click();
    await waitFor('two chips', async () => (await chips().count()) === 2, { timeoutMs: 10_000, intervalMs: 100 });
    assert.deepEqual((await chips().locator('.chip-label').allInnerTexts()).map((t) => t.trim()), ['sample.ts:2-3', 'sample.ts']);
    assert.deepEqual(await chips().locator('.chip-size').allInnerTexts(), ['17 chars', `${SAMPLE.length} chars`], 'each chip shows its size');
    await ui.screenshot('01-context-chips');
    await chips().filter({ has: chat().locator('.chip-label', { hasText: /^\s*sample\.ts\s*$/ }) }).locator('button[data-action="removeAttachment"]').click();
    await waitFor('one chip', async () => (await chips().count()) === 1, { timeoutMs: 10_000, intervalMs: 100 });

    ui.emulator.scriptReply('production', { text: 'It adds.' });
    await send('What does this do?');
    assert.equal(lastUserContent(), 'Selected code from src/sample.ts, lines 2-3:\n```typescript\n  return a + b;\n}\n```\n\nWhat does this do?');
    await waitForAnswerEnd();
    assert.equal(await chips().count(), 0, 'sent chips leave the composer');
    assert.equal((await messages('user').last().locator('.attachments .chip .chip-label').innerText()).trim(), 'sample.ts:2-3');
  });

  it('regenerates the last answer from the same messages', async () => {
    const previous = chatRequests().at(-1);
    const answers = await messages('assistant').count();
    ui.emulator.scriptReply('production', { text: 'A second opinion.' });
    await lastAnswer().locator('button[data-action="regenerate"]').click();
    await waitFor('the regenerated answer', async () => /A second opinion/.test((await lastAnswer().locator('.markdown').textContent()) ?? ''), { timeoutMs: 15_000, intervalMs: 100 });
    await waitForAnswerEnd();
    assert.deepEqual(chatRequests().at(-1)?.chat?.messages, previous?.chat?.messages);
    assert.equal(await messages('assistant').count(), answers, 'the old answer was replaced, not kept');
  });

  it('edits and resends the last user message', async () => {
    const userCount = await messages('user').count();
    await messages('user').last().hover();
    await messages('user').last().locator('button[data-action="editLast"]').click();
    await chat().locator('.edit-banner').waitFor({ state: 'visible', timeout: 5000 });
    assert.equal(await composer().inputValue(), 'What does this do?');
    ui.emulator.scriptReply('production', { text: 'Edited answer.' });
    await composer().fill('What does it return?');
    await ui.screenshot('02-editing-last-message');
    await composer().press('Enter');
    await waitFor('the edited answer', async () => /Edited answer/.test((await lastAnswer().locator('.markdown').textContent()) ?? ''), { timeoutMs: 15_000, intervalMs: 100 });
    await waitForAnswerEnd();
    assert.match(lastUserContent() ?? '', /\n\nWhat does it return\?$/, 'the edited text is sent, with its attachment');
    assert.equal(await messages('user').count(), userCount, 'the message was replaced');
    assert.equal(await messages('user').last().locator('.user-text').innerText(), 'What does it return?');
    assert.ok(await chat().locator('.edit-banner').isHidden());
  });

  it('stops a streaming answer with Escape while the conversation has focus', async () => {
    ui.emulator.scriptReply('production', { text: Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ') });
    const answersBefore = await messages('assistant').count();
    const request = await send('Say a lot');
    // Until the new answer exists, the last one is the previous test's complete answer.
    await waitFor('the new answer', async () => (await messages('assistant').count()) > answersBefore, { timeoutMs: 15_000, intervalMs: 100 });
    await waitFor('some streamed text', async () => ((await lastAnswer().locator('.markdown').textContent()) ?? '').length > 30, { timeoutMs: 15_000, intervalMs: 100 });
    await chat().locator('main.messages').focus();
    await ui.page.keyboard.press('Escape');
    await lastAnswer().locator('.message-status', { hasText: 'Stopped' }).waitFor({ timeout: 10_000 });
    await waitFor('the client to close the connection', () => request.clientClosedAt !== undefined, { timeoutMs: 10_000, intervalMs: 100 });
    assert.ok(!((await lastAnswer().locator('.markdown').textContent()) ?? '').includes('word399'), 'the answer was cut short');
  });

  it('streams a long code block while following the bottom, and ends with one highlighted block of exactly that code', async () => {
    const code = Array.from({ length: 60 }, (_, i) => `const value${i} = compute(${i}, "line ${i}"); // ${i}`).join('\n');
    // Bigger pieces than a token: the answer still arrives in many appends, in a few seconds rather than 20.
    ui.emulator.scriptReply('production', { text: `Here is the code:\n\n\`\`\`ts\n${code}\n\`\`\`\n\nDone.`, chunkChars: 24 });
    const answersBefore = await messages('assistant').count();
    await send('Show me a long code block');
    await waitFor('the new answer', async () => (await messages('assistant').count()) > answersBefore, { timeoutMs: 15_000, intervalMs: 100 });
    const list = chat().locator('main.messages');
    const atBottom = () => list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight < 2);
    // While it streams, the fence grows by chunks of lines (streamingMarkdown.ts) and the view follows it.
    await waitFor('the fence to grow by chunks', async () => (await lastAnswer().locator('.code-block.growing .code-chunk').count()) >= 2, { timeoutMs: 30_000, intervalMs: 50 });
    await waitFor('the conversation to follow the growing fence', atBottom, { timeoutMs: 5000, intervalMs: 50 });
    await ui.screenshot('04a-streaming-long-code-block');
    await waitForAnswerEnd();
    const block = lastAnswer().locator('.code-block');
    assert.equal(await block.count(), 1);
    assert.equal(await block.getAttribute('class'), 'code-block', 'the growing state is gone');
    assert.equal(await block.locator('.code-chunk').count(), 0, 'the chunks are unwrapped: the DOM is the one-shot DOM');
    assert.equal(await block.locator('pre code').textContent(), `${code}\n`);
    assert.ok(await block.locator('pre code .hljs-keyword').count() >= 60, 'every line is highlighted');
    await waitFor('the conversation to end at the bottom', atBottom, { timeoutMs: 5000, intervalMs: 100 });
    await ui.screenshot('04b-long-code-block-complete');
  });

  it('sends per-conversation temperature, top_p and max_tokens, and says when the answer hit the limit', async () => {
    await chat().locator('.params summary').click();
    await chat().getByLabel('Temperature').fill('0.3');
    await chat().getByLabel('Top P').fill('0.5');
    await chat().getByLabel('Max tokens').fill('5');
    await chat().locator('.params button', { hasText: 'Apply to this conversation' }).click();
    await ui.screenshot('03-parameters');
    const request = await send('Count to twenty please');
    assert.deepEqual({ temperature: request.chat?.temperature, top_p: request.chat?.top_p, max_tokens: request.chat?.max_tokens }, { temperature: 0.3, top_p: 0.5, max_tokens: 5 });
    await waitForAnswerEnd();
    const words = ((await lastAnswer().locator('.markdown').textContent()) ?? '').trim().split(/\s+/);
    assert.ok(words.length <= 5, `at most 5 tokens: ${words.join(' ')}`);
    await lastAnswer().locator('.message-status', { hasText: 'Max tokens limit' }).waitFor({ timeout: 5000 });
    assert.equal(await chat().getByLabel('Max tokens').inputValue(), '5', 'the override stays in the form');
    // The spend is what the emulator charged, not the reserve its streaming balance header reflects.
    const credits = await waitFor('the spend', async () => (await lastAnswer().locator('.meta-credits').textContent().catch(() => null)) ?? undefined, { timeoutMs: 10_000, intervalMs: 100 });
    assert.ok(Math.abs(parseFloat(credits) - request.creditsCharged) < 1e-4, `shown ${credits}, charged ${request.creditsCharged}`);
    const list = chat().locator('main.messages');
    await waitFor('the conversation to follow the bottom', () => list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight < 2), { timeoutMs: 5000, intervalMs: 100 });
    await ui.screenshot('04-answer-cut-at-max-tokens');
  });
});
