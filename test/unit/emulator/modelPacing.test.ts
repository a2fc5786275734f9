/** Models that differ in speed and price (modelPacing, modelPrices), as a comparison of models shows them. */
import assert from 'node:assert/strict';
import { bearer, chatBody, rawRequest, useEmulator } from './helpers';

describe('emulator: a pace and prices per model', () => {
  const emu = useEmulator({ modelPacing: { 'emu-chat-large': { firstTokenDelayMs: 150 } }, modelPrices: { 'emu-chat-large': { chatPerRequest: 3 } } });
  const ask = (model: string, stream: boolean) => rawRequest(`${emu().environments.production.baseUrl}/chat/completions`, {
    headers: bearer(emu().keys.production.full), body: chatBody(model, { stream, max_tokens: 3 }),
  });

  it('waits the model\'s own time to first token, logs when its first content left, and bills its own fee', async () => {
    for (const stream of [true, false]) {
      emu().reset();
      assert.equal((await ask('emu-chat-small', stream)).status, 200);
      assert.equal((await ask('emu-chat-large', stream)).status, 200);
      const [small, large] = emu().requests;
      const ttft = (r: typeof small) => (r.firstContentAt ?? Infinity) - r.startedAt;
      assert.ok(ttft(small) < 150, `the small model's first content after ${ttft(small)} ms`);
      assert.ok(ttft(large) >= 150, `the large model's after ${ttft(large)} ms`);
      // The same prompt and output: the large model's fee is 3 credits, the small one's the default 0.5.
      assert.equal(Math.round((large.creditsCharged - small.creditsCharged) * 1000) / 1000, 2.5, stream ? 'streaming' : 'not streaming');
    }
  });
});
