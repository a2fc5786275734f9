import assert from 'node:assert/strict';
import { ApiError } from '../../../src/core/api/errors';
import { drain, HELLO, useEmulator } from './support';

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ApiError, `expected ApiError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

describe('InferenceClient against the emulator: errors', () => {
  const { emulator, client } = useEmulator();
  const chatModel = () => emulator().environments.production.chatModels[0];

  const keyCases: Array<[string, (e: ReturnType<typeof emulator>) => string, RegExp]> = [
    ['expired', (e) => e.keys.production.expired, /expired/i],
    ['revoked', (e) => e.keys.production.revoked, /revoked/i],
    ['from the other environment', (e) => e.keys.preview.full, /unknown/i],
  ];
  for (const [name, key, serviceText] of keyCases) {
    it(`maps a 401 for a key ${name} to unauthorized with the service's message and request id`, async () => {
      const error = await failure(client('production', { apiKey: key(emulator()) }).listModels());
      assert.equal(error.kind, 'unauthorized');
      assert.equal(error.status, 401);
      assert.match(error.serviceMessage ?? '', serviceText);
      assert.equal(error.requestId, emulator().requests.at(-1)?.id);
    });
  }

  it('maps 402 from an empty wallet, with the balance from the header, and never calls it retryable', async () => {
    const error = await failure(client('production', { apiKey: emulator().keys.production.broke }).chat({ model: chatModel(), messages: HELLO }));
    assert.equal(error.kind, 'insufficientCredits');
    assert.equal(error.retryable, false);
    assert.equal(error.meta?.balanceCredits, 0);
    assert.match(error.message, /credits/);
  });

  it('maps 404 for an unknown model to modelNotFound, and a 404 on the model list to notFound', async () => {
    const unknown = await failure(client().chat({ model: emulator().environments.preview.chatModels[0], messages: HELLO }));
    assert.equal(unknown.kind, 'modelNotFound');
    emulator().injectFault('production', { fault: 'http-404' });
    const list = await failure(client().listModels());
    assert.equal(list.kind, 'notFound');
    assert.match(list.message, /base URL/);
  });

  it('maps a key without the images scope to missingScope', async () => {
    const error = await failure(client('production', { apiKey: emulator().keys.production.chatOnly }).generateImage({ model: 'auto', prompt: 'x' }));
    assert.equal(error.kind, 'missingScope');
    assert.match(error.message, /"images" scope/);
  });

  it('maps an unsupported image size to badRequest with the service message', async () => {
    const error = await failure(client().generateImage({ model: 'auto', prompt: 'x', width: 123, height: 45 }));
    assert.equal(error.kind, 'badRequest');
    assert.equal(error.status, 400);
    assert.ok(error.serviceMessage);
  });

  it('maps a real RPM overflow to rateLimited with Retry-After seconds', async () => {
    const lowRpm = client('production', { apiKey: emulator().keys.production.lowRpm });
    await lowRpm.listModels();
    await lowRpm.listModels();
    const error = await failure(lowRpm.listModels());
    assert.equal(error.kind, 'rateLimited');
    assert.ok((error.retryAfterSeconds ?? 0) >= 1 && (error.retryAfterSeconds ?? 0) <= 60);
    assert.equal(error.meta?.rateLimitRequests, 2);
  });

  it('times out a slow first byte per the configured response timeout', async () => {
    emulator().injectFault('production', { fault: 'slow-first-byte', delayMs: 1500 });
    const error = await failure(client('production', { timeouts: { responseMs: 300 } }).listModels());
    assert.equal(error.kind, 'timeout');
    assert.match(error.message, /timeout settings/);
  });

  it('times out a service that never answers, and succeeds with a generous timeout on a slow one', async () => {
    emulator().injectFault('production', { fault: 'hang' });
    const hung = await failure(client('production', { timeouts: { responseMs: 300 } }).listModels());
    assert.equal(hung.kind, 'timeout');
    emulator().injectFault('production', { fault: 'slow-first-byte', delayMs: 400 });
    const slow = await client('production', { timeouts: { responseMs: 5000 } }).listModels();
    assert.ok(slow.models.length > 0);
  });

  it('reports a refused connection as a network error', async () => {
    const error = await failure(client('production', { baseUrl: 'http://127.0.0.1:9/api/v1' }).listModels());
    assert.equal(error.kind, 'network');
    assert.match(error.message, /ECONNREFUSED/);
  });

  it('rejects a base URL that is empty or not http(s) as notConfigured', () => {
    assert.throws(() => client('production', { baseUrl: '' }), (e: unknown) => e instanceof ApiError && e.kind === 'notConfigured');
    assert.throws(() => client('production', { baseUrl: 'ftp://x/api/v1' }), (e: unknown) => e instanceof ApiError && e.kind === 'notConfigured');
  });

  it('keeps the partial answer when the stream fails in the middle', async () => {
    emulator().injectFault('production', { fault: 'reset-mid-stream' });
    const outcome = await drain(client().streamChat({ model: chatModel(), messages: HELLO }));
    assert.ok(outcome.text.length > 0, 'partial text kept');
    assert.ok(outcome.error instanceof ApiError);
    assert.equal(outcome.error.kind, 'network');
    assert.equal(outcome.error.requestId, outcome.meta?.requestId, 'the request id survives into the error');
  });
});
