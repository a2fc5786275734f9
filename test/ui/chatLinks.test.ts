import * as assert from 'node:assert/strict';
import { waitFor } from '../harness/wait';
import { chatSteps } from './chatSteps';
import { useWorkbench } from './fixture';

const DISGUISED = 'https://accounts.bank.example@evil.example/reset';
const ANSWER = [
  `Reset it [at your bank](${DISGUISED}) or [write to support](mailto:support@example.com?subject=Help&body=my%20details).`,
  '',
  '```js',
  'console.log(1);',
  '```',
].join('\n');

/**
 * Links in model output, service parameters and answer details, in real VS Code. VS Code's webview
 * shell opens clicked links by itself unless the page stops the click: the dialog checks below fail
 * when it does (a second dialog, or a mailto opened without asking).
 */
describe('chat panel: links, service parameters and answer details', () => {
  const ui = useWorkbench({
    emulator: { tokensPerSecond: 0 },
    settings: () => ({
      'inference.serviceParameters.byEnvironment': { production: { region: 'eu', tier: 'batch' } },
      'inference.serviceParameters.byModel': { 'emu-chat-large': { tier: 'priority' } },
    }),
  });
  const { chat, lastAnswer, chatRequests, openChat, send, waitForAnswerEnd } = chatSteps(ui);
  const dialog = () => ui.page.locator('.monaco-dialog-box');
  const openedPages = () => ui.page.context().pages().length;

  async function answerDialog(button: string): Promise<void> {
    await dialog().locator('.monaco-button', { hasText: button }).click();
    await dialog().waitFor({ state: 'detached', timeout: 10_000 });
  }

  it('shows a link\'s real target on hover and asks before opening it, once', async () => {
    await openChat();
    ui.emulator.scriptReply('production', { text: ANSWER });
    await send('Where do I reset my password?');
    await waitForAnswerEnd();
    const link = lastAnswer().locator('a', { hasText: 'at your bank' });
    await link.hover();
    await waitFor('the hover title', async () => ((await link.getAttribute('title')) ?? '').length > 0, { timeoutMs: 5_000, intervalMs: 100 });
    const title = (await link.getAttribute('title')) ?? '';
    assert.match(title, /^https:\/\/evil\.example\/reset/, 'the hover names the real host');
    assert.match(title, /accounts\.bank\.example" before the host/);

    const pagesBefore = openedPages();
    await link.click();
    await dialog().waitFor({ state: 'visible', timeout: 10_000 });
    const text = await dialog().innerText();
    assert.match(text, /Open evil\.example in your browser\?/);
    assert.match(text, /it goes to evil\.example/);
    await ui.screenshot('01-link-confirmation');
    await answerDialog('Cancel');
    // Give a second opener (the webview shell) time to show its own dialog or open the page.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(await dialog().count(), 0, 'no second dialog: the click reached only our handler');
    assert.equal(openedPages(), pagesBefore, 'nothing opened after Cancel');
  });

  it('decides mailto on the host: the recipient is named and nothing opens without consent', async () => {
    const pagesBefore = openedPages();
    await lastAnswer().locator('a', { hasText: 'write to support' }).click();
    await dialog().waitFor({ state: 'visible', timeout: 10_000 });
    const text = await dialog().innerText();
    assert.match(text, /Write an e-mail to support@example\.com\?/);
    assert.match(text, /also fills in body/);
    await ui.screenshot('02-mailto-confirmation');
    await answerDialog('Cancel');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(await dialog().count(), 0);
    assert.equal(openedPages(), pagesBefore);
  });

  it('sends service parameters from settings (environment, then model) and the conversation, key by key', async () => {
    assert.deepEqual(chatRequests().at(-1)?.serviceParameters, { region: 'eu', tier: 'priority' }, 'settings: the model wins over the environment');
    await chat().locator('summary', { hasText: 'Parameters' }).click();
    const field = chat().locator('textarea.param-service');
    assert.match((await field.getAttribute('placeholder')) ?? '', /from settings: \{"region":"eu","tier":"priority"\}/);
    await field.fill('[1, 2]');
    await chat().locator('button', { hasText: 'Apply to this conversation' }).click();
    await chat().locator('.param-error', { hasText: 'a JSON object is needed' }).waitFor({ timeout: 5_000 });
    await ui.screenshot('03-service-parameters-refused');
    await field.fill('{"tier": "flex", "trace": true}');
    await chat().locator('button', { hasText: 'Apply to this conversation' }).click();
    await waitFor('the error to clear', async () => await chat().locator('.param-error').isHidden(), { timeoutMs: 5_000, intervalMs: 100 });
    ui.emulator.scriptReply('production', { text: 'With parameters.' });
    await send('Again, with my parameters');
    await waitForAnswerEnd();
    assert.deepEqual(chatRequests().at(-1)?.serviceParameters, { region: 'eu', tier: 'flex', trace: true });
  });

  it('shows the answer\'s tokens, time to first token and duration with its meta', async () => {
    const meta = lastAnswer().locator('.message-meta');
    await lastAnswer().hover();
    await meta.locator('.meta-tokens').waitFor({ timeout: 10_000 });
    assert.match(await meta.locator('.meta-tokens').innerText(), /^\d+ tokens$/);
    assert.match(await meta.locator('.meta-firstToken').innerText(), /^first token \d+(\.\d)? s$/);
    assert.match(await meta.locator('.meta-duration').innerText(), /^\d+(\.\d)? s$/);
    await ui.screenshot('04-answer-details');
  });

  it('shows the model\'s thinking collapsed above the answer, apart from it, and never sends it back', async () => {
    ui.emulator.scriptReply('production', { text: 'Forty-two.', reasoning: 'The user asks for the answer. Recall: it is 42.' });
    await send('What is the answer?');
    await waitForAnswerEnd();
    const thinking = lastAnswer().locator('details.thinking');
    await thinking.waitFor({ timeout: 10_000 });
    assert.equal(await thinking.getAttribute('open'), null, 'collapsed by default');
    assert.equal((await lastAnswer().locator('.markdown').innerText()).trim(), 'Forty-two.', 'the answer holds no thinking');
    await thinking.locator('summary').click();
    assert.match(await thinking.locator('.thinking-text').innerText(), /Recall: it is 42\./);
    await ui.screenshot('05-thinking-open');
    ui.emulator.scriptReply('production', { text: 'Sure.' });
    await send('Thanks');
    await waitForAnswerEnd();
    const sent = JSON.stringify(chatRequests().at(-1)?.chat?.messages ?? []);
    assert.ok(sent.includes('Forty-two.') && !sent.includes('Recall'), 'the next request carries the answer, not the thinking');
  });
});
