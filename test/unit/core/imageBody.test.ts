import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { InferenceClient } from '../../../src/core/api/client';
import { ApiError } from '../../../src/core/api/errors';
import { DecodedString, LARGE_STRING_BYTES, readImageResultBody, type ImageBodyLimits } from '../../../src/core/api/imageBody';
import { decodeImageItem } from '../../../src/core/api/imageData';

const META = { status: 200, receivedAt: 0 };

async function* pieces(bytes: Buffer, sizes: number[]): AsyncGenerator<Uint8Array> {
  let offset = 0;
  for (let index = 0; offset < bytes.length; index++) {
    const size = sizes[index % sizes.length];
    yield bytes.subarray(offset, offset + size);
    offset += size;
  }
}

function limits(body: Buffer, overrides: Partial<ImageBodyLimits> = {}): ImageBodyLimits {
  return {
    maxBodyBytes: 64 * 1024 * 1024, maxDecodedBytes: 32 * 1024 * 1024, declaredLength: body.length,
    onBodyTooLarge: () => new ApiError('tooLarge', 'body'), onDecodedTooLarge: () => new ApiError('tooLarge', 'image'), onNotBase64: () => new ApiError('malformedResponse', 'base64'),
    ...overrides,
  };
}

async function read(body: Buffer, sizes = [65536], overrides: Partial<ImageBodyLimits> = {}): Promise<{ data: Array<Record<string, unknown>>; created?: unknown }> {
  return await readImageResultBody(pieces(body, sizes), limits(body, overrides)) as { data: Array<Record<string, unknown>> };
}

async function refused(body: Buffer, overrides: Partial<ImageBodyLimits> = {}, sizes = [4096]): Promise<ApiError> {
  const error = await read(body, sizes, overrides).then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
  return error;
}

describe('image result bodies: base64 decoded while it arrives', () => {
  const image = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(100_000)]);
  const base64 = image.toString('base64');

  it('decodes large b64_json and data URL values across any chunk boundaries, and keeps the rest as JSON', async () => {
    const body = Buffer.from(JSON.stringify({ created: 7, data: [{ b64_json: base64, revised_prompt: 'a "fox"' }, { url: `data:image/png;base64,${base64}` }, { b64_json: 'c21hbGw=' }] }));
    for (const sizes of [[65536], [1], [3, 7, 1000, 1], [LARGE_STRING_BYTES + 1]]) {
      const parsed = await read(body, sizes);
      assert.equal(parsed.created, 7);
      const [first, second, third] = parsed.data;
      assert.ok(first.b64_json instanceof DecodedString && first.b64_json.header === '');
      assert.ok(Buffer.from(first.b64_json.bytes).equals(image), `b64_json with pieces ${sizes.join(',')}`);
      assert.equal(first.revised_prompt, 'a "fox"');
      assert.ok(second.url instanceof DecodedString && second.url.header === 'data:image/png;base64,');
      assert.ok(Buffer.from(second.url.bytes).equals(image));
      assert.equal(third.b64_json, 'c21hbGw=', 'short strings stay strings');
      assert.equal(decodeImageItem(first, META).mimeType, 'image/png');
      assert.equal(decodeImageItem(second, META).bytes.length, image.length);
    }
  });

  it('reads escaped slashes, \\u escapes, line wrapping, base64url, and no Content-Length', async () => {
    const wrapped = base64.replace(/.{76}/g, '$&\\n').replace(/\//g, '\\/').replace(/\+/, '\\u002b');
    const parsed = await read(Buffer.from(`{"data":[{"b64_json":"${wrapped}"}]}`), [999], { declaredLength: undefined });
    assert.ok(Buffer.from((parsed.data[0].b64_json as DecodedString).bytes).equals(image));
    const urlSafe = image.toString('base64url');
    const safe = await read(Buffer.from(`{"data":[{"b64_json":"${urlSafe}"}]}`));
    assert.ok(Buffer.from((safe.data[0].b64_json as DecodedString).bytes).equals(image));
  });

  it('leaves long text that is not base64 as text', async () => {
    const text = `${'word '.repeat(LARGE_STRING_BYTES / 4)}.`;
    const parsed = await read(Buffer.from(JSON.stringify({ data: [{ revised_prompt: text }] })), [5000]);
    assert.equal(parsed.data[0].revised_prompt, text);
  });

  it('refuses base64 that goes bad after it started, padding in the middle, and an unfinished group', async () => {
    for (const broken of [`${base64.slice(0, 120_000)}#${base64.slice(120_000)}`, `${base64.slice(0, 100_000)}=${base64.slice(100_000)}`, `${base64.slice(0, 100_001)}`]) {
      const error = await refused(Buffer.from(`{"data":[{"b64_json":"${broken}"}]}`));
      assert.equal(error.message, 'base64');
    }
  });

  it('stops at the decoded-size cap and the body cap, declared or not', async () => {
    const body = Buffer.from(`{"data":[{"b64_json":"${base64}"}]}`);
    assert.equal((await refused(body, { maxDecodedBytes: 50_000 })).message, 'image');
    assert.equal((await refused(body, { maxDecodedBytes: 50_000, declaredLength: undefined })).message, 'image');
    assert.equal((await refused(body, { maxBodyBytes: 50_000 })).message, 'body');
    assert.equal((await refused(body, { maxBodyBytes: 50_000, declaredLength: undefined })).message, 'body');
  });

  it('the client refuses an image result that is not a JSON object, without a TypeError', async () => {
    const bodies = ['null', '"text"', '<html><title>Maintenance</title></html>', '{"data":[{"b64_json":"'];
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end(bodies.shift());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = new InferenceClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, apiKey: 'k' });
    try {
      for (let attempt = 0; attempt < 4; attempt++) {
        const error = await client.generateImage({ model: 'auto', prompt: 'x' }).then(() => undefined, (e: unknown) => e);
        assert.ok(error instanceof ApiError && error.kind === 'malformedResponse', String(error));
      }
    } finally {
      await client.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
