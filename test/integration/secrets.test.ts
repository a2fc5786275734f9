import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ApiKeyStore } from '../../src/host/shared/apiKeyStore';
import { TEST_SUPPORT_ID, type TestSupportApi } from './support/extension';

/** The support extension's real SecretStorage (see support/extension.ts). */
async function realSecretStorage(): Promise<vscode.SecretStorage> {
  const support = vscode.extensions.getExtension<TestSupportApi>(TEST_SUPPORT_ID);
  if (!support) throw new Error(`${TEST_SUPPORT_ID} is not loaded; the launcher passes it as a development path`);
  return (await support.activate()).secrets;
}

function nextChange(store: ApiKeyStore): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('onDidChange did not fire within 5 s')), 5000);
    const subscription = store.onDidChange((env) => {
      clearTimeout(timer);
      subscription.dispose();
      resolve(env);
    });
  });
}

describe('API keys in SecretStorage', () => {
  let store: ApiKeyStore;

  before(async () => {
    store = new ApiKeyStore(await realSecretStorage());
  });

  after(async () => {
    await store.clear('production');
    await store.clear('preview');
    store.dispose();
  });

  it('round-trips a key per environment, each independent of the other', async () => {
    await store.set('production', 'prod-key-1');
    await store.set('preview', 'preview-key-1');
    assert.equal(await store.get('production'), 'prod-key-1');
    assert.equal(await store.get('preview'), 'preview-key-1');

    await store.clear('production');
    assert.equal(await store.get('production'), undefined);
    assert.equal(await store.get('preview'), 'preview-key-1', 'clearing production must not touch preview');
  });

  it('reports which environment changed', async () => {
    const changed = nextChange(store);
    await store.set('preview', 'preview-key-2');
    assert.equal(await changed, 'preview');
  });
});
