import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Services } from '../../../src/host/shared/services';
import { setApiKey } from '../../../src/host/account/apiKeyCommands';
import { issuedKeys } from '../../emulator/keys';
import { waitFor } from '../../harness/wait';
import { extensionApi, useConfiguredEmulator } from '../support/emulatorSetup';
import { filesUnder, logWritten } from '../support/files';
import { openNewChatPanel } from '../support/chatPanels';

/** Where a file belongs, for the printed figure. */
function placeOf(file: string, services: Services): string {
  if (file.includes(`${path.sep}chat-history${path.sep}`)) return 'chat history';
  if (file.includes(`${path.sep}usage${path.sep}`) && file.startsWith(services.context.globalStorageUri.fsPath)) return 'usage ledger';
  if (file.endsWith('.log')) return 'logs';
  if (path.basename(file) === 'settings.json') return 'settings';
  if ((vscode.workspace.workspaceFolders ?? []).some((f) => file.startsWith(f.uri.fsPath))) return 'workspace';
  return 'other user data';
}

interface KeyScan { found: string[]; files: number; bytes: number; byPlace: Map<string, number> }

/**
 * Every file the extension (or VS Code for it) may write a key into: the window logs, the user data
 * (settings, state, chat history, usage ledger, workspace storage) and the workspace folders, plus
 * the mementos and settings as the API reads them. A key is matched by its 32 random characters, so
 * a key without its prefix counts too.
 */
function scanForKeys(services: Services, keys: Iterable<string>): KeyScan {
  const bodies = [...new Set([...keys].map((key) => key.slice(-32)))];
  const userDir = path.resolve(services.context.globalStorageUri.fsPath, '..', '..');
  const windowLogs = path.resolve(services.context.logUri.fsPath, '..', '..');
  const roots = [windowLogs, userDir, ...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath)];
  const scan: KeyScan = { found: [], files: 0, bytes: 0, byPlace: new Map() };
  const check = (where: string, text: string) => {
    if (bodies.some((body) => text.includes(body))) scan.found.push(where);
  };
  for (const file of new Set(roots.flatMap((root) => filesUnder(root)))) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'latin1');
    } catch {
      continue; // Removed while scanning (a log rotated, a temporary file).
    }
    scan.files++;
    scan.bytes += text.length;
    const place = placeOf(file, services);
    scan.byPlace.set(place, (scan.byPlace.get(place) ?? 0) + 1);
    check(file, text);
  }
  const state = (memento: vscode.Memento) => JSON.stringify(memento.keys().map((k) => [k, memento.get(k)]));
  check('globalState', state(services.context.globalState));
  check('workspaceState', state(services.context.workspaceState));
  check('settings (inference)', JSON.stringify(vscode.workspace.getConfiguration('inference')));
  return scan;
}

function describeScan(scan: KeyScan, keys: number): string {
  const places = [...scan.byPlace].map(([place, files]) => `${place} ${files}`).join(', ');
  return `keys found in any file: ${scan.found.length} (${keys} keys looked for in ${scan.files} files, ${(scan.bytes / 1e6).toFixed(1)} MB: ${places})`;
}

/** Issue 12: after every suite of this window (root-level hook), no key any emulator issued is in any file. */
after(async function () {
  this.timeout(60_000);
  const keys = issuedKeys();
  if (keys.size === 0) return; // No test of this window started an emulator.
  const { services } = await extensionApi();
  const scan = scanForKeys(services, keys);
  console.log(`      after every test of this window, ${describeScan(scan, keys.size)}`);
  assert.deepEqual(scan.found, [], 'a key was found in these files');
});

describe('No API key in settings, state, chat history, usage ledger, workspace files or logs after a full session', () => {
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
    // A service that repeats the key in its errors, before and during a stream.
    emulator.injectFault('production', { fault: 'echo-authorization' });
    await services.errors.present(await client.listModels().catch((e: unknown) => e), { source: 'leak test' });
    await vscode.commands.executeCommand('inference.refreshAccount');
    // The chat panel: an answer (chat history, usage ledger), then one whose error echoes the key.
    await services.models.select('chat', model, 'production');
    const id = await openNewChatPanel(api.chat);
    const answered = async (count: number) => waitFor(`answer ${count}`, async () => {
      const messages = (await api.chat.conversation(id))?.messages ?? [];
      return messages.length === count * 2 && messages.at(-1)?.status !== 'streaming' ? messages.at(-1) : undefined;
    }, { timeoutMs: 20_000, intervalMs: 20 });
    await api.chat.request(id, 'send', { text: 'A question kept in the history' });
    assert.equal((await answered(1)).status, 'done');
    emulator.injectFault('production', { fault: 'echo-authorization-mid-stream' });
    await api.chat.request(id, 'send', { text: 'A question whose answer fails' });
    // Cut after some text: Interrupted, with the error that echoed the key on its card.
    const cut = await answered(2);
    assert.equal(cut.status, 'interrupted');
    assert.ok(cut.error, 'the card says what cut it');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor('the usage ledger on disk', () => fs.existsSync(path.join(services.context.globalStorageUri.fsPath, 'usage', 'ledger.jsonl')), { timeoutMs: 10_000, intervalMs: 50 });
    await services.environments.activate('preview');
    await services.environments.activate('production');
    await logWritten(services.context, services.log);

    // The scan can see a key where it looks: one planted in the extension's storage is found.
    const planted = path.join(services.context.globalStorageUri.fsPath, 'planted-key.txt');
    fs.mkdirSync(path.dirname(planted), { recursive: true });
    fs.writeFileSync(planted, `token=${emulator.keys.preview.full.slice(emulator.keyPrefix.length)}`);
    try {
      assert.deepEqual(scanForKeys(services, secrets).found, [planted], 'the planted key (without its prefix) is found');
    } finally {
      fs.rmSync(planted);
    }

    const scan = scanForKeys(services, secrets);
    console.log(`      ${describeScan(scan, secrets.length)}`);
    for (const place of ['logs', 'chat history', 'usage ledger', 'settings']) assert.ok(scan.byPlace.has(place), `${place} were scanned`);
    const logs = filesUnder(path.resolve(services.context.logUri.fsPath, '..', '..')).filter((f) => f.endsWith('.log')).map((f) => fs.readFileSync(f, 'utf8')).join('\n');
    assert.ok(logs.includes(emulator.requests.at(-1)?.id ?? '???') || logs.includes('request '), 'the logs did record the session');
    assert.deepEqual(scan.found, [], 'a key was found in these files');
  });
});
