import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { InferenceClient } from '../../../src/core/client';
import { ApiError } from '../../../src/core/errors';
import { actionsForError } from '../../../src/core/errorActions';
import { DEFAULT_LIMITS } from '../../../src/core/limits';
import { drain, failure, HELLO, useEmulator } from './support';

describe('size limits on responses', () => {
  const { emulator, client } = useEmulator();

  it('has documented defaults generous enough for real answers and images', () => {
    assert.deepEqual(DEFAULT_LIMITS, { jsonBytes: 64 * 1024 * 1024, imageBytes: 32 * 1024 * 1024, streamBytes: 64 * 1024 * 1024 });
  });

  it('stops a streamed answer at the cap, keeps what arrived', async () => {
    emulator().injectFault('production', { fault: 'large-stream' });
    const outcome = await drain(client('production', { limits: { streamBytes: 100_000 } }).streamChat({ model: emulator().environments.production.chatModels[0], messages: HELLO }));
    assert.ok(outcome.error instanceof ApiError);
    assert.equal(outcome.error.kind, 'tooLarge');
    assert.match(outcome.error.message, /an answer larger than this client accepts \(97\.7 KiB\).*The answer so far was kept\./);
    assert.ok(outcome.text.length > 50_000 && outcome.text.length <= 100_000, `partial answer kept (${outcome.text.length} chars)`);
    assert.equal(outcome.error.requestId, outcome.meta?.requestId);
    assert.ok(!actionsForError('tooLarge', { canRetry: true }).some((action) => action.id === 'retry'), 'the same call would hit the same cap');
  });

  it('refuses a JSON body over the cap, with or without a Content-Length', async () => {
    const declared = await failure(client('production', { limits: { jsonBytes: 64 } }).listModels());
    assert.equal(declared.kind, 'tooLarge');
    assert.match(declared.message, /a response larger than this client accepts \(64 bytes\)/);
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"object":"list","data":[');
      const timer = setInterval(() => res.write('{"id":"m","object":"model"},'), 1);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const chunked = new InferenceClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, apiKey: 'k', limits: { jsonBytes: 10_000 } });
    try {
      const endless = await failure(chunked.listModels());
      assert.equal(endless.kind, 'tooLarge', 'a body that never ends is cut at the cap');
    } finally {
      await chunked.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('refuses an image whose decoded size passes the cap', async () => {
    const error = await failure(client('production', { limits: { imageBytes: 1000 } }).generateImage({ model: 'auto', prompt: 'big', width: 256, height: 256 }));
    assert.equal(error.kind, 'tooLarge');
    assert.match(error.message, /an image larger than this client accepts/);
    const image = await client().generateImage({ model: 'auto', prompt: 'big', width: 256, height: 256 });
    assert.ok(image.images[0].bytes.length > 1000, 'the same image passes the default cap');
  });
});
