import * as fs from 'node:fs';
import * as path from 'node:path';
import { OUT_DIR, REPO_ROOT } from './paths';

/**
 * A folder holding the extension under test (a link to the repository) and the test-support
 * extension (test/integration/support/extension.ts). The web workbench keeps only one
 * `extensionDevelopmentPath` from its payload, but VS Code loads every extension in a development
 * path that is a folder of extensions.
 */
export function writeDevelopmentExtensions(parentDir: string): string {
  const dir = path.join(parentDir, 'development-extensions');
  fs.mkdirSync(dir, { recursive: true });
  fs.symlinkSync(REPO_ROOT, path.join(dir, 'inference-client'), 'dir');
  writeSupportExtension(dir);
  return dir;
}

/** Writes the test-support extension into `parentDir` and returns its folder. */
export function writeSupportExtension(parentDir: string): string {
  const dir = path.join(parentDir, 'test-support');
  fs.mkdirSync(dir, { recursive: true });
  const manifest = {
    name: 'test-support',
    publisher: 'inference-client-tests',
    version: '0.0.0',
    engines: { vscode: '^1.104.0' },
    main: './index.js',
    activationEvents: [],
  };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  const entry = path.join(OUT_DIR, 'test', 'integration', 'support', 'extension.js');
  fs.writeFileSync(path.join(dir, 'index.js'), `module.exports = require(${JSON.stringify(entry)});\n`);
  return dir;
}

/** A small workspace folder for the window that opens one. */
export function writeScratchWorkspace(parentDir: string, name = 'workspace'): string {
  const dir = path.join(parentDir, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'README.md'), '# Scratch workspace\n\nOpened by the inference-client test harness.\n');
  return dir;
}
