import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { creditsSpent } from '../../../src/core/credits';
import {
  buildSidecar, MAX_SEED, parseSeed, parseSide, parseSize, sizePresets, toImageRequest, type ImageInputs,
} from '../../../src/core/images/imageJob';
import { pngDimensions } from '../../../src/core/images/dimensions';
import { useEmulator } from '../core/support';

const BASE: ImageInputs = { prompt: 'a fox', model: 'auto', responseFormat: 'b64_json' };

describe('image inputs', () => {
  it('builds the request body of spec 4.2, sending only what was chosen', () => {
    assert.deepEqual(toImageRequest(BASE), { model: 'auto', prompt: 'a fox', response_format: 'b64_json' });
    assert.deepEqual(
      toImageRequest({ ...BASE, width: 768, height: 1024, seed: 0, negativePrompt: 'blur', responseFormat: 'url' }),
      { model: 'auto', prompt: 'a fox', response_format: 'url', width: 768, height: 1024, seed: 0, negative_prompt: 'blur' },
    );
    assert.equal('width' in toImageRequest({ ...BASE, width: 512 }), false, 'a width without a height is not sent');
  });

  it('parses sizes and sides', () => {
    assert.deepEqual(parseSize('1024x768'), { width: 1024, height: 768 });
    assert.deepEqual(parseSize(' 640 × 480 '), { width: 640, height: 480 });
    assert.deepEqual(parseSize('512X512'), { width: 512, height: 512 });
    for (const bad of ['', '1024', '0x512', '-1x5', '1.5x2', '99999x1', 'axb']) assert.equal(parseSize(bad), undefined, bad);
    assert.equal(parseSide('12'), 12);
    assert.equal(parseSide('0'), undefined);
  });

  it('keeps the presets that parse, once each', () => {
    assert.deepEqual(sizePresets(['512x512', 'junk', 42, '512x512', '768x1024']), [{ width: 512, height: 512 }, { width: 768, height: 1024 }]);
  });

  it('parses seeds: empty means random, otherwise a whole number in range', () => {
    assert.deepEqual(parseSeed(''), { ok: true });
    assert.deepEqual(parseSeed(' 42 '), { ok: true, seed: 42 });
    assert.deepEqual(parseSeed(String(MAX_SEED)), { ok: true, seed: MAX_SEED });
    for (const bad of ['-1', '1.5', 'abc', String(MAX_SEED + 1)]) assert.equal(parseSeed(bad).ok, false, bad);
  });

  it('computes credits spent only when both balances are known, without float noise', () => {
    assert.equal(creditsSpent(10.3, 6.2), 4.1);
    assert.equal(creditsSpent(undefined, 6), undefined);
    assert.equal(creditsSpent(6, undefined), undefined);
    assert.equal(creditsSpent(6, 6), 0);
    assert.equal(creditsSpent(6, 6.5), undefined, 'a balance that rose (a top-up, another wallet) is no spend, never a negative one');
  });

  it('reads a PNG header and nothing else', () => {
    const png = PNG.sync.write(new PNG({ width: 7, height: 3 }));
    assert.deepEqual(pngDimensions(png), { width: 7, height: 3 });
    assert.equal(pngDimensions(new Uint8Array([0xff, 0xd8, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])), undefined);
    assert.equal(pngDimensions(new Uint8Array(4)), undefined);
  });
});

describe('sidecar from a real emulator response', () => {
  const { emulator, client } = useEmulator();

  it('records the resolved model of auto, size, seed, request id and the credits spent, and no key', async () => {
    const balanceBefore = emulator().balance('production');
    const inputs: ImageInputs = { ...BASE, width: 768, height: 1024, seed: 7, negativePrompt: 'no text' };
    const result = await client().generateImage(toImageRequest(inputs));
    const sidecar = buildSidecar({ inputs, meta: result.meta, environment: 'production', mimeType: result.images[0].mimeType, creditsSpent: creditsSpent(balanceBefore, result.meta.balanceCredits), index: 0, bytes: result.images[0].bytes });
    const record = emulator().requests.at(-1);
    assert.equal(sidecar.requestedModel, 'auto');
    assert.equal(sidecar.model, emulator().environments.production.imageModels[0]);
    assert.equal(sidecar.requestId, record?.id);
    assert.equal(sidecar.creditsSpent, record?.creditsCharged);
    assert.ok((sidecar.creditsSpent ?? 0) > 0);
    assert.equal(sidecar.balanceAfter, emulator().balance('production'));
    assert.deepEqual([sidecar.width, sidecar.height, sidecar.imageWidth, sidecar.imageHeight], [768, 1024, 768, 1024]);
    assert.equal(sidecar.seed, 7);
    assert.equal(sidecar.negativePrompt, 'no text');
    assert.equal(sidecar.mimeType, 'image/png');
    assert.ok(!Number.isNaN(Date.parse(sidecar.createdAt)));
    const text = JSON.stringify(sidecar);
    for (const key of Object.values(emulator().keys.production)) assert.ok(!text.includes(key), 'the sidecar never holds a key');
  });
});
