import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { ApiError } from '../../../src/core/api/errors';
import { InferenceClient } from '../../../src/core/api/client';
import { createUndiciTransport } from '../../../src/core/api/undiciTransport';
import { waitFor } from '../../harness/wait';
import { drain, HELLO, tunnelConnections, useEmulator } from './support';

describe('InferenceClient streaming faults', () => {
  const { emulator, client } = useEmulator();
  const request = () => ({ model: emulator().environments.production.chatModels[0], messages: HELLO });

  let reference = '';
  beforeEach(async () => {
    reference ||= (await client().chat(request())).text;
  });

  it('combines tiny writes with CRLF and comments without losing a character', async () => {
    const outcome = await drain(client().streamChat(request()));
    emulator().reset();
    emulator().injectFault('production', { fault: 'tiny-writes' });
    emulator().injectFault('production', { fault: 'crlf' });
    emulator().injectFault('production', { fault: 'keepalive-comments' });
    const hostile = await drain(client().streamChat(request()));
    assert.equal(hostile.text, outcome.text);
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

  it('aborting a non-streaming call cancels it', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(client().chat(request(), { signal: controller.signal }), (e: unknown) => e instanceof ApiError && e.kind === 'cancelled');
  });
});

describe('InferenceClient through a proxy', () => {
  const { emulator } = useEmulator();
  let proxy: http.Server;
  const tunnels: string[] = [];

  before(async () => {
    // A minimal CONNECT proxy, enough to prove the traffic goes through it.
    proxy = http.createServer((_req, res) => res.writeHead(405).end());
    tunnelConnections(proxy, (target) => tunnels.push(target));
    proxy.listen(0, '127.0.0.1');
    await once(proxy, 'listening');
  });
  after(() => {
    proxy.closeAllConnections();
    proxy.close();
  });

  // 0.0.0.0 reaches this machine but is not loopback by name, so the proxy applies to it (loopback
  // never goes through a proxy: loopbackProxy.test.ts). It must be https, so the service's
  // certificate is checked: the emulator speaks plain http, and the request fails there, after the proxy.
  const clientVia = (noProxy: string) => {
    const { port } = proxy.address() as net.AddressInfo;
    const transport = createUndiciTransport({ proxy: `http://127.0.0.1:${port}`, noProxy }, {});
    const { port: servicePort } = new URL(emulator().environments.production.baseUrl);
    return { transport, client: new InferenceClient({ baseUrl: `https://0.0.0.0:${servicePort}/api/v1`, apiKey: emulator().keys.production.full, transport }) };
  };

  it('sends requests to a host that is not loopback through the configured proxy', async () => {
    const { transport, client } = clientVia('');
    try {
      const before = tunnels.length;
      const error = await client.listModels().catch((e: unknown) => e);
      assert.ok(error instanceof ApiError && error.kind === 'network', String(error));
      assert.deepEqual(tunnels.slice(before), [`0.0.0.0:${new URL(emulator().environments.production.baseUrl).port}`]);
    } finally {
      await transport.close();
    }
  });

  it('bypasses the proxy for hosts in NO_PROXY', async () => {
    const { transport, client } = clientVia('0.0.0.0');
    try {
      const before = tunnels.length;
      const error = await client.listModels().catch((e: unknown) => e);
      assert.ok(error instanceof ApiError && error.kind === 'network', String(error));
      assert.equal(tunnels.length, before);
    } finally {
      await transport.close();
    }
  });
});
