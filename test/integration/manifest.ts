import * as path from 'node:path';
import * as vscode from 'vscode';

/** The parts of package.json the integration tests check against the running extension. */
export interface Manifest {
  name: string;
  publisher: string;
  /** The module VS Code loads: activate() and deactivate(). */
  main: string;
  contributes: {
    commands?: { command: string; title: string }[];
    configuration?: { properties?: Record<string, { default?: unknown }> };
  };
}

/** Compiled tests live in out/test/integration/ (or a subfolder); package.json is at the repository root. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const manifest = require(path.join(REPO_ROOT, 'package.json')) as Manifest;

export const EXTENSION_ID = `${manifest.publisher}.${manifest.name}`;

/** The extension under test, activated; fails the test when activation throws. */
export async function activateExtension(): Promise<vscode.Extension<unknown>> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded in this extension host`);
  await extension.activate();
  return extension;
}
