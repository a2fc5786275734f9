import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { ApiError } from '../../../src/core/api/errors';
import { decodeImageItem } from '../../../src/core/api/imageData';
import { gifDimensions, imageDimensions, jpegDimensions, webpDimensions } from '../../../src/core/images/dimensions';
import { extensionForMimeType } from '../../../src/core/images/fileNames';
import { buildSidecar } from '../../../src/core/images/imageJob';
import { tinyGif, tinyJpeg, tinyWebp } from './tinyImages';

const META = { status: 200, receivedAt: 0 };

const FILES = {
  png: { bytes: PNG.sync.write(new PNG({ width: 7, height: 3 })), type: 'image/png', extension: 'png', size: [7, 3] },
  jpeg: { bytes: tinyJpeg(17, 9), type: 'image/jpeg', extension: 'jpg', size: [17, 9] },
  webp: { bytes: tinyWebp(300, 2), type: 'image/webp', extension: 'webp', size: [300, 2] },
  gif: { bytes: tinyGif(5, 11), type: 'image/gif', extension: 'gif', size: [5, 11] },
};

function refusal(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a refusal');
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('image formats: signatures decide, sizes are read from headers', () => {
  for (const [name, file] of Object.entries(FILES)) {
    it(`${name}: accepted whatever type was declared, typed and named from its signature, size for the sidecar`, () => {
      for (const item of [{ b64_json: b64(file.bytes) }, { url: `data:application/octet-stream;base64,${b64(file.bytes)}` }, { url: `data:image/png;base64,${b64(file.bytes)}` }]) {
        const image = decodeImageItem(item, META);
        assert.equal(image.mimeType, file.type);
        assert.equal(extensionForMimeType(image.mimeType), file.extension);
        assert.deepEqual(Buffer.from(image.bytes), Buffer.from(file.bytes));
      }
      const dimensions = imageDimensions(file.bytes);
      assert.deepEqual([dimensions?.width, dimensions?.height], file.size);
      const sidecar = buildSidecar({
        inputs: { prompt: 'p', model: 'auto', responseFormat: 'b64_json' }, meta: META, environment: 'e', mimeType: file.type, creditsSpent: undefined, index: 0, bytes: file.bytes,
      });
      assert.deepEqual([sidecar.imageWidth, sidecar.imageHeight], file.size);
    });
  }

  it('reads the three WebP flavours and JPEG frames after other segments, and refuses truncated headers', () => {
    const vp8x = new Uint8Array(30);
    vp8x.set(Buffer.from('RIFF\0\0\0\0WEBPVP8X'), 0);
    vp8x.set([0xff, 0x0f, 0x00, 0xff, 0x03, 0x00], 24); // 4096 x 1024
    assert.deepEqual(webpDimensions(vp8x), { width: 4096, height: 1024 });
    const vp8 = new Uint8Array(30);
    vp8.set(Buffer.from('RIFF\0\0\0\0WEBPVP8 '), 0);
    vp8.set([0x9d, 0x01, 0x2a, 0x80, 0x02, 0xe0, 0x01], 23); // 640 x 480
    assert.deepEqual(webpDimensions(vp8), { width: 640, height: 480 });
    const withExif = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0x00, 0x04, 0xaa, 0xbb]), Buffer.from(tinyJpeg(33, 2)).subarray(2)]);
    assert.deepEqual(jpegDimensions(withExif), { width: 33, height: 2 });
    assert.equal(jpegDimensions(FILES.jpeg.bytes.subarray(0, 30)), undefined);
    assert.equal(gifDimensions(FILES.gif.bytes.subarray(0, 8)), undefined);
    assert.equal(imageDimensions(new Uint8Array(40)), undefined);
  });

  it('refuses bytes that are no PNG, JPEG, WebP or GIF, whatever type the data URL declared', () => {
    const items = [
      { url: 'data:image/svg+xml,%3Csvg%20onload%3Dalert(1)%2F%3E' },
      { url: `data:image/png;base64,${Buffer.from('<html><body>hello</body></html>').toString('base64')}` },
      { b64_json: Buffer.from('RIFF\0\0\0\0AVI LIST').toString('base64') },
      { b64_json: Buffer.from('%PDF-1.7 not an image').toString('base64') },
    ];
    for (const item of items) {
      const error = refusal(() => decodeImageItem(item, META));
      assert.equal(error.kind, 'malformedResponse');
      assert.match(error.message, /not a PNG, JPEG, WebP or GIF image \(it starts with [0-9a-f ]+\); nothing was saved/);
    }
  });

  it('gives a clear error for a malformed % escape in a data URL, instead of throwing a URIError', () => {
    for (const url of ['data:image/png,%zz', 'data:image/png,%8', 'data:image/gif,GIF89a%', 'data:,%E0%A4%A']) {
      const error = refusal(() => decodeImageItem({ url }, META));
      assert.equal(error.kind, 'malformedResponse');
      assert.match(error.message, /malformed "%" escape/);
    }
  });

  it('decodes base64 once: line-wrapped text is accepted, a stray character anywhere is refused', () => {
    const text = b64(FILES.png.bytes);
    const wrapped = text.replace(/.{20}/g, '$&\r\n');
    assert.deepEqual(Buffer.from(decodeImageItem({ b64_json: wrapped }, META).bytes), Buffer.from(FILES.png.bytes));
    const urlSafe = b64(FILES.jpeg.bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    assert.equal(decodeImageItem({ b64_json: urlSafe }, META).mimeType, 'image/jpeg');
    for (const at of [0, 5, text.length - 3]) {
      for (const stray of ['#', '=', 'é', '.']) {
        const broken = `${text.slice(0, at)}${stray}${text.slice(at)}`;
        assert.equal(refusal(() => decodeImageItem({ b64_json: broken }, META)).kind, 'malformedResponse', `${stray} at ${at}`);
      }
    }
    assert.equal(refusal(() => decodeImageItem({ b64_json: '' }, META)).kind, 'malformedResponse');
  });

  it('refuses an image over the decoded-size cap before decoding it', () => {
    const big = b64(new Uint8Array(3000));
    const error = refusal(() => decodeImageItem({ b64_json: big }, META, 2999));
    assert.equal(error.kind, 'tooLarge');
    assert.match(error.message, /an image larger than this client accepts \(2\.9 KiB\)/);
    assert.equal(refusal(() => decodeImageItem({ url: `data:image/png,${'%00'.repeat(3000)}` }, META, 2999)).kind, 'tooLarge');
  });
});
