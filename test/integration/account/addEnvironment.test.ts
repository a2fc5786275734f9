import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { addEnvironment } from '../../../src/host/account/addEnvironment';
import { startEmulator, type Emulator } from '../../emulator';
import { waitFor } from '../../harness/wait';
import { extensionApi } from '../support/emulatorSetup';

/** Issue 9, item 10: no phantom environments, and a guided Add Environment that writes the user's settings. */
describe('A clean first run and Add Environment', () => {
  let emulator: Emulator;

  before(async () => {
    emulator = await startEmulator();
  });

  after(async () => {
    const config = vscode.workspace.getConfiguration();
    await config.update('inference.environments', undefined, vscode.ConfigurationTarget.Global);
    await config.update('inference.activeEnvironment', undefined, vscode.ConfigurationTarget.Global);
    const { services } = await extensionApi();
    await services.keys.clear('local');
    await emulator.close();
  });

  it('has no environment until the user adds one, and says how to add one', async () => {
    const { services, statusBar } = await extensionApi();
    assert.deepEqual(services.environments.all(), []);
    assert.deepEqual(vscode.workspace.getConfiguration().inspect('inference.environments')?.defaultValue, {});
    await assert.rejects(services.api.client(), /No environment is configured yet: run "Inference: Add Environment"/);
    await waitFor('status bar offers Add Environment', () => statusBar.snapshot().model.includes('Add Inference Environment') || undefined, { timeoutMs: 3000, intervalMs: 20 });
    assert.equal(services.settings.current().length, 0, 'a clean first run is not a settings problem');
  });

  it('refuses a base URL without /api/v1 or with plain http to another machine, sending nothing', async () => {
    const { services } = await extensionApi();
    for (const baseUrl of [new URL(emulator.environments.production.baseUrl).origin, 'http://example.com/api/v1']) {
      assert.equal(await addEnvironment(services, { name: 'local', baseUrl, keyPrefix: '', key: emulator.keys.production.full }), undefined);
    }
    assert.deepEqual(services.environments.all(), []);
    assert.equal(emulator.requests.length, 0);
  });

  it('refuses an address that does not answer like the service, before any key is asked for', async () => {
    const { services } = await extensionApi();
    const html = http.createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>'));
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    const seen: Array<string | undefined> = [];
    html.on('request', (req: http.IncomingMessage) => seen.push(req.headers.authorization));
    try {
      const { port } = html.address() as AddressInfo;
      assert.equal(await addEnvironment(services, { name: 'local', baseUrl: `http://127.0.0.1:${port}/api/v1`, keyPrefix: '', key: emulator.keys.production.full }), undefined);
      assert.deepEqual(seen, [undefined], 'one reachability check, without a key');
      assert.deepEqual(services.environments.all(), []);
    } finally {
      html.closeAllConnections();
      await new Promise((resolve) => html.close(resolve));
    }
  });

  it('adds an environment to the user settings, checks it answers, then verifies and stores the key', async () => {
    const { services, statusBar } = await extensionApi();
    const baseUrl = emulator.environments.production.baseUrl;
    assert.equal(await addEnvironment(services, { name: 'local', baseUrl: `${baseUrl}/`, keyPrefix: emulator.keyPrefix, key: emulator.keys.production.full }), 'local');
    const inspected = vscode.workspace.getConfiguration().inspect('inference.environments');
    assert.deepEqual(inspected?.globalValue, { local: { baseUrl, keyPrefix: emulator.keyPrefix } }, 'written to the user settings');
    assert.equal(inspected?.workspaceValue, undefined, 'never to the workspace');
    assert.equal(services.environments.active().name, 'local');
    assert.equal(await services.keys.get('local'), emulator.keys.production.full);
    assert.deepEqual(await services.keys.origins('local'), [new URL(baseUrl).origin]);
    // The probe (no key: the service's public catalog) and the key check.
    assert.deepEqual(emulator.requests.map((request) => request.keyLabel ?? 'no key'), ['no key', 'full']);
    assert.deepEqual(emulator.requests.map((request) => [request.path.split('?')[0], request.status]), [['/api/v1/models', 200], ['/api/v1/models', 200]]);
    await waitFor('status bar shows the new environment', () => statusBar.snapshot().model.includes('local') || undefined, { timeoutMs: 3000, intervalMs: 20 });
  });
});
