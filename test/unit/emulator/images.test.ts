/** Image generation: real PNGs of the requested size, sizes, seeds, auto, formats, scope and billing. */
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { bearer, rawRequest, useEmulator } from './helpers';

interface ImageResult { created: number; data: { b64_json?: string; url?: string }[] }

describe('emulator: image generation', () => {
  const emu = useEmulator({ imageSizes: ['256x256', '512x512', '768x1024'] });
  const generate = (body: Record<string, unknown>, env: 'production' | 'preview' = 'production', key = emu().keys[env].full): ReturnType<typeof rawRequest> =>
    rawRequest(`${emu().environments[env].baseUrl}/images/generations`, { headers: bearer(key), body });
  const decode = (text: string, i = 0): PNG => {
    const item = (JSON.parse(text) as ImageResult).data[i];
    const b64 = item.b64_json ?? item.url?.replace(/^data:image\/png;base64,/, '') ?? '';
    return PNG.sync.read(Buffer.from(b64, 'base64'));
  };

  it('returns a decodable PNG of the requested size that is not blank', async () => {
    const res = await generate({ model: 'emu-image-v1', prompt: 'harbour at dusk', width: 768, height: 1024 });
    assert.equal(res.status, 200);
    const png = decode(res.text);
    assert.deepEqual([png.width, png.height], [768, 1024]);
    const colours = new Set<number>();
    for (let i = 0; i < png.data.length; i += 4 * 997) colours.add(png.data.readUInt32BE(i));
    assert.ok(colours.size > 10, `a pattern, not a flat image (${colours.size} colours sampled)`);
    assert.equal(typeof (JSON.parse(res.text) as ImageResult).created, 'number');
  });

  it('defaults to 512x512 and b64_json', async () => {
    const res = await generate({ model: 'emu-image-v1', prompt: 'x' });
    const item = (JSON.parse(res.text) as ImageResult).data[0];
    assert.equal(item.url, undefined);
    const png = decode(res.text);
    assert.deepEqual([png.width, png.height], [512, 512]);
  });

  it('returns a data URL with response_format url', async () => {
    const res = await generate({ model: 'emu-image-v1', prompt: 'x', response_format: 'url', width: 256, height: 256 });
    const item = (JSON.parse(res.text) as ImageResult).data[0];
    assert.equal(item.b64_json, undefined);
    assert.match(item.url ?? '', /^data:image\/png;base64,/);
    assert.equal(decode(res.text).width, 256);
  });

  it('is deterministic for a seed and differs for another seed or prompt', async () => {
    const b64 = async (body: Record<string, unknown>): Promise<string> =>
      (JSON.parse((await generate({ model: 'emu-image-v1', width: 256, height: 256, ...body })).text) as ImageResult).data[0].b64_json ?? '';
    const a = await b64({ prompt: 'fox', seed: 7 });
    assert.equal(await b64({ prompt: 'fox', seed: 7 }), a);
    assert.notEqual(await b64({ prompt: 'fox', seed: 8 }), a);
    assert.notEqual(await b64({ prompt: 'owl', seed: 7 }), a);
  });

  it('resolves auto to a concrete model per environment and reports it', async () => {
    const prod = await generate({ model: 'auto', prompt: 'x', width: 256, height: 256 });
    assert.equal(prod.headers['x-service-model-id'], 'emu-image-v1');
    const preview = await generate({ model: 'auto', prompt: 'x', width: 256, height: 256 }, 'preview');
    assert.equal(preview.headers['x-service-model-id'], 'emu-image-v2-preview');
    assert.equal(emu().requests.at(-1)?.model, 'emu-image-v2-preview');
  });

  it('rejects unsupported sizes, unknown models and bad fields', async () => {
    const size = await generate({ model: 'emu-image-v1', prompt: 'x', width: 1024, height: 1024 });
    assert.equal(size.status, 400, '1024x1024 is not in this emulator\'s configured sizes');
    assert.match((JSON.parse(size.text) as { error: { message: string; code: string } }).error.code, /unsupported_image_size/);
    assert.equal((await generate({ model: 'emu-image-v2-preview', prompt: 'x' })).status, 404);
    assert.equal((await generate({ model: 'emu-chat-small', prompt: 'x' })).status, 400);
    assert.equal((await generate({ model: 'emu-image-v1', prompt: '' })).status, 400);
    assert.equal((await generate({ model: 'emu-image-v1', prompt: 'x', response_format: 'png' })).status, 400);
    assert.equal(emu().balance('production'), 1000, 'rejected calls cost nothing');
  });

  it('charges per image and reports the balance; 402 for the broke key; 403 without scope', async () => {
    const res = await generate({ model: 'emu-image-v1', prompt: 'x', width: 256, height: 256, n: 2 });
    assert.equal((JSON.parse(res.text) as ImageResult).data.length, 2);
    assert.equal(emu().balance('production'), 1000 - 2 * 4);
    assert.equal(Number(res.headers['x-service-balance-credits']), 992);
    assert.equal(emu().requests.at(-1)?.creditsCharged, 8);
    assert.equal((await generate({ model: 'auto', prompt: 'x' }, 'production', emu().keys.production.broke)).status, 402);
    assert.equal((await generate({ model: 'auto', prompt: 'x' }, 'production', emu().keys.production.chatOnly)).status, 403);
    assert.equal(emu().balance('production'), 992);
  });
});
