/** One image generation's steps, on fake ports and a billing meter with a real spending guard. */
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/core/api/errors';
import type { ImageResult } from '../../../src/core/api/types';
import { runImageGeneration } from '../../../src/core/images/imageGeneration';
import type { ImageInputs } from '../../../src/core/images/imageJob';
import { guardedMeter, type GuardedMeter } from '../fakes/guardedMeter';
import { FakeImagePorts } from '../fakes/images';

const INPUTS: ImageInputs = { prompt: 'A red fox in the snow', model: 'painter', seed: 7, responseFormat: 'b64_json' };
const bytes = (n: number) => new Uint8Array(n).fill(1);
/** A response with the balance after the charge (none: `null`), from a balance of 10 before it. */
const result = (balanceCredits: number | null = 9.6, images = [{ mimeType: 'image/png', bytes: bytes(3) }]): ImageResult => ({
  images,
  meta: { status: 200, receivedAt: Date.UTC(2026, 0, 2), requestId: 'req-img', modelId: 'painter-v2', ...(balanceCredits !== null && { balanceCredits }) },
});

describe('image generation: the flow from save target to files', () => {
  let guarded: GuardedMeter;
  let ports: FakeImagePorts;

  beforeEach(() => {
    guarded = guardedMeter();
    ports = new FakeImagePorts(guarded.meter);
  });
  afterEach(() => guarded.dispose());

  it('decides where to save before spending: a refused folder, or none chosen, sends nothing', async () => {
    ports.resolution = { ok: false, reason: 'The workspace is not trusted.', fix: 'trust' };
    assert.deepEqual(await runImageGeneration(ports, INPUTS, 'production'), { status: 'refused', reason: 'The workspace is not trusted.', fix: 'trust' });
    ports.resolution = { ok: false };
    assert.deepEqual(await runImageGeneration(ports, INPUTS, 'production'), { status: 'noFolder' });
    assert.deepEqual(ports.requests, []);
    assert.deepEqual(guarded.entries, []);
    assert.deepEqual(ports.log.lines, ['warn: Image generation refused: The workspace is not trusted.']);
  });

  it('bills each image by its response\'s balance, then saves it with a sidecar that states the spend', async () => {
    ports.respond = async () => result(9.6, [{ mimeType: 'image/png', bytes: bytes(3) }, { mimeType: 'image/jpeg', bytes: bytes(5) }]);
    const outcome = await runImageGeneration(ports, INPUTS, 'production');
    assert.equal(outcome.status, 'saved');
    assert.ok(outcome.status === 'saved');
    assert.equal(outcome.creditsSpent, 0.4);
    assert.deepEqual(outcome.images.map((image) => [image.image, image.mimeType, image.bytes]), [
      ['images/a-red-fox-in-the-snow.png', 'image/png', 3],
      ['images/a-red-fox-in-the-snow.jpg', 'image/jpeg', 5],
    ]);
    const sidecar = ports.sidecar('images/a-red-fox-in-the-snow.jpg.json');
    assert.deepEqual([sidecar.creditsSpent, sidecar.index, sidecar.requestId, sidecar.model, sidecar.seed, sidecar.environment], [0.4, 1, 'req-img', 'painter-v2', 7, 'production']);
    assert.deepEqual(guarded.entries.map((e) => [e.requestId, e.kind, e.model, e.credits]), [['req-img', 'image', 'painter-v2', 0.4]]);
    assert.deepEqual(ports.progress, ['painter: A red fox in the snow', 'saving…']);
    assert.deepEqual(ports.requests.map((r) => [r.env, r.request.model, r.request.prompt]), [['production', 'painter', 'A red fox in the snow']]);
  });

  it('records an image whose response carried no balance without a cost, and its sidecar says so', async () => {
    ports.respond = async () => result(null);
    const outcome = await runImageGeneration(ports, INPUTS, 'production');
    assert.ok(outcome.status === 'saved');
    assert.equal('creditsSpent' in outcome, false);
    assert.equal(ports.sidecar('images/a-red-fox-in-the-snow.png.json').creditsSpent, null);
    assert.deepEqual(guarded.entries.map((e) => e.credits), [null]);
  });

  it('returns a failure unbilled, and the next call is measured (the failed one released its window)', async () => {
    ports.respond = () => Promise.reject(new ApiError('server', 'The service failed (500).'));
    const failed = await runImageGeneration(ports, INPUTS, 'production');
    assert.ok(failed.status === 'failed');
    assert.equal(failed.error.kind, 'server');
    assert.equal(guarded.entries.length, 0);
    ports.respond = async () => result();
    assert.equal((await runImageGeneration(ports, INPUTS, 'production')).status, 'saved');
    assert.deepEqual(guarded.entries.map((e) => e.credits), [0.4]);
  });

  it('reports a request cancelled from the progress as cancelled, not failed, and bills nothing', async () => {
    ports.respond = (signal) => new Promise((_resolve, reject) => {
      signal.addEventListener('abort', () => reject(new Error('socket closed')));
      ports.cancel();
    });
    assert.deepEqual(await runImageGeneration(ports, INPUTS, 'production'), { status: 'cancelled' });
    assert.deepEqual(guarded.entries, []);
    assert.deepEqual(ports.log.lines, ['info: Image generation cancelled']);
  });

  it('keeps an image that could not be written billed, and logs its request id for support', async () => {
    ports.respond = async () => result();
    ports.writeFails = new Error('EROFS: read-only file system');
    const outcome = await runImageGeneration(ports, INPUTS, 'production');
    assert.deepEqual(outcome.status === 'saveFailed' && outcome.message, 'EROFS: read-only file system');
    assert.deepEqual(guarded.entries.map((e) => e.credits), [0.4], 'billed before saving');
    assert.deepEqual(ports.log.lines, ['error: Image generated (request req-img) but not saved: EROFS: read-only file system']);
  });

  it('is refused by a spending limit before the request leaves', async () => {
    guarded.state.limits = { production: { daily: 0.5 } };
    guarded.state.balance = undefined;
    ports.respond = async () => result(null);
    assert.equal((await runImageGeneration(ports, INPUTS, 'production')).status, 'saved');
    await guarded.released();
    const refused = await runImageGeneration(ports, INPUTS, 'production');
    assert.ok(refused.status === 'failed');
    assert.equal(refused.error.kind, 'spendingLimit');
    assert.equal(ports.requests.length, 1, 'the second request was never sent');
  });
});
