import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { isApiError } from '../../../src/core/api/errors';
import { setApiKey } from '../../../src/host/account/apiKeyCommands';
import { confirmNewOriginModal, type OriginConfirmation } from '../../../src/host/shared/apiAccess';
import { useEmulatorSuite } from '../support/emulatorSetup';

/**
 * Issue 9, item 1: a stored key remembers the origin it was verified against, and is not sent to
 * another one until the user confirms it. Production and preview of the emulator listen on
 * different ports, so pointing production at preview's address is a change of origin.
 */
describe('A key goes only to the origin it was verified against', () => {
  const { services, emulator } = useEmulatorSuite();
  const origin = (url: string) => new URL(url).origin;
  const asked: string[] = [];
  let answer = false;

  const pointProductionAt = async (baseUrl: string) => {
    const config = vscode.workspace.getConfiguration();
    await config.update('inference.environments', {
      production: { baseUrl, keyPrefix: emulator().keyPrefix },
      preview: { baseUrl: emulator().environments.preview.baseUrl, keyPrefix: emulator().keyPrefix },
    }, vscode.ConfigurationTarget.Global);
  };

  before(() => {
    services().api.confirmNewOrigin = async (env, from, to) => {
      asked.push(`${env.name}: ${from} -> ${to}`);
      return answer;
    };
  });

  after(async () => {
    services().api.confirmNewOrigin = confirmNewOriginModal satisfies OriginConfirmation;
    await pointProductionAt(emulator().environments.production.baseUrl);
  });

  it('records the origin when the key is verified, and asks before sending it to a new one', async () => {
    const productionOrigin = origin(emulator().environments.production.baseUrl);
    const previewOrigin = origin(emulator().environments.preview.baseUrl);
    assert.equal(await setApiKey(services(), 'production', emulator().keys.production.full), true);
    assert.deepEqual(await services().keys.origins('production'), [productionOrigin]);

    await pointProductionAt(emulator().environments.preview.baseUrl);
    emulator().reset();
    asked.length = 0;
    answer = false;
    // Three calls at once: one dialog, and none of them is sent.
    const results = await Promise.allSettled([1, 2, 3].map(() => services().models.list('chat', 'production', { refresh: true })));
    assert.deepEqual(asked, [`production: ${productionOrigin} -> ${previewOrigin}`]);
    for (const result of results) {
      assert.equal(result.status, 'rejected');
      const reason: unknown = result.status === 'rejected' ? result.reason : undefined;
      assert.ok(isApiError(reason) && reason.kind === 'notConfigured', String(reason));
      assert.match(reason.message, new RegExp(`verified with ${productionOrigin}; it was not sent to ${previewOrigin}`));
    }
    assert.equal(emulator().requests.length, 0, 'nothing was sent to the new origin');
    await assert.rejects(services().models.list('chat', 'production', { refresh: true }), /not sent/);
    assert.equal(asked.length, 1, 'a refused origin is not asked about again in this session');

    // The user changed the address on purpose: after confirming, the key goes there and the origin is remembered.
    await pointProductionAt(emulator().environments.preview.baseUrl + '/');
    answer = true;
    await services().models.list('chat', 'production', { refresh: true }).catch(() => undefined);
    assert.equal(asked.length, 2);
    assert.equal(emulator().requests.filter((request) => request.env === 'preview').length, 1, 'sent after the confirmation');
    assert.deepEqual(await services().keys.origins('production'), [previewOrigin]);
    await services().models.list('chat', 'production', { refresh: true }).catch(() => undefined);
    assert.equal(asked.length, 2, 'a confirmed origin is not asked about again');
  });

  it('binds a key to every host of its environment, and asks before sending it to an alternate added later', async () => {
    await pointProductionAt(emulator().environments.production.baseUrl);
    assert.equal(await setApiKey(services(), 'production', emulator().keys.production.full), true);
    const productionOrigin = origin(emulator().environments.production.baseUrl);
    const previewOrigin = origin(emulator().environments.preview.baseUrl);
    await vscode.workspace.getConfiguration().update('inference.environments', {
      production: { baseUrl: emulator().environments.production.baseUrl, baseUrls: [emulator().environments.preview.baseUrl], keyPrefix: emulator().keyPrefix },
    }, vscode.ConfigurationTarget.Global);
    emulator().reset();
    asked.length = 0;
    answer = false;
    await assert.rejects(services().models.list('chat', 'production', { refresh: true }), /not sent/);
    assert.deepEqual(asked, [`production: ${productionOrigin} -> ${previewOrigin}`]);
    assert.equal(emulator().requests.length, 0, 'not even to the host the key was verified with: the environment as a whole is not confirmed');
    answer = true;
    await vscode.workspace.getConfiguration().update('inference.environments', {
      production: { baseUrl: emulator().environments.production.baseUrl, baseUrls: [`${emulator().environments.preview.baseUrl}/`], keyPrefix: emulator().keyPrefix },
    }, vscode.ConfigurationTarget.Global);
    await services().models.list('chat', 'production', { refresh: true }).catch(() => undefined);
    assert.deepEqual(await services().keys.origins('production'), [productionOrigin, previewOrigin]);
  });

  it('binds a key stored before origins were recorded to its current origin, without asking', async () => {
    await pointProductionAt(emulator().environments.production.baseUrl);
    await services().keys.set('production', emulator().keys.production.full);
    assert.equal(await services().keys.origins('production'), undefined);
    asked.length = 0;
    await services().models.list('chat', 'production', { refresh: true });
    assert.deepEqual(await services().keys.origins('production'), [origin(emulator().environments.production.baseUrl)]);
    assert.deepEqual(asked, []);
  });
});
