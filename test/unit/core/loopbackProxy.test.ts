import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { InferenceClient } from '../../../src/core/api/client';
import { ApiError } from '../../../src/core/api/errors';
import { createUndiciTransport, type ConnectionSettings } from '../../../src/core/api/undiciTransport';

const KEY = 'svc-loopback-key-0123456789';

const listen = (server: net.Server, host: string) => new Promise<number>((resolve, reject) => {
  server.once('error', reject);
  server.listen(0, host, () => resolve((server.address() as net.AddressInfo).port));
});
const close = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * Plain http is allowed to loopback only because it never leaves the machine. Through a proxy it
 * would: undici tunnels http too, and the proxy would read `Authorization: Bearer <key>`.
 */
describe('loopback base URLs never go through a proxy', () => {
  /** A proxy that keeps every byte it is sent and refuses every request (a CONNECT included). */
  let proxy: net.Server;
  let proxyUrl = '';
  const received: Buffer[] = [];
  const sockets = new Set<net.Socket>();
  /** The service, on every loopback address this machine has. */
  let service: http.Server;
  let servicePort = 0;
  let ipv6 = true;
  const serviceSaw: (string | undefined)[] = [];

  before(async () => {
    proxy = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('data', (chunk) => {
        received.push(chunk);
        socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
      });
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    });
    proxyUrl = `http://127.0.0.1:${await listen(proxy, '127.0.0.1')}`;
    const handler: http.RequestListener = (req, res) => {
      serviceSaw.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[{"id":"m","object":"model"}]}');
    };
    service = http.createServer(handler);
    try {
      servicePort = await listen(service, '::');
    } catch {
      ipv6 = false; // no IPv6 on this machine: [::1] is left out
      service = http.createServer(handler);
      servicePort = await listen(service, '127.0.0.1');
    }
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all([close(proxy), close(service)]);
  });
  beforeEach(() => {
    received.length = 0;
    serviceSaw.length = 0;
  });

  const proxies: Array<[string, ConnectionSettings, NodeJS.ProcessEnv]> = [
    ['VS Code\'s http.proxy', { proxy: '' }, {}],
    ['HTTPS_PROXY', {}, {}],
    ['HTTP_PROXY', {}, {}],
  ];
  const configured = (name: string): [ConnectionSettings, NodeJS.ProcessEnv] => {
    if (name === 'HTTPS_PROXY') return [{ timeouts: { connectMs: 2000 } }, { HTTPS_PROXY: proxyUrl }];
    if (name === 'HTTP_PROXY') return [{ timeouts: { connectMs: 2000 } }, { HTTP_PROXY: proxyUrl }];
    return [{ proxy: proxyUrl, noProxy: '', timeouts: { connectMs: 2000 } }, {}];
  };

  for (const [name] of proxies) {
    it(`sends nothing to the proxy of ${name} for localhost, 127.0.0.0/8 and ::1, over http or https`, async () => {
      const hosts = ['localhost', '127.0.0.1', ...(ipv6 ? ['[::1]'] : [])];
      const [settings, env] = configured(name);
      const transport = createUndiciTransport(settings, env);
      try {
        for (const host of hosts) {
          const client = new InferenceClient({ baseUrl: `http://${host}:${servicePort}/api/v1`, apiKey: KEY, transport });
          const { models } = await client.listModels();
          assert.deepEqual(models.map((m) => m.id), ['m'], host);
          // https to loopback goes direct too (and fails here, at the TLS handshake with a plain-http server).
          const secure = new InferenceClient({ baseUrl: `https://${host}:${servicePort}/api/v1`, apiKey: KEY, transport });
          const error = await secure.listModels().then(() => undefined, (e: unknown) => e);
          assert.ok(error instanceof ApiError && error.kind === 'network', `${host}: ${String(error)}`);
        }
        // Another address of the loopback network: nothing listens there, but nothing may go to the proxy either.
        const elsewhere = new InferenceClient({ baseUrl: `http://127.0.0.2:${servicePort}/api/v1`, apiKey: KEY, transport });
        const error = await elsewhere.listModels().then(() => undefined, (e: unknown) => e);
        assert.ok(error === undefined || (error instanceof ApiError && error.kind === 'network'), String(error));
      } finally {
        await transport.close();
      }
      assert.equal(serviceSaw.length >= hosts.length, true, 'the service answered each directly');
      assert.equal(Buffer.concat(received).length, 0, `the proxy received: ${Buffer.concat(received).toString('latin1').slice(0, 200)}`);
    });
  }

  it('still sends a host that is not loopback through the proxy, tunnelled, with no key in what the proxy reads', async () => {
    const [settings, env] = configured('VS Code\'s http.proxy');
    const transport = createUndiciTransport(settings, env);
    // 0.0.0.0 is this machine but not loopback by name; https, as any address off loopback must be.
    const client = new InferenceClient({ baseUrl: `https://0.0.0.0:${servicePort}/api/v1`, apiKey: KEY, transport });
    try {
      // The recording proxy refuses the tunnel: a network error naming the proxy, not a cancellation.
      const error = await client.listModels().catch((e: unknown) => e);
      assert.ok(error instanceof ApiError && error.kind === 'network', String(error));
      assert.match(error.message, /The proxy refused to connect to the service \(HTTP 502\)/);
    } finally {
      await transport.close();
    }
    const seen = Buffer.concat(received).toString('latin1');
    assert.match(seen, new RegExp(`^CONNECT 0\\.0\\.0\\.0:${servicePort} HTTP/1\\.1`));
    assert.equal(seen.includes(KEY), false);
    assert.equal(serviceSaw.length, 0);
  });
});
