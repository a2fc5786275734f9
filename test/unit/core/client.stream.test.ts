import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { ApiError } from '../../../src/core/errors';
import { createDispatcher } from '../../../src/core/http';
import type { FaultName } from '../../emulator';
import { waitFor } from '../../harness/wait';
import { drain, HELLO, tunnelConnections, useEmulator } from './support';

describe('InferenceClient streaming faults', () => {
  const { emulator, client } = useEmulator();
  const request = () => ({ model: emulator().environments.production.chatModels[0], messages: HELLO });

  let reference = '';
  beforeEach(async () => {
    reference ||= (await client().chat(request())).text;
  });

  const tolerated: FaultName[] = ['keepalive-comments', 'crlf', 'tiny-writes', 'no-done', 'usage-chunk'];
  for (const fault of tolerated) {
    it(`yields the exact text under the ${fault} fault`, async () => {
      emulator().injectFault('production', { fault });
      const outcome = await drain(client().streamChat(request()));
      assert.equal(outcome.error, undefined);
      assert.equal(outcome.text, reference, 'no lost, doubled or mangled characters (é, 漢字, 🙂 included)');
      assert.equal(outcome.events.at(-1)?.type, 'end');
      assert.deepEqual(emulator().requests.at(-1)?.faults, [fault]);
    });
  }

  it('combines tiny writes with CRLF and comments without losing a character', async () => {
    const outcome = await drain(client().streamChat(request()));
    emulator().reset();
    emulator().injectFault('production', { fault: 'tiny-writes' });
    emulator().injectFault('production', { fault: 'crlf' });
    emulator().injectFault('production', { fault: 'keepalive-comments' });
    const hostile = await drain(client().streamChat(request()));
    assert.equal(hostile.text, outcome.text);
  });

  it('surfaces an error object inside the stream as streamError after the partial text', async () => {
    emulator().injectFault('production', { fault: 'error-mid-stream' });
    const outcome = await drain(client().streamChat(request()));
    assert.ok(outcome.text.length > 0);
    assert.ok(reference.startsWith(outcome.text));
    assert.ok(outcome.error instanceof ApiError);
    assert.equal(outcome.error.kind, 'streamError');
    assert.ok(outcome.error.serviceMessage);
  });

  it('surfaces a chunk that is not JSON as malformedResponse after the partial text', async () => {
    emulator().injectFault('production', { fault: 'malformed-chunk' });
    const outcome = await drain(client().streamChat(request()));
    assert.ok(outcome.text.length > 0);
    assert.ok(outcome.error instanceof ApiError);
    assert.equal(outcome.error.kind, 'malformedResponse');
  });

  it('receives a 1 MB stream completely', async () => {
    emulator().injectFault('production', { fault: 'large-stream' });
    const outcome = await drain(client().streamChat(request()));
    assert.equal(outcome.error, undefined);
    assert.ok(Buffer.byteLength(outcome.text) >= 1_000_000, `got ${Buffer.byteLength(outcome.text)} bytes`);
  });
});

describe('InferenceClient cancellation', () => {
  const { emulator, client } = useEmulator({ tokensPerSecond: 60 });
  const request = () => ({ model: emulator().environments.production.chatModels[0], messages: HELLO });

  it('aborting mid-stream closes the connection within 100 ms, keeps the partial text, and spends less', async () => {
    const controller = new AbortController();
    let text = '';
    let abortedAt = 0;
    let caught: unknown;
    try {
      for await (const event of client().streamChat(request(), { signal: controller.signal })) {
        if (event.type === 'delta') text += event.text;
        if (text.length > 20 && abortedAt === 0) {
          abortedAt = Date.now();
          controller.abort();
        }
      }
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof ApiError);
    assert.equal(caught.kind, 'cancelled');
    assert.ok(text.length > 20, 'partial text kept');
    const record = emulator().requests.at(-1);
    const closedAt = await waitFor('the client to close the connection', () => emulator().requests.at(-1)?.clientClosedAt, { timeoutMs: 1000, intervalMs: 2 });
    assert.ok(closedAt - abortedAt <= 100, `server saw the close ${closedAt - abortedAt} ms after abort`);
    const spentAborted = 1000 - emulator().balance('production');

    emulator().reset();
    await drain(client().streamChat(request()));
    const spentComplete = 1000 - emulator().balance('production');
    assert.ok(spentAborted < spentComplete, `aborted ${spentAborted} < complete ${spentComplete}`);
    assert.ok(record);
  });

  it('breaking out of the loop early also closes the connection', async () => {
    for await (const event of client().streamChat(request())) {
      if (event.type === 'delta') break;
    }
    const closedAt = await waitFor('the client to close the connection', () => emulator().requests.at(-1)?.clientClosedAt, { timeoutMs: 1000, intervalMs: 2 });
    assert.ok(closedAt > 0);
  });

  it('an already aborted signal sends nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(client().chat(request(), { signal: controller.signal }), (e: unknown) => e instanceof ApiError && e.kind === 'cancelled');
    assert.equal(emulator().requests.length, 0);
  });

  it('aborting a non-streaming call cancels it', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(client().chat(request(), { signal: controller.signal }), (e: unknown) => e instanceof ApiError && e.kind === 'cancelled');
  });
});

describe('InferenceClient through a proxy', () => {
  const { emulator, client } = useEmulator();
  let proxy: http.Server;
  let tunnels = 0;

  before(async () => {
    // A minimal CONNECT proxy, enough to prove the traffic goes through it.
    proxy = http.createServer((_req, res) => res.writeHead(405).end());
    tunnelConnections(proxy, () => tunnels++);
    proxy.listen(0, '127.0.0.1');
    await once(proxy, 'listening');
  });
  after(() => {
    proxy.closeAllConnections();
    proxy.close();
  });

  it('sends requests through the configured proxy', async () => {
    const { port } = proxy.address() as net.AddressInfo;
    const dispatcher = await createDispatcher({ proxy: `http://127.0.0.1:${port}`, noProxy: '' });
    try {
      const before = tunnels;
      const list = await client('production', { dispatcher }).listModels();
      assert.ok(list.models.length > 0);
      assert.equal(tunnels, before + 1);
    } finally {
      await dispatcher.close();
    }
  });

  it('bypasses the proxy for hosts in NO_PROXY', async () => {
    const { port } = proxy.address() as net.AddressInfo;
    const dispatcher = await createDispatcher({ proxy: `http://127.0.0.1:${port}`, noProxy: '127.0.0.1' });
    try {
      const before = tunnels;
      await client('production', { dispatcher }).listModels();
      assert.equal(tunnels, before);
    } finally {
      await dispatcher.close();
    }
    assert.ok(emulator().requests.length > 0);
  });
});
