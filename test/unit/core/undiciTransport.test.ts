/** The undici adapter over real sockets: what a failover transport would learn from a failed send. */
import assert from 'node:assert/strict';
import net from 'node:net';
import { TransportFailure, type TransportRequest } from '../../../src/core/api/transport';
import { createUndiciTransport } from '../../../src/core/api/undiciTransport';

const BODY = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(1000) }] });

/** A server that reads the whole request, then does `then` with the socket (never a full response). */
async function server(then: (socket: net.Socket) => void): Promise<{ url: string; received: () => string; close: () => Promise<void> }> {
  let received = '';
  const sockets = new Set<net.Socket>();
  const instance = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (received.endsWith(BODY)) then(socket);
    });
  });
  await new Promise<void>((resolve) => instance.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(instance.address() as net.AddressInfo).port}/api/v1/chat/completions`,
    received: () => received,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => instance.close(() => resolve()));
    },
  };
}

const post = (url: string): TransportRequest => ({ url, method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY, timeouts: { responseMs: 5000, idleMs: 5000 } });

async function failedSend(request: TransportRequest): Promise<TransportFailure> {
  const transport = createUndiciTransport({ timeouts: { connectMs: 2000 } }, {});
  try {
    const error = await transport.send(request).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof TransportFailure, String(error));
    return error;
  } finally {
    await transport.close();
  }
}

describe('the undici transport tells how far a failed request got', () => {
  it('nothing sent when the connection is refused', async () => {
    const failure = await failedSend(post('http://127.0.0.1:9/api/v1/chat/completions'));
    assert.deepEqual(failure.progress, { requestStarted: false, bodyBytesSent: 0, responseStarted: false });
    assert.equal((failure.cause as { code?: string }).code, 'ECONNREFUSED', 'the cause is kept for the error the user sees');
  });

  it('the whole body sent, and no response, when the host closes after reading the request', async () => {
    const host = await server((socket) => socket.destroy());
    try {
      const failure = await failedSend(post(host.url));
      assert.deepEqual(failure.progress, { requestStarted: true, bodyBytesSent: Buffer.byteLength(BODY), responseStarted: false });
      assert.ok(host.received().endsWith(BODY));
    } finally {
      await host.close();
    }
  });

  it('a response begun when the host fails part-way through its headers', async () => {
    const host = await server((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-type: text/event-str'));
    try {
      const failure = await failedSend(post(host.url));
      assert.equal(failure.progress.requestStarted, true);
      assert.equal(failure.progress.responseStarted, true);
    } finally {
      await host.close();
    }
  });
});
