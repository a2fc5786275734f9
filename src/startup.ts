import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import type * as vscode from 'vscode';

/**
 * The extension's entry (package.json `main`): runs dist/main.js, the bundle of src/extension.ts,
 * through V8's code cache. Compiling that bundle was most of the load in every window (~10 ms in an
 * idle Node, 20–50 ms in code-server's extension host under load); with the cache V8 skips the parse
 * and reuses the functions that activation compiled last time.
 *
 * The cache is V8's own format, in the extension's global storage (never the workspace). V8 checks it
 * against the source, its own version and flags, and refuses it on any mismatch; then the bundle
 * compiles as it would without it and a fresh cache replaces the old one (written to a temporary
 * file and renamed, so that two windows never leave a torn file).
 */

type Extension = typeof import('./extension');

const BUNDLE = path.join(__dirname, 'main.js');
let extension: Extension | undefined;

function load(cacheFile: string): { extension: Extension; script: vm.Script; cached: boolean } {
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // No cache yet (first start, or cleared): compile from source.
  }
  // The same wrapper Node puts around a CommonJS file: `require` is this file's, so that `vscode`
  // and ./undici.js resolve as they do for the entry.
  const source = `(function (exports, require, module, __filename, __dirname) {${fs.readFileSync(BUNDLE, 'utf8')}\n})`;
  const script = new vm.Script(source, { filename: BUNDLE, ...(cachedData && { cachedData }) });
  const module = { exports: {} as Extension };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, require, module, BUNDLE, __dirname);
  return { extension: module.exports, script, cached: cachedData !== undefined && !script.cachedDataRejected };
}

function saveCache(script: vm.Script, cacheFile: string): void {
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  void fs.promises.mkdir(path.dirname(cacheFile), { recursive: true })
    .then(() => fs.promises.writeFile(temporary, script.createCachedData()))
    .then(() => fs.promises.rename(temporary, cacheFile))
    .catch(() => fs.promises.rm(temporary, { force: true }).catch(() => undefined));
}

export function activate(context: vscode.ExtensionContext): ReturnType<Extension['activate']> {
  const cacheFile = path.join(context.globalStorageUri.fsPath, 'code-cache', 'main.bin');
  const loaded = load(cacheFile);
  extension = loaded.extension;
  const api = extension.activate(context);
  // After activate(): the cache then also holds the functions activation compiled.
  if (!loaded.cached) setImmediate(() => saveCache(loaded.script, cacheFile));
  return api;
}

export function deactivate(): Promise<void> | undefined {
  return extension?.deactivate();
}
