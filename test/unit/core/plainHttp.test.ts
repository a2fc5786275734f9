import assert from 'node:assert/strict';
import { InferenceClient } from '../../../src/core/client';
import { ApiError } from '../../../src/core/errors';
import { isLoopbackHost } from '../../../src/core/loopback';

describe('plain http only to this machine', () => {
  it('knows loopback hosts as the URL parser writes them', () => {
    const host = (url: string) => new URL(url).hostname;
    for (const url of ['http://localhost:8787', 'http://LOCALHOST.', 'http://127.0.0.1', 'http://127.1', 'http://127.255.3.4', 'http://2130706433', 'http://[::1]:9', 'http://[0:0:0:0:0:0:0:1]', 'http://[::ffff:127.0.0.1]']) {
      assert.equal(isLoopbackHost(host(url)), true, url);
    }
    for (const url of ['http://example.com', 'http://localhost.example.com', 'http://127.0.0.1.nip.io', 'http://128.0.0.1', 'http://10.0.0.1', 'http://[::2]', 'http://0.0.0.0', 'http://[::ffff:10.0.0.1]', 'http://localhost@evil.example']) {
      assert.equal(isLoopbackHost(host(url)), false, url);
    }
  });

  it('refuses http to any other host when the client is built, naming the setting, so nothing is sent', () => {
    for (const baseUrl of ['http://api.example.com/api/v1', 'http://192.168.1.20:8787/api/v1', 'http://localhost.evil.example/api/v1']) {
      assert.throws(() => new InferenceClient({ baseUrl, apiKey: 'svc-key-123456' }), (error: unknown) => {
        assert.ok(error instanceof ApiError);
        assert.equal(error.kind, 'notConfigured');
        assert.match(error.message, /plain http/);
        assert.match(error.message, /"inference\.environments" setting/);
        assert.doesNotMatch(error.message, /svc-key/);
        return true;
      }, baseUrl);
    }
  });

  it('accepts https anywhere and http on loopback', async () => {
    for (const baseUrl of ['https://api.example.com/api/v1', 'http://127.0.0.1:1/api/v1', 'http://localhost:1/api/v1', 'http://[::1]:1/api/v1']) {
      await new InferenceClient({ baseUrl, apiKey: 'k' }).close();
    }
  });
});
