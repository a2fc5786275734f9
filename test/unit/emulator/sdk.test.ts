/** Fidelity: the official openai SDK, as an independent client, works against the emulator unchanged. */
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { PNG } from 'pngjs';
import { useEmulator } from './helpers';

describe('emulator: openai SDK fidelity', () => {
  const emu = useEmulator();
  const client = (key?: string, env: 'production' | 'preview' = 'production'): OpenAI =>
    new OpenAI({ apiKey: key ?? emu().keys[env].full, baseURL: emu().environments[env].baseUrl, maxRetries: 0 });

  it('lists models with models.list()', async () => {
    const page = await client().models.list();
    assert.deepEqual(page.data.map((m) => m.id), ['emu-chat-large', 'emu-chat-small', 'emu-image-v1']);
    assert.ok(page.data.every((m) => m.object === 'model' && m.owned_by === 'service' && typeof m.created === 'number'));
  });

  it('creates a non-streaming chat completion', async () => {
    const completion = await client().chat.completions.create({ model: 'emu-chat-small', messages: [{ role: 'user', content: 'ping from the SDK' }] });
    assert.match(completion.choices[0].message.content ?? '', /You said: “ping from the SDK”/);
    assert.equal(completion.choices[0].finish_reason, 'stop');
    assert.ok((completion.usage?.completion_tokens ?? 0) > 10);
  });

  it('streams a chat completion with for await', async () => {
    const stream = await client().chat.completions.create({ model: 'emu-chat-large', messages: [{ role: 'user', content: 'stream please' }], stream: true });
    let text = '';
    let finish: string | null = null;
    let usageChunks = 0;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.choices.length === 0 && chunk.usage) usageChunks++;
    }
    assert.match(text, /You said: “stream please”/);
    assert.match(text, /```ts\n/);
    assert.equal(finish, 'stop');
    assert.equal(usageChunks, 1);
  });

  it('generates images as b64_json and as data URLs', async () => {
    const b64 = await client().images.generate({ model: 'auto', prompt: 'a lighthouse', size: '256x256', response_format: 'b64_json' });
    const png = PNG.sync.read(Buffer.from(b64.data?.[0].b64_json ?? '', 'base64'));
    assert.deepEqual([png.width, png.height], [256, 256]);
    const url = await client().images.generate({ model: 'emu-image-v1', prompt: 'a lighthouse', response_format: 'url' });
    assert.match(url.data?.[0].url ?? '', /^data:image\/png;base64,iVBOR/);
  });

  it('maps 401, 402, 403, 404 and 429 to the SDK error classes, with the request id', async () => {
    const wrongEnv = client(emu().keys.preview.full);
    const unauth = await wrongEnv.models.list().then(() => undefined, (e: unknown) => e);
    assert.ok(unauth instanceof OpenAI.AuthenticationError);
    assert.equal(unauth.code, 'unknown_api_key');
    assert.match(unauth.requestID ?? '', /^req_/);

    const broke = await client(emu().keys.production.broke).chat.completions
      .create({ model: 'emu-chat-small', messages: [{ role: 'user', content: 'hi' }] }).then(() => undefined, (e: unknown) => e);
    assert.ok(broke instanceof OpenAI.APIError);
    assert.equal(broke.status, 402);
    assert.equal(broke.code, 'insufficient_credits');

    const scope = await client(emu().keys.production.chatOnly).images.generate({ model: 'auto', prompt: 'x' }).then(() => undefined, (e: unknown) => e);
    assert.ok(scope instanceof OpenAI.PermissionDeniedError);

    const missing = await client().chat.completions
      .create({ model: 'emu-chat-next', messages: [{ role: 'user', content: 'hi' }] }).then(() => undefined, (e: unknown) => e);
    assert.ok(missing instanceof OpenAI.NotFoundError, 'a preview model id is unknown in production');

    const lowRpm = client(emu().keys.production.lowRpm);
    await lowRpm.models.list();
    await lowRpm.models.list();
    const limited = await lowRpm.models.list().then(() => undefined, (e: unknown) => e);
    assert.ok(limited instanceof OpenAI.RateLimitError);
    assert.ok(Number(limited.headers?.get('retry-after')) >= 1);
  });

  it('surfaces an error-mid-stream event as an SDK APIError', async () => {
    emu().injectFault('production', { fault: 'error-mid-stream' });
    const stream = await client().chat.completions.create({ model: 'emu-chat-small', messages: [{ role: 'user', content: 'x' }], stream: true });
    let text = '';
    await assert.rejects(async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    }, (err: unknown) => err instanceof OpenAI.APIError && /error-mid-stream/.test(err.message));
    assert.ok(text.length > 0, 'some content arrived before the error');
  });
});
