import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from '../../harness/wait';
import { importKeysFromEnvironment, setApiKey } from '../../../src/host/account/apiKeyCommands';
import { useEmulatorSuite } from '../support/emulatorSetup';

describe('Keys and environments (real extension host, emulator back end)', () => {
  const { fixture, services, emulator } = useEmulatorSuite();
  const keys = () => emulator().keys;

  afterEach(async () => {
    await services().keys.clear('production');
    await services().keys.clear('preview');
    await services().environments.activate('production');
  });

  it('verifies a key with GET /models before saving it, per environment', async () => {
    assert.equal(await setApiKey(services(), 'production', keys().production.full), true);
    assert.equal(await setApiKey(services(), 'preview', ` ${keys().preview.full}\n`), true, 'pasted white space is trimmed');
    assert.equal(await services().keys.get('production'), keys().production.full);
    assert.equal(await services().keys.get('preview'), keys().preview.full);
    const checks = emulator().requests.filter((r) => r.path.startsWith('/api/v1/models'));
    assert.deepEqual(checks.map((r) => [r.env, r.status]), [['production', 200], ['preview', 200]]);
    assert.deepEqual(services().models.cached('preview', 'chat')?.ids, emulator().environments.preview.chatModels, 'the check also fills the model cache');
  });

  it('keeps the previous key when the service refuses the new one (401)', async () => {
    await setApiKey(services(), 'production', keys().production.full);
    for (const refused of [keys().production.expired, keys().production.revoked, keys().preview.full]) {
      assert.equal(await setApiKey(services(), 'production', refused), false);
    }
    assert.equal(await services().keys.get('production'), keys().production.full);
  });

  it('refuses a key without the environment prefix locally, without a request', async () => {
    assert.equal(await setApiKey(services(), 'production', 'not-a-service-key'), false);
    assert.equal(await services().keys.get('production'), undefined);
    assert.equal(emulator().requests.length, 0);
  });

  it('clears a key for one environment only, and follows SecretStorage changes', async () => {
    await services().keys.set('production', keys().production.full);
    await services().keys.set('preview', keys().preview.full);
    const changed = new Promise<string>((resolve) => {
      const subscription = services().keys.onDidChange((env) => {
        subscription.dispose();
        resolve(env);
      });
    });
    await services().keys.clear('production');
    assert.equal(await changed, 'production');
    assert.equal(await services().keys.get('production'), undefined);
    assert.equal(await services().keys.get('preview'), keys().preview.full);
  });

  it('switches environment: clients, model list and status bar follow', async () => {
    await services().keys.set('preview', keys().preview.full);
    await services().environments.activate('preview');
    assert.equal(services().environments.active().name, 'preview');
    assert.equal(vscode.workspace.getConfiguration().get('inference.activeEnvironment'), 'preview');
    const client = await services().api.client();
    assert.equal(client.baseUrl, emulator().environments.preview.baseUrl);
    assert.deepEqual(await services().models.list('chat', undefined, { refresh: true }), emulator().environments.preview.chatModels);
    await waitFor('status bar shows preview', () => fixture().api.statusBar.snapshot().model.includes('preview') || undefined, { timeoutMs: 3000, intervalMs: 20 });
    await assert.rejects(services().environments.activate('nowhere'), /no environment named "nowhere"/);
  });

  it('imports INFERENCE_API_KEY_<ENV> into SecretStorage once, refusing malformed ones', async () => {
    const imported = await importKeysFromEnvironment(services(), {
      INFERENCE_API_KEY_PREVIEW: keys().preview.full,
      INFERENCE_API_KEY_PRODUCTION: 'wrong-prefix',
    });
    assert.deepEqual(imported, ['preview']);
    assert.equal(await services().keys.get('preview'), keys().preview.full);
    assert.equal(await services().keys.get('production'), undefined);
    assert.deepEqual(await importKeysFromEnvironment(services(), { INFERENCE_API_KEY_PREVIEW: keys().preview.full }), [], 'already imported');
  });

  it('says what is missing: no key, and no base URL', async () => {
    await assert.rejects(services().api.client('production'), (e: Error & { kind?: string }) => e.kind === 'missingKey' && /Set API Key/.test(e.message));
    const config = vscode.workspace.getConfiguration();
    const environments = config.get<Record<string, unknown>>('inference.environments') ?? {};
    await config.update('inference.environments', { ...environments, empty: { baseUrl: '' } }, vscode.ConfigurationTarget.Global);
    try {
      await services().keys.set('empty', keys().production.full);
      await assert.rejects(services().api.client('empty'), (e: Error & { kind?: string }) => e.kind === 'notConfigured');
    } finally {
      await services().keys.clear('empty');
      await config.update('inference.environments', environments, vscode.ConfigurationTarget.Global);
    }
  });
});
