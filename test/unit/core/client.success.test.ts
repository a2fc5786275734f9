import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { drain, HELLO, useEmulator } from './support';

describe('InferenceClient against the emulator: success paths', () => {
  const { emulator, client } = useEmulator();

  it('lists chat and image models per environment with the standard shape, and reports metadata', async () => {
    const production = await client('production').listModels({ type: 'chat' });
    const preview = await client('preview').listModels({ type: 'chat' });
    const images = await client('production').listModels({ type: 'image' });
    assert.deepEqual(production.models.map((m) => m.id), emulator().environments.production.chatModels);
    assert.deepEqual(preview.models.map((m) => m.id), emulator().environments.preview.chatModels);
    assert.deepEqual(images.models.map((m) => m.id), emulator().environments.production.imageModels);
    assert.notDeepEqual(production.models.map((m) => m.id), preview.models.map((m) => m.id));
    assert.equal(production.models[0].object, 'model');
    assert.equal(production.meta.status, 200);
    assert.match(production.meta.requestId ?? '', /\S/);
    assert.equal(typeof production.meta.rateLimitRequests, 'number');
  });

  it('completes a chat without streaming, with usage, model and balance headers', async () => {
    const before = emulator().balance('production');
    const model = emulator().environments.production.chatModels[0];
    const result = await client().chat({ model, messages: HELLO, temperature: 0.2, top_p: 0.9, max_tokens: 200 });
    assert.match(result.text, /Hello there/);
    assert.equal(result.meta.modelId, model);
    assert.equal(result.meta.balanceCredits, emulator().balance('production'));
    assert.ok((result.meta.balanceCredits ?? before) < before, 'the call was charged');
    assert.ok((result.usage?.completionTokens ?? 0) > 0);
    assert.ok(result.finishReason);
  });

  it('streams the same text as the non-streaming call, as deltas, ending complete', async () => {
    const model = emulator().environments.production.chatModels[0];
    const whole = await client().chat({ model, messages: HELLO });
    const streamed = await drain(client().streamChat({ model, messages: HELLO }));
    assert.equal(streamed.error, undefined);
    assert.equal(streamed.text, whole.text);
    // Deltas are merged per network read (see parseChatEventStream's tests), so their count depends on the reads.
    assert.ok(streamed.events.filter((e) => e.type === 'delta').length >= 1);
    assert.equal(streamed.events[0].type, 'response');
    assert.deepEqual(streamed.events.at(-1), { type: 'end', complete: true });
    assert.ok(streamed.events.some((e) => e.type === 'usage'), 'usage-only chunk surfaced');
    assert.ok(streamed.events.some((e) => e.type === 'finish'));
    assert.equal(streamed.meta?.modelId, model);
  });

  it('passes service_parameters through untouched', async () => {
    const service_parameters = { nested: { a: [1, 'two', null] }, flag: true };
    const model = emulator().environments.production.chatModels[0];
    await client().chat({ model, messages: HELLO, service_parameters });
    assert.deepEqual(emulator().requests.at(-1)?.serviceParameters, service_parameters);
  });

  it('respects max_tokens with finish reason "length"', async () => {
    const model = emulator().environments.production.chatModels[0];
    const result = await client().chat({ model, messages: HELLO, max_tokens: 3 });
    assert.equal(result.finishReason, 'length');
    assert.equal(result.usage?.completionTokens, 3);
  });

  for (const format of ['b64_json', 'url'] as const) {
    it(`generates a real PNG of the requested size with response_format ${format}`, async () => {
      const result = await client().generateImage({ model: 'auto', prompt: 'a lighthouse', width: 768, height: 1024, seed: 7, response_format: format });
      assert.equal(result.images.length, 1);
      const [image] = result.images;
      assert.equal(image.mimeType, 'image/png');
      const png = PNG.sync.read(Buffer.from(image.bytes));
      assert.equal(png.width, 768);
      assert.equal(png.height, 1024);
      assert.equal(result.meta.modelId, emulator().environments.production.imageModels[0], 'auto resolved to a concrete model');
      assert.equal(typeof result.meta.balanceCredits, 'number');
    });
  }

  it('gets identical bytes for the same seed through both formats', async () => {
    const request = { model: 'auto', prompt: 'same', seed: 42 };
    const a = await client().generateImage({ ...request, response_format: 'b64_json' });
    const b = await client().generateImage({ ...request, response_format: 'url' });
    assert.deepEqual(Buffer.from(a.images[0].bytes), Buffer.from(b.images[0].bytes));
  });
});
