import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { importKeysFromEnvironment, setApiKey } from '../../../src/host/account/apiKeyCommands';
import type { RecordedRequest } from '../../harness/recordingServer';
import { RECORDED_PATH } from '../../harness/recordingServer';
import { waitFor } from '../../harness/wait';
import { useEmulatorSuite } from '../support/emulatorSetup';
import { extensionLogText } from '../support/logs';
import { HOSTILE_WORKSPACE, RECORDER_ENV } from '../tags';

/** What the server named by the workspace's settings received so far (asked by the test, never by the extension). */
async function recorded(): Promise<RecordedRequest[]> {
  const origin = process.env[RECORDER_ENV];
  if (!origin) throw new Error(`${RECORDER_ENV} is not set: this window must be opened by the integration launcher`);
  return (await (await fetch(origin + RECORDED_PATH)).json()) as RecordedRequest[];
}

/**
 * Issue 9, item 1: the window's folder has a `.vscode/settings.json` that points "production" and a
 * new active "attacker" environment at a recording server (test/harness/recordingServer.ts).
 */
describe(`A workspace whose settings point environments elsewhere ${HOSTILE_WORKSPACE}`, () => {
  const { services, emulator } = useEmulatorSuite();

  it('tells the user once which settings were ignored and why, and logs it', async () => {
    const guard = services().workspaceGuard;
    const found = await guard.check();
    assert.deepEqual(found.map((entry) => [entry.setting, entry.source]), [
      ['inference.environments', '.vscode/settings.json'],
      ['inference.activeEnvironment', '.vscode/settings.json'],
    ]);
    assert.equal(guard.notices.length, 1, `one notice, however often it is checked: ${JSON.stringify(guard.notices)}`);
    const [notice] = guard.notices;
    assert.match(notice, /"inference\.environments" and "inference\.activeEnvironment"/);
    assert.match(notice, /ignored/);
    assert.match(notice, /never sends an API key to an address a workspace names/);
    const log = await waitFor('the log line', () => {
      const text = extensionLogText(services().context);
      return text.includes('Ignored "inference.activeEnvironment" from .vscode/settings.json') ? text : undefined;
    }, { timeoutMs: 10_000, intervalMs: 100 });
    assert.match(log, /Ignored "inference\.environments" from \.vscode\/settings\.json: where the API key is sent comes only from your user settings/);
  });

  it('uses only the user\'s environments: the workspace cannot add, redirect or activate one', () => {
    const names = services().environments.all().map((env) => `${env.name} ${env.baseUrl}`);
    assert.deepEqual(names, [
      `production ${emulator().environments.production.baseUrl}`,
      `preview ${emulator().environments.preview.baseUrl}`,
    ]);
    assert.equal(services().environments.active().name, 'production');
  });

  it('sends no key to the server the workspace names, on any path a key takes', async () => {
    const keys = emulator().keys;
    // Set API Key: a freshly typed key is verified where the user's settings say.
    assert.equal(await setApiKey(services(), undefined, keys.production.full), true);
    // Automation: a variable for the workspace's environment is not imported.
    const imported = await importKeysFromEnvironment(services(), { INFERENCE_API_KEY_ATTACKER: keys.production.full, INFERENCE_API_KEY_PREVIEW: keys.preview.full });
    assert.deepEqual(imported, ['preview']);
    assert.equal(await services().keys.get('attacker'), undefined);
    await assert.rejects(services().api.client('attacker'), /no environment named "attacker"/);
    // Everyday calls.
    await services().models.list('chat', undefined, { refresh: true });
    await vscode.commands.executeCommand('inference.refreshAccount');
    const client = await services().api.client(undefined, undefined, 'chat');
    await client.chat({ model: emulator().environments.production.chatModels[0], messages: [{ role: 'user', content: 'hi' }] });
    await services().environments.activate('preview');
    await services().models.list('chat', undefined, { refresh: true });
    await services().environments.activate('production');

    assert.ok(emulator().requests.filter((request) => request.env === 'production').length >= 4, 'the calls went to the user\'s production');
    assert.deepEqual(await recorded(), [], 'the workspace-named server received nothing at all');
  });
});
