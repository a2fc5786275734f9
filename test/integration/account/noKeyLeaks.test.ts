import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { setApiKey } from '../../../src/host/apiKeyCommands';
import { useConfiguredEmulator } from '../support/emulatorSetup';
import { filesUnder } from '../support/files';

describe('No API key in settings, state, workspace files or logs after a full session', () => {
  const fixture = useConfiguredEmulator();

  it('finds none of the keys used anywhere the extension writes', async function () {
    this.timeout(60_000);
    const { api, emulator } = fixture();
    const { services } = api;
    const secrets = [emulator.keys.production.full, emulator.keys.preview.full, emulator.keys.production.expired];

    // A session: keys set and refused, models, chat, a stream, an image, errors presented, commands run.
    assert.equal(await setApiKey(services, 'production', emulator.keys.production.full), true);
    assert.equal(await setApiKey(services, 'preview', emulator.keys.preview.full), true);
    assert.equal(await setApiKey(services, 'production', emulator.keys.production.expired), false);
    const client = await services.api.client('production');
    const model = emulator.environments.production.chatModels[0];
    await client.chat({ model, messages: [{ role: 'user', content: 'hello' }] });
    for await (const event of client.streamChat({ model, messages: [{ role: 'user', content: 'stream' }] })) void event;
    await client.generateImage({ model: 'auto', prompt: 'a cat' });
    emulator.injectFault('production', { fault: 'http-401' });
    await services.errors.present(await client.listModels().catch((e: unknown) => e), { source: 'leak test' });
    await vscode.commands.executeCommand('inference.refreshAccount');
    await services.environments.activate('preview');
    await services.environments.activate('production');
    await new Promise((resolve) => setTimeout(resolve, 1500)); // let the log channel flush to disk

    const places: string[] = [];
    const texts: Array<[string, string]> = [];
    const userDir = path.resolve(services.context.globalStorageUri.fsPath, '..', '..');
    const windowLogs = path.resolve(services.context.logUri.fsPath, '..', '..');
    for (const root of [windowLogs, userDir, ...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath)]) {
      for (const file of filesUnder(root)) {
        places.push(file);
        texts.push([file, fs.readFileSync(file, 'latin1')]);
      }
    }
    const state = (memento: vscode.Memento) => JSON.stringify(memento.keys().map((k) => [k, memento.get(k)]));
    texts.push(['globalState', state(services.context.globalState)], ['workspaceState', state(services.context.workspaceState)]);
    texts.push(['settings', JSON.stringify(vscode.workspace.getConfiguration('inference').inspect('environments'))]);

    assert.ok(places.some((p) => p.endsWith('.log')), `log files were scanned (${windowLogs})`);
    assert.ok(texts.some(([, text]) => text.includes(emulator.requests.at(-1)?.id ?? '???') || text.includes('request ')), 'the logs did record the session');
    for (const [where, text] of texts) {
      for (const secret of secrets) {
        assert.equal(text.includes(secret), false, `a key was found in ${where}`);
      }
    }
  });
});
