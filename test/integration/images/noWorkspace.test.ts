import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from '../../harness/wait';
import type { ImageInputs } from '../../../src/core/images/imageJob';
import { generateImage, type GenerationOutcome } from '../../../src/host/images';
import { NO_WORKSPACE } from '../tags';
import { useConfiguredEmulator } from '../support/emulatorSetup';
import { MemoryFileSystem } from './memoryFileSystem';
import { assertEmulatorPng, assertSaved } from './support';

const INPUTS: ImageInputs = { prompt: 'no folder open', model: 'auto', seed: 21, responseFormat: 'b64_json' };

describe(`Generate Image without a workspace folder ${NO_WORKSPACE}`, () => {
  const fixture = useConfiguredEmulator();
  const services = () => fixture().api.services;
  const imageRequests = () => fixture().emulator.requests.filter((request) => request.path.endsWith('/images/generations'));
  let chosen: string;
  const disposables: vscode.Disposable[] = [];

  beforeEach(async () => {
    assert.equal(vscode.workspace.workspaceFolders, undefined, 'this window has no folder open');
    chosen = fs.mkdtempSync(path.join(os.tmpdir(), 'images-chosen-'));
    await services().keys.set('production', fixture().emulator.keys.production.full);
  });
  afterEach(async () => {
    fs.rmSync(chosen, { recursive: true, force: true });
    for (const disposable of disposables.splice(0)) disposable.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('asks where to save and saves into the chosen folder', async () => {
    let asked = 0;
    const outcome = assertSaved(await generateImage(services(), INPUTS, {
      chooseFolder: async () => {
        asked++;
        return vscode.Uri.file(chosen);
      },
    }));
    assert.equal(asked, 1);
    assert.deepEqual(fs.readdirSync(chosen).sort(), ['no-folder-open.png', 'no-folder-open.png.json']);
    assertEmulatorPng(outcome.images[0].image, { model: fixture().emulator.environments.production.imageModels[0], prompt: INPUTS.prompt, seed: 21, width: 512, height: 512 });
  });

  it('requests nothing when the user chooses no folder', async () => {
    const outcome = await generateImage(services(), INPUTS, { chooseFolder: async () => undefined });
    assert.equal(outcome.status, 'noFolder');
    assert.equal(imageRequests().length, 0);
  });

  it('refuses a read-only folder before any request', async () => {
    const readonly = new MemoryFileSystem(true);
    disposables.push(vscode.workspace.registerFileSystemProvider('inference-images-ro', readonly, { isReadonly: true }));
    // The registration reaches the extension host's file system info after a round trip to the window.
    await waitFor('the read-only scheme to be known', () => vscode.workspace.fs.isWritableFileSystem('inference-images-ro') === false || undefined, { timeoutMs: 5000, intervalMs: 20 });
    const outcome = await generateImage(services(), INPUTS, { chooseFolder: async () => vscode.Uri.parse('inference-images-ro:/photos') });
    assert.equal(outcome.status, 'refused');
    assert.match((outcome as Extract<GenerationOutcome, { status: 'refused' }>).reason, /read-only.*Nothing was generated or saved/s);
    assert.equal(imageRequests().length, 0);
    assert.equal(readonly.files.size, 0);
  });

  it('records the spend of an image it could not save: the service billed it all the same', async () => {
    const failing = new MemoryFileSystem(false, true);
    disposables.push(vscode.workspace.registerFileSystemProvider('inference-images-full', failing));
    failing.folders.add('/out');
    await services().models.list('image', 'production', { refresh: true });
    const outcome = await generateImage(services(), INPUTS, { chooseFolder: async () => vscode.Uri.parse('inference-images-full:/out'), open: false });
    assert.equal(outcome.status, 'saveFailed');
    const request = imageRequests()[0];
    assert.ok(request.creditsCharged > 0);
    assert.equal(services().usage.entries().find((e) => e.requestId === request.id)?.credits, request.creditsCharged);
  });

  it('writes through vscode.workspace.fs on a virtual file system, without overwriting', async () => {
    const memory = new MemoryFileSystem();
    disposables.push(vscode.workspace.registerFileSystemProvider('inference-images-mem', memory));
    memory.folders.add('/out');
    memory.files.set('/out/no-folder-open.png', new TextEncoder().encode('taken'));
    const chooseFolder = async () => vscode.Uri.parse('inference-images-mem:/out');
    const outcome = assertSaved(await generateImage(services(), INPUTS, { chooseFolder, open: false }));
    assert.equal(outcome.images[0].image.toString(), 'inference-images-mem:/out/no-folder-open-2.png');
    assert.equal(new TextDecoder().decode(memory.files.get('/out/no-folder-open.png')), 'taken');
    assert.equal(memory.files.get('/out/no-folder-open-2.png')?.length, outcome.images[0].bytes);
    const sidecar = JSON.parse(new TextDecoder().decode(memory.files.get('/out/no-folder-open-2.png.json'))) as { requestId: string };
    assert.equal(sidecar.requestId, imageRequests()[0].id);
  });
});
