import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InferenceClient } from '../../../src/core/api/client';
import { ApiError } from '../../../src/core/api/errors';
import { createUndiciTransport } from '../../../src/core/api/undiciTransport';
import { tunnelConnections } from './support';

/** A throwaway self-signed certificate for 127.0.0.1, made for this run and deleted after it. */
function selfSignedCertificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'inference-tls-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const listen = (server: Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('http.proxyStrictSSL: false relaxes the proxy connection only, as in VS Code', () => {
  let tls: { key: Buffer; cert: Buffer };
  let service: https.Server;
  let servicePort = 0;
  let serviceHits = 0;
  let proxy: https.Server;
  let proxyPort = 0;
  const tunnels: string[] = [];

  before(async function () {
    try {
      tls = selfSignedCertificate();
    } catch {
      this.skip(); // no openssl on this machine: nothing to build a certificate with
    }
    service = https.createServer(tls, (_req, res) => {
      serviceHits += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[]}');
    });
    servicePort = await listen(service);
    // An HTTPS proxy with the same self-signed certificate.
    proxy = https.createServer(tls);
    tunnelConnections(proxy, (target) => tunnels.push(target));
    proxyPort = await listen(proxy);
  });
  after(async () => {
    if (service) await close(service);
    if (proxy) {
      proxy.closeAllConnections();
      await close(proxy);
    }
  });

  const clientWith = (baseUrl: string, settings: Parameters<typeof createUndiciTransport>[0]) =>
    new InferenceClient({ baseUrl, apiKey: 'svc-test-key-0123456789', transport: createUndiciTransport({ timeouts: { connectMs: 3000 }, ...settings }, {}) });
  // Not loopback by name (loopback never goes through a proxy), yet this machine.
  const serviceBehindProxy = () => `https://0.0.0.0:${servicePort}/api/v1`;

  it('still refuses a direct https connection to a service with an untrusted certificate', async () => {
    const client = clientWith(`https://127.0.0.1:${servicePort}/api/v1`, { strictSSL: false });
    const error = await client.listModels().catch((e: unknown) => e);
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.kind, 'network');
    assert.match(error.message, /SELF_SIGNED|CERT|UNABLE_TO_VERIFY/);
    assert.equal(serviceHits, 0, 'no request reached the service, so no key was sent');
  });

  it('still refuses it when the host bypasses the proxy (NO_PROXY)', async () => {
    const client = clientWith(serviceBehindProxy(), { strictSSL: false, proxy: `https://localhost:${proxyPort}`, noProxy: '0.0.0.0' });
    const before = tunnels.length;
    const error = await client.listModels().catch((e: unknown) => e);
    assert.ok(error instanceof ApiError && error.kind === 'network', String(error));
    assert.equal(serviceHits, 0);
    assert.equal(tunnels.length, before, 'it went direct');
  });

  it('accepts the proxy\'s untrusted certificate when strictSSL is false, and refuses it when true', async () => {
    const relaxed = clientWith(serviceBehindProxy(), { proxy: `https://localhost:${proxyPort}`, strictSSL: false, noProxy: '' });
    const before = tunnels.length;
    await relaxed.listModels().catch(() => undefined);
    await relaxed.close();
    assert.equal(tunnels.length, before + 1, 'the proxy was trusted and asked for a tunnel');
    const strict = clientWith(serviceBehindProxy(), { proxy: `https://localhost:${proxyPort}`, strictSSL: true, noProxy: '' });
    const error = await strict.listModels().catch((e: unknown) => e);
    await strict.close();
    assert.ok(error instanceof ApiError && error.kind === 'network', String(error));
    assert.match(error.message, /SELF_SIGNED|CERT|UNABLE_TO_VERIFY/);
    assert.equal(tunnels.length, before + 1, 'no tunnel through a proxy whose certificate was refused');
  });

  it('still verifies the service behind a relaxed proxy', async () => {
    const client = clientWith(serviceBehindProxy(), { strictSSL: false, proxy: `https://localhost:${proxyPort}`, noProxy: '' });
    const before = tunnels.length;
    const error = await client.listModels().catch((e: unknown) => e);
    assert.ok(error instanceof ApiError && error.kind === 'network', String(error));
    assert.equal(tunnels.length, before + 1, 'the tunnel was opened through the relaxed proxy');
    assert.equal(serviceHits, 0, 'but the service\'s certificate was refused');
  });
});
