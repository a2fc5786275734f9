import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PNG } from 'pngjs';
import * as vscode from 'vscode';
import type { ImageSidecar } from '../../../src/core/images/imageJob';
import type { GenerationOutcome } from '../../../src/host/images';
import type { Services } from '../../../src/host/shared/services';
import { renderPng } from '../../emulator/png';
import type { EmulatorOptions, RequestRecord } from '../../emulator';
import { useConfiguredEmulator, type EmulatorFixture } from '../support/emulatorSetup';

export interface ImageFixture {
  (): EmulatorFixture;
  services(): Services;
  /** The open workspace folder (a scratch folder of the test run). */
  root(): string;
  /** Image generation requests the emulator received in this test. */
  imageRequests(): RequestRecord[];
  /** Files below the workspace, relative, sorted (README.md excluded). */
  workspaceFiles(): string[];
  /** Files anywhere below `dir`, relative, sorted. */
  filesBelow(dir: string): string[];
}

/**
 * The emulator behind the extension's production environment with a full key, a clean workspace
 * before and after every test, and the image settings back at their defaults.
 */
export function useImageFixture(options?: EmulatorOptions): ImageFixture {
  const emulator = useConfiguredEmulator(options);
  const root = () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) throw new Error('this suite needs the window with a workspace folder');
    return folder.uri.fsPath;
  };
  const filesBelow = (dir: string): string[] =>
    fs.existsSync(dir)
      ? fs.readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => !entry.isDirectory())
        .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
        .sort()
      : [];
  const clean = async () => {
    // Editors first: an open image preview watches its file.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const entry of fs.readdirSync(root())) {
      if (entry !== 'README.md') fs.rmSync(path.join(root(), entry), { recursive: true, force: true });
    }
    const config = vscode.workspace.getConfiguration();
    for (const id of ['inference.images.folder', 'inference.images.responseFormat', 'inference.images.sizePresets']) {
      await config.update(id, undefined, vscode.ConfigurationTarget.Global);
    }
  };
  beforeEach(async () => {
    await clean();
    await emulator().api.services.keys.set('production', emulator().emulator.keys.production.full);
  });
  afterEach(clean);
  return Object.assign(emulator, {
    services: () => emulator().api.services,
    root,
    imageRequests: () => emulator().emulator.requests.filter((request) => request.path.endsWith('/images/generations')),
    workspaceFiles: () => filesBelow(root()).filter((file) => file !== 'README.md'),
    filesBelow,
  });
}

export async function setSetting(id: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration().update(id, value, vscode.ConfigurationTarget.Global);
}

export type Saved = Extract<GenerationOutcome, { status: 'saved' }>;

export function assertSaved(outcome: GenerationOutcome | undefined): Saved {
  assert.ok(outcome, 'the command ended without an outcome (a question was cancelled?)');
  assert.equal(outcome.status, 'saved', `expected the image to be saved, got ${JSON.stringify(outcome, (key, value: unknown) => (key === 'result' ? undefined : value))}`);
  return outcome as Saved;
}

export function readSidecar(uri: vscode.Uri): ImageSidecar {
  return JSON.parse(fs.readFileSync(uri.fsPath, 'utf8')) as ImageSidecar;
}

/**
 * The written file decoded as a PNG, compared with what the emulator renders for the same model,
 * prompt, seed and size (its pictures are a pure function of those).
 */
export function assertEmulatorPng(file: vscode.Uri, expected: { model: string; prompt: string; seed: number; width: number; height: number }): void {
  const bytes = fs.readFileSync(file.fsPath);
  const decoded = PNG.sync.read(bytes);
  assert.deepEqual([decoded.width, decoded.height], [expected.width, expected.height], 'decoded size');
  const rendered = renderPng(expected.width, expected.height, `${expected.model}\n${expected.prompt}`, expected.seed);
  assert.ok(bytes.equals(rendered), 'the file holds exactly the bytes the emulator produced');
}
