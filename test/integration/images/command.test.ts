import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ImageCommandResult } from '../../../src/host/images';
import { assertSaved, readSidecar, useImageFixture } from './support';

/**
 * Runs a command and answers each of its questions by accepting what is proposed (prefilled text,
 * the active quick pick item), as a user pressing Enter would, until `questionsOver()` says the questions are
 * over; returns what the command returned and how many answers it took.
 */
async function runAcceptingDefaults(command: string, questionsOver: () => boolean, timeoutMs = 20_000): Promise<{ result: ImageCommandResult; accepts: number }> {
  let settled = false;
  const running = Promise.resolve(vscode.commands.executeCommand<ImageCommandResult>(command)).finally(() => {
    settled = true;
  });
  const deadline = Date.now() + timeoutMs;
  let accepts = 0;
  while (!settled) {
    if (Date.now() > deadline) throw new Error(`${command} still waiting after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 400));
    if (!settled && !questionsOver()) {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      accepts++;
    }
  }
  return { result: await running, accepts };
}

let promptFiles = 0;

/** Opens a new file (a fresh name each time: VS Code keeps documents of deleted files) with `selected` selected. */
async function openWithSelection(root: string, text: string, selected: string): Promise<void> {
  const file = path.join(root, `prompt-${++promptFiles}.txt`);
  fs.writeFileSync(file, text);
  const document = await vscode.workspace.openTextDocument(file);
  const start = document.positionAt(text.indexOf(selected));
  await vscode.window.showTextDocument(document, { selection: new vscode.Range(start, start.translate(0, selected.length)) });
}

describe('Generate Image through the real command (questions answered in the quick input)', () => {
  const fixture = useImageFixture();
  let requestsBefore = 0;
  /** The questions are over once the command has sent its image request. */
  const run = (command: string) => {
    requestsBefore = fixture.imageRequests().length;
    return runAcceptingDefaults(command, () => fixture.imageRequests().length > requestsBefore);
  };

  beforeEach(async () => {
    // The model list is cached first, so the picker has its items before the first Enter.
    await fixture.services().models.list('image', 'production', { refresh: true });
  });

  it('prefills the prompt from the selection, proposes the remembered model, saves and opens the image', async () => {
    const model = fixture().emulator.environments.production.imageModels[0];
    await fixture.services().models.select('image', model, 'production');
    await openWithSelection(fixture.root(), 'notes\nA red kite over green hills\nmore notes', 'A red kite over green hills');
    const { result } = await run('inference.generateImage');
    const outcome = assertSaved(result);
    const sidecar = readSidecar(outcome.images[0].sidecar);
    assert.equal(sidecar.prompt, 'A red kite over green hills');
    assert.equal(sidecar.requestedModel, model, 'the remembered model was the proposed one');
    assert.equal(typeof sidecar.seed, 'number', 'an empty seed becomes a recorded random seed');
    assert.equal(sidecar.width, null, '"Model default" sends no size');
    assert.deepEqual(fixture.workspaceFiles().filter((file) => file.startsWith('images/')), ['images/a-red-kite-over-green-hills.png', 'images/a-red-kite-over-green-hills.png.json']);
    const active = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(active instanceof vscode.TabInputCustom, 'the image opened in a custom editor');
    assert.equal(active.viewType, 'imagePreview.previewEditor');
    assert.equal(active.uri.toString(), outcome.images[0].image.toString());
  });

  it('keeps a failed prompt: the next prompt box starts with it', async () => {
    fixture().emulator.injectFault('production', { fault: 'http-500', path: '/images/generations' });
    await openWithSelection(fixture.root(), 'A stormy sea', 'A stormy sea');
    const failed = await run('inference.generateImage');
    assert.equal(failed.result?.status, 'failed');
    assert.deepEqual(fixture.workspaceFiles().filter((file) => file.startsWith('images/')), []);

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const retried = assertSaved((await run('inference.generateImage')).result);
    assert.equal(readSidecar(retried.images[0].sidecar).prompt, 'A stormy sea');
  });

  it('"with last settings" asks only for the prompt and reuses model and size', async () => {
    await openWithSelection(fixture.root(), 'first prompt', 'first prompt');
    const first = assertSaved((await run('inference.generateImage')).result);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const quick = await run('inference.generateImageWithLastSettings');
    const second = assertSaved(quick.result);
    assert.equal(quick.accepts, 1, 'one question: the prompt');
    const [a, b] = [readSidecar(first.images[0].sidecar), readSidecar(second.images[0].sidecar)];
    assert.equal(b.prompt, 'first prompt', 'the prompt box started with the last prompt');
    assert.equal(b.requestedModel, a.requestedModel);
    assert.deepEqual([b.width, b.height], [a.width, a.height]);
    assert.equal(path.basename(second.images[0].image.fsPath), 'first-prompt-2.png');
  });
});
