import { createHash } from 'node:crypto';
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
 * The cache is V8's own format, in the extension's global storage (never the workspace), named by a
 * hash of the bundle: V8 itself compares only the source's length (and its own version and flags),
 * so a new bundle of the same length must not find the old cache. On a miss, or when V8 refuses the
 * cache, the bundle compiles as it would without one and a fresh cache replaces the old (written to
 * a temporary file and renamed, so that two windows never leave a torn file).
 */

type Extension = typeof import('./extension');

const BUNDLE = path.join(__dirname, 'main.js');
const WRAPPER_START = '(function (exports, require, module, __filename, __dirname) {';
let extension: Extension | undefined;

function load(cacheDir: string): { extension: Extension; script: vm.Script; cacheFile: string; cached: boolean } {
  const bundle = fs.readFileSync(BUNDLE, 'utf8');
  const cacheFile = path.join(cacheDir, `main-${createHash('sha256').update(bundle).digest('hex').slice(0, 16)}.bin`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // No cache for this bundle yet (first start, an update, or cleared): compile from source.
  }
  // The same wrapper Node puts around a CommonJS file: `require` is this file's, so that `vscode`
  // and ./undici.js resolve as they do for the entry. The minified bundle is nearly all one line:
  // the negative column offset keeps stack traces pointing at the bundle's own columns, not the wrapper's.
  const source = `${WRAPPER_START}${bundle}\n})`;
  const script = new vm.Script(source, { filename: BUNDLE, columnOffset: -WRAPPER_START.length, ...(cachedData && { cachedData }) });
  const module = { exports: {} as Extension };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, require, module, BUNDLE, __dirname);
  return { extension: module.exports, script, cacheFile, cached: cachedData !== undefined && !script.cachedDataRejected };
}

/** Writes the cache, then removes the caches of earlier bundles. A failure only costs the next start its speed. */
function saveCache(script: vm.Script, cacheFile: string): void {
  const dir = path.dirname(cacheFile);
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  void fs.promises.mkdir(dir, { recursive: true })
    .then(() => fs.promises.writeFile(temporary, script.createCachedData()))
    .then(() => fs.promises.rename(temporary, cacheFile))
    .then(() => fs.promises.readdir(dir))
    .then((names) => Promise.all(names.filter((name) => /^main-[0-9a-f]+\.bin$/.test(name) && name !== path.basename(cacheFile))
      .map((name) => fs.promises.rm(path.join(dir, name), { force: true }))))
    .catch(() => fs.promises.rm(temporary, { force: true }).catch(() => undefined));
}

export function activate(context: vscode.ExtensionContext): ReturnType<Extension['activate']> {
  const loaded = load(path.join(context.globalStorageUri.fsPath, 'code-cache'));
  extension = loaded.extension;
  const api = extension.activate(context);
  // After activate(): the cache then also holds the functions activation compiled.
  if (!loaded.cached) setImmediate(() => saveCache(loaded.script, loaded.cacheFile));
  return api;
}

export function deactivate(): Promise<void> | undefined {
  return extension?.deactivate();
}
