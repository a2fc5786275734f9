/** Keys, environments, scopes, rate limits and the model list, over raw node:http. */
import assert from 'node:assert/strict';
import { startEmulator } from '../../emulator';
import { generateKey } from '../../emulator/keys';
import { bearer, chatBody, rawRequest, useEmulator } from './helpers';

interface ErrorBody { error: { message: string; type: string; code: string } }

function errorOf(text: string): ErrorBody['error'] {
  return (JSON.parse(text) as ErrorBody).error;
}

describe('emulator: keys and environments', () => {
  const emu = useEmulator();
  const models = (env: 'production' | 'preview' = 'production'): string => `${emu().environments[env].baseUrl}/models`;

  it('runs each environment on its own listener with its own model ids', () => {
    const { production, preview } = emu().environments;
    assert.notEqual(production.origin, preview.origin);
    assert.equal(production.baseUrl, `${production.origin}/api/v1`);
    assert.deepEqual(production.chatModels, ['emu-chat-large', 'emu-chat-small']);
    assert.deepEqual(preview.imageModels, ['emu-image-v2-preview']);
    assert.equal(production.chatModels.filter((m) => preview.chatModels.includes(m)).length, 0);
  });

  it('generates random keys: prefix + 32 base62, all distinct, new at each start', () => {
    const all = [...Object.values(emu().keys.production), ...Object.values(emu().keys.preview)];
    assert.equal(emu().keyPrefix, 'svc-');
    for (const key of all) assert.match(key, /^svc-[A-Za-z0-9]{32}$/);
    assert.equal(new Set(all).size, all.length);
  });

  it("takes an environment's full key when handed one (emulators that share one code-server), and still generates the rest", async () => {
    const full = generateKey('svc-');
    const shared = await startEmulator({ fullKeys: { production: full } });
    try {
      assert.equal(shared.keys.production.full, full);
      assert.notEqual(shared.keys.preview.full, full);
      assert.match(shared.keys.production.chatOnly, /^svc-[A-Za-z0-9]{32}$/);
      assert.equal((await rawRequest(`${shared.environments.production.baseUrl}/models`, { headers: bearer(full) })).status, 200);
      assert.equal((await rawRequest(`${shared.environments.preview.baseUrl}/models`, { headers: bearer(full) })).status, 401);
    } finally {
      await shared.close();
    }
  });

  it('rejects a key from the other environment with 401', async () => {
    const res = await rawRequest(models('preview'), { headers: bearer(emu().keys.production.full) });
    assert.equal(res.status, 401);
    assert.equal(errorOf(res.text).code, 'unknown_api_key');
    const ok = await rawRequest(models('preview'), { headers: bearer(emu().keys.preview.full) });
    assert.equal(ok.status, 200);
  });

  it('answers each 401 cause with a distinct code and JSON error body', async () => {
    const k = emu().keys.production;
    const cases: [Record<string, string>, string][] = [
      [{}, 'missing_api_key'],
      [{ authorization: `Basic ${k.full}` }, 'malformed_authorization'],
      [{ authorization: 'Bearer sk-abcdefghijklmnopqrstuvwxyz012345' }, 'invalid_key_prefix'],
      [{ authorization: 'Bearer svc-short' }, 'malformed_api_key'],
      [bearer(`svc-${'A'.repeat(32)}`), 'unknown_api_key'],
      [bearer(k.expired), 'expired_api_key'],
      [bearer(k.revoked), 'revoked_api_key'],
    ];
    for (const [headers, code] of cases) {
      const res = await rawRequest(`${emu().environments.production.baseUrl}/chat/completions`, { headers, body: chatBody('emu-chat-small') });
      assert.equal(res.status, 401, code);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.equal(errorOf(res.text).code, code);
      assert.equal(errorOf(res.text).type, 'authentication_error');
      assert.match(String(res.headers['x-request-id']), /^req_/);
      assert.equal(res.headers['x-ratelimit-limit-requests'], undefined, 'no key was recognised');
    }
  });

  it('returns 403 when the key lacks the images scope, and chat still works for it', async () => {
    const base = emu().environments.production.baseUrl;
    const key = emu().keys.production.chatOnly;
    const img = await rawRequest(`${base}/images/generations`, { headers: bearer(key), body: { model: 'auto', prompt: 'x' } });
    assert.equal(img.status, 403);
    assert.equal(errorOf(img.text).code, 'missing_scope');
    const chat = await rawRequest(`${base}/chat/completions`, { headers: bearer(key), body: chatBody('emu-chat-small') });
    assert.equal(chat.status, 200);
  });

  it('limits the lowRpm key to 2 requests per minute with 429 and Retry-After', async () => {
    const headers = bearer(emu().keys.production.lowRpm);
    const first = await rawRequest(models(), { headers });
    assert.equal(first.headers['x-ratelimit-limit-requests'], '2');
    assert.equal((await rawRequest(models(), { headers })).status, 200);
    const third = await rawRequest(models(), { headers });
    assert.equal(third.status, 429);
    assert.equal(errorOf(third.text).code, 'rate_limit_exceeded');
    const retryAfter = Number(third.headers['retry-after']);
    assert.ok(retryAfter >= 59 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    // Other keys have their own windows.
    assert.equal((await rawRequest(models(), { headers: bearer(emu().keys.production.full) })).status, 200);
  });

  it('reports the configured RPM of a recognised key', async () => {
    const res = await rawRequest(models(), { headers: bearer(emu().keys.production.full) });
    assert.equal(res.headers['x-ratelimit-limit-requests'], '60');
    assert.match(String(res.headers['x-request-id']), /^req_[0-9a-f]{20}$/);
    assert.equal(res.headers['x-service-balance-credits'], '1000');
  });
});

describe('emulator: GET /models', () => {
  const emu = useEmulator();
  const get = (query: string, key?: string): ReturnType<typeof rawRequest> =>
    rawRequest(`${emu().environments.preview.baseUrl}/models${query}`, { headers: key ? bearer(key) : {} });

  it('filters by type (chat, text, image)', async () => {
    const key = emu().keys.preview.full;
    const ids = async (q: string): Promise<string[]> => (JSON.parse((await get(q, key)).text) as { data: { id: string }[] }).data.map((m) => m.id);
    assert.deepEqual(await ids('?type=chat'), ['emu-chat-large-preview', 'emu-chat-next']);
    assert.deepEqual(await ids('?type=text'), ['emu-chat-large-preview', 'emu-chat-next']);
    assert.deepEqual(await ids('?type=image'), ['emu-image-v2-preview']);
    assert.equal((await ids('')).length, 3);
    assert.equal((await get('?type=audio', key)).status, 400);
  });

  it('returns a different web-catalog shape without a key, and the list with format=openai', async () => {
    const web = JSON.parse((await get('')).text) as { object?: string; catalog: { environment: string; groups: { kind: string; entries: { slug: string }[] }[] } };
    assert.equal(web.object, undefined);
    assert.equal(web.catalog.environment, 'preview');
    assert.deepEqual(web.catalog.groups.map((g) => g.kind), ['chat', 'image']);
    const list = JSON.parse((await get('?format=openai')).text) as { object: string; data: unknown[] };
    assert.equal(list.object, 'list');
    assert.equal(list.data.length, 3);
  });

  it('answers unknown API paths with 404 JSON', async () => {
    const res = await rawRequest(`${emu().environments.production.baseUrl}/embeddings`, { headers: bearer(emu().keys.production.full), body: {} });
    assert.equal(res.status, 404);
    assert.equal(errorOf(res.text).code, 'unknown_endpoint');
  });
});
