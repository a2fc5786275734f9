import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hostileWorkspaceSettings, startRecordingServer, type RecordingServer } from '../harness/recordingServer';
import { waitFor } from '../harness/wait';
import { useWorkbench } from './fixture';

/**
 * Issue 9 as a user sees it: a clean first run (no phantom environments), the guided Add Environment,
 * and a cloned repository whose settings try to send the key elsewhere.
 */
describe('environments UI: first run, Add Environment, hostile workspace settings', () => {
  let recorder: RecordingServer | undefined;
  before(async () => {
    recorder = await startRecordingServer();
  });
  const ui = useWorkbench({
    configureEnvironments: false,
    keys: () => null,
    workspaceFiles: () => ({ '.vscode/settings.json': hostileWorkspaceSettings(recorder?.origin ?? 'http://127.0.0.1:9') }),
  });
  after(async () => {
    await recorder?.close();
  });

  const userSettingsFile = () => path.join(ui.server.userDataDir, 'User', 'settings.json');
  const matching = async (pattern: RegExp) => (await ui.notifications()).filter((message) => pattern.test(message)).length;

  it('says once that the workspace\'s environment settings were ignored, and offers Add Environment', async () => {
    const ignored = /This workspace sets "inference\.environments" and "inference\.activeEnvironment" \(\.vscode\/settings\.json\)\. It was ignored: .*never sends an API key to an address a workspace names/;
    await ui.waitForNotification(ignored, 30_000);
    await ui.waitForNotification(/add the service's address and your API key/);
    await ui.statusBarItem(/Add Inference Environment/).waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await matching(ignored), 1);
    await ui.screenshot('01-workspace-settings-ignored');
    assert.deepEqual(recorder?.requests, [], 'the server the workspace names received nothing');
  });

  it('adds an environment step by step: name, checked address, key prefix, verified key', async () => {
    const { emulator } = ui;
    await ui.clickNotificationAction(/add the service's address and your API key/, 'Add Environment');
    await ui.typeInInput('local', { submit: false });
    await ui.screenshot('02-add-environment-name');
    await ui.typeInInput('local');
    await ui.typeInInput('http://example.com/api/v1', { submit: false });
    await waitFor('the address check', async () => /plain http to another machine/.test(await ui.quickInputMessage()), { timeoutMs: 10_000, intervalMs: 100 });
    await ui.screenshot('03-add-environment-address-refused');
    await ui.typeInInput(emulator.environments.production.baseUrl);
    // Step 3, alternate host names of the same service, is optional: left empty.
    await waitFor('the alternates step', async () => /alternate base URLs/.test(await ui.page.locator('.quick-input-widget .quick-input-title').innerText()), { timeoutMs: 10_000, intervalMs: 100 });
    await ui.screenshot('04-add-environment-alternates');
    await ui.typeInInput('');
    await ui.typeInInput(emulator.keyPrefix, { submit: false });
    await ui.screenshot('05-add-environment-key-prefix');
    await ui.typeInInput(emulator.keyPrefix);
    await ui.typeInInput(emulator.keys.production.full);
    await ui.waitForNotification(/API key saved for local: \d+ chat models available/, 20_000);
    await ui.statusBarItem(/local · pick a chat model/).waitFor({ state: 'visible', timeout: 10_000 });
    await ui.screenshot('06-environment-added');
    const settings = JSON.parse(fs.readFileSync(userSettingsFile(), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(settings['inference.environments'], { local: { baseUrl: emulator.environments.production.baseUrl, keyPrefix: emulator.keyPrefix } });
    assert.equal(settings['inference.activeEnvironment'], 'local');
    assert.deepEqual(emulator.requests.map((request) => request.keyLabel ?? 'no key'), ['no key', 'full'], 'the address is probed without a key');
    assert.equal(fs.readFileSync(path.join(ui.workspace, '.vscode', 'settings.json'), 'utf8'), hostileWorkspaceSettings(recorder?.origin ?? ''), 'the workspace settings are untouched');
    await ui.clearNotifications();
  });
  // The modal before a key goes to a changed address, and a bad setting reported once, are proven in
  // the real extension host (test/integration/account/trustBoundaries and settings tests): settings
  // written to disk mid-run did not reach this browser workbench reliably.
});
