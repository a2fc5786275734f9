import * as assert from 'node:assert/strict';
import { chatSteps } from './chatSteps';
import { useWorkbench } from './fixture';

/**
 * With inference.chat.refreshBalanceAfterAnswer off, a streamed answer costs exactly one request of
 * the key's per-minute budget, and shows no spend rather than the pre-billing reserve.
 * (The composer tests cover the default, where the settled spend is shown.)
 */
describe('chat panel without the balance read after an answer', () => {
  const ui = useWorkbench({ emulator: { tokensPerSecond: 200 }, settings: () => ({ 'inference.chat.refreshBalanceAfterAnswer': false }) });
  const { lastAnswer, openChat, send, waitForAnswerEnd } = chatSteps(ui);

  it('makes no extra request and shows no spend', async () => {
    await openChat();
    const request = await send('Hello without a balance check');
    await waitForAnswerEnd();
    await lastAnswer().locator('.message-meta').waitFor({ timeout: 10_000 });
    // The spend would arrive within a few hundred milliseconds of the answer's end: give it time.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = ui.emulator.requests.filter((r) => r.startedAt >= request.startedAt);
    assert.deepEqual(after.map((r) => r.path), ['/api/v1/chat/completions']);
    assert.equal(await lastAnswer().locator('.meta-credits').count(), 0);
    await ui.screenshot('01-answer-without-spend');
  });
});
