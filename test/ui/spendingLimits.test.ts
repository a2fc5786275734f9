import * as assert from 'node:assert/strict';
import { waitFor } from '../harness/wait';
import { chatSteps } from './chatSteps';
import { useWorkbench } from './fixture';

/**
 * A daily spending limit reached by the first answer: the status bar warns with the limit in its
 * tooltip, the next question becomes an error card with Raise Limit and Send Anyway (nothing sent),
 * and Send Anyway sends exactly that one request.
 */
describe('spending limits in the workbench: the warning and the refusal', () => {
  // A fresh profile has spent nothing: the first answer passes, and whatever it costs reaches the limit.
  const ui = useWorkbench({ settings: () => ({ 'inference.spendingLimits': { production: { daily: 0.000001 } } }) });
  const { messages, lastAnswer, chatRequests, send, waitForAnswerEnd, openChat, composer } = chatSteps(ui);

  it('warns in the status bar, refuses the next question with its card, and Send Anyway sends it once', async () => {
    await openChat();
    await send('The answer that reaches the limit');
    await waitForAnswerEnd();
    await lastAnswer().locator('.meta-credits').waitFor({ timeout: 15_000 });
    const balance = ui.statusBarItem(/credits|balance unknown/).first();
    await waitFor('the balance item\'s warning', async () => /codicon-warning/.test(await balance.innerHTML()), { timeoutMs: 15_000, intervalMs: 200 });
    await balance.hover();
    const hover = ui.page.locator('.workbench-hover, .monaco-hover').filter({ hasText: 'Spending limit' }).first();
    await hover.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await hover.innerText(), /Daily spending limit of production reached/);
    await ui.screenshot('01-limit-warning-tooltip');
    await ui.page.mouse.move(400, 300);

    const sent = chatRequests().length;
    await composer().click();
    await composer().fill('A question past the limit');
    await composer().press('Enter');
    const card = lastAnswer().locator('.error-card');
    await card.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match((await card.innerText()) ?? '', /daily spending limit of "production" is reached/);
    assert.equal(await card.locator('button', { hasText: 'Raise Limit' }).count(), 1);
    assert.equal(await card.locator('button', { hasText: 'Send Anyway' }).count(), 1);
    assert.equal(await messages('user').last().innerText().then((t) => t.includes('A question past the limit')), true, 'the question stays');
    assert.equal(chatRequests().length, sent, 'nothing was sent');
    await ui.screenshot('02-limit-refusal-card');

    await card.locator('button', { hasText: 'Send Anyway' }).click();
    await waitFor('the answer sent anyway', async () => chatRequests().length === sent + 1 && (await lastAnswer().locator('.error-card').count()) === 0, { timeoutMs: 15_000, intervalMs: 100 });
    await waitForAnswerEnd();
    assert.equal(chatRequests().length, sent + 1, 'exactly one request');
    await ui.screenshot('03-sent-anyway');
  });
});
