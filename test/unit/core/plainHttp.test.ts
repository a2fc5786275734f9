import assert from 'node:assert/strict';
import { InferenceClient } from '../../../src/core/api/client';
import { ApiError } from '../../../src/core/api/errors';
import { isLoopbackHost } from '../../../src/core/api/loopback';
import { checkBaseUrl } from '../../../src/core/api/baseUrl';
import { checkEnvironments } from '../../../src/core/settings/settingsCheck';

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

  it('gives Add Environment, Set API Key and the client one answer for each base URL, app.localhost included', async () => {
    const accepted = [
      'https://api.example.com/api/v1', ' https://api.example.com/prefix/api/v1/ ', 'https://app.localhost/api/v1',
      'http://localhost:8787/api/v1', 'http://127.0.0.1:1/api/v1', 'http://127.1/api/v1', 'http://[::1]:1/api/v1',
    ];
    const refused = [
      'http://app.localhost/api/v1', 'http://api.example.com/api/v1', 'http://localhost.evil.example/api/v1', 'http://192.168.1.20:8787/api/v1',
      'http://[::ffff:10.0.0.1]/api/v1', 'ftp://example.com/api/v1', '', 'example.com/api/v1', 'https://example.com/v1',
      'https://user:pw@example.com/api/v1', 'https://example.com/api/v1?x=1',
    ];
    const answers = async (baseUrl: string) => {
      // Add Environment validates the typed address with checkBaseUrl.
      const addEnvironment = checkBaseUrl(baseUrl).ok;
      // Set API Key refuses an environment whose settings check found a problem.
      const setApiKey = checkEnvironments({ env: { baseUrl } }).environments[0].problem === undefined;
      let client = true;
      try {
        await new InferenceClient({ baseUrl, apiKey: 'k' }).close();
      } catch (error) {
        assert.ok(error instanceof ApiError && error.kind === 'notConfigured', String(error));
        client = false;
      }
      return { addEnvironment, setApiKey, client };
    };
    for (const baseUrl of accepted) assert.deepEqual(await answers(baseUrl), { addEnvironment: true, setApiKey: true, client: true }, baseUrl);
    for (const baseUrl of refused) assert.deepEqual(await answers(baseUrl), { addEnvironment: false, setApiKey: false, client: false }, baseUrl);
  });
});
