import assert from 'node:assert/strict';
import { DEFAULT_LIMITS } from '../../../src/core/api/limits';
import { failure, useEmulator } from './support';

describe('size limits on responses', () => {
  const { client } = useEmulator();

  it('has documented defaults generous enough for real answers and images', () => {
    assert.deepEqual(DEFAULT_LIMITS, { jsonBytes: 64 * 1024 * 1024, imageBytes: 32 * 1024 * 1024, streamBytes: 64 * 1024 * 1024 });
  });

  it('refuses an image whose decoded size passes the cap', async () => {
    const error = await failure(client('production', { limits: { imageBytes: 1000 } }).generateImage({ model: 'auto', prompt: 'big', width: 256, height: 256 }));
    assert.equal(error.kind, 'tooLarge');
    assert.match(error.message, /an image larger than this client accepts/);
    const image = await client().generateImage({ model: 'auto', prompt: 'big', width: 256, height: 256 });
    assert.ok(image.images[0].bytes.length > 1000, 'the same image passes the default cap');
  });
});
