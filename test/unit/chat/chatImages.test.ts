import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chatImage, imageDataUrl, isImageFileName, maxImageBytes } from '../../../src/core/chat/chatImages';
import { GIF_1X1, JPEG_START, PNG_1X1, WEBP_START } from '../../shared/chatImages';

/** What can be attached to a chat message: told by magic bytes, capped in size, named by content. */
describe('chat images: type, size cap, file name', () => {
  const MB = 1024 * 1024;

  it('tells PNG, JPEG, WebP and GIF by their bytes, whatever the name says', () => {
    assert.equal(chatImage(PNG_1X1, 'photo.jpg', MB).mime, 'image/png', 'a PNG named .jpg is a PNG');
    assert.equal(chatImage(JPEG_START, 'x.png', MB).mime, 'image/jpeg');
    assert.equal(chatImage(WEBP_START, 'x', MB).mime, 'image/webp');
    assert.equal(chatImage(GIF_1X1, 'x.gif', MB).mime, 'image/gif');
  });

  it('refuses anything else with a message that names the file and says how it was judged', () => {
    assert.throws(() => chatImage(Buffer.from('not an image at all'), 'notes.png', MB), /notes\.png is not a PNG, JPEG, WebP or GIF image \(told by its content, not its name\)/);
    const riffWave = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt ')]);
    assert.throws(() => chatImage(riffWave, 'sound.webp', MB), /not a PNG/, 'a RIFF that is not WEBP');
    assert.throws(() => chatImage(Buffer.alloc(0), 'empty.png', MB), /not a PNG/);
  });

  it('refuses an image over the cap with both sizes and the setting to change, and takes one at the cap', () => {
    const big = Buffer.concat([PNG_1X1, Buffer.alloc(2 * MB)]);
    assert.throws(() => chatImage(big, 'big.png', MB), /big\.png is 2 MiB; images of up to 1 MiB can be attached \(setting inference\.chat\.maxImageMB\)\. It was not resized\./);
    assert.equal(chatImage(big, 'big.png', big.length).bytes, big.length);
  });

  it('names the file by the SHA-256 of its bytes and the type, and reads only such names back', () => {
    const image = chatImage(PNG_1X1, 'a.png', MB);
    assert.equal(image.file, `${createHash('sha256').update(PNG_1X1).digest('hex')}.png`);
    assert.equal(chatImage(PNG_1X1, 'other name.png', MB).file, image.file, 'the same picture, the same file');
    assert.ok(isImageFileName(image.file));
    for (const bad of ['../x.png', `${'a'.repeat(64)}.svg`, `${'A'.repeat(64)}.png`, 'x.png', `${'a'.repeat(64)}.png/..`]) assert.ok(!isImageFileName(bad), bad);
  });

  it('caps at the setting in MB, and at the default for a value that is not a positive number', () => {
    assert.equal(maxImageBytes(2), 2 * MB);
    assert.equal(maxImageBytes(0.5), MB / 2);
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) assert.equal(maxImageBytes(bad), 5 * MB);
  });

  it('makes the data URL the common chat format carries', () => {
    assert.equal(imageDataUrl('image/png', PNG_1X1), `data:image/png;base64,${PNG_1X1.toString('base64')}`);
    assert.equal(imageDataUrl('image/gif', new Uint8Array(GIF_1X1.buffer, GIF_1X1.byteOffset, 6)), `data:image/gif;base64,${GIF_1X1.subarray(0, 6).toString('base64')}`);
  });
});
