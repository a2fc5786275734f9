import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';

/**
 * Runs a CommonJS bundle (dist/main.js) through V8's code cache. Compiling that bundle was most of
 * its load in every window (~10 ms in an idle Node, 20–50 ms in code-server's extension host under
 * load); with the cache V8 skips the parse and reuses the functions its first run compiled.
 *
 * The cache is V8's own format, in the extension's global storage (never the workspace), named by a
 * hash of the bundle: V8 itself compares only the source's length (and its own version and flags),
 * so a new bundle of the same length must not find the old cache. On a miss, or when V8 refuses the
 * cache, the bundle compiles as it would without one and a fresh cache replaces the old (written to
 * a temporary file and renamed, so that two windows never leave a torn file).
 */

const WRAPPER_START = '(function (exports, require, module, __filename, __dirname) {';

export interface CachedBundle<Exports> {
  readonly exports: Exports;
  /** Whether V8 took the code cache; when not, saveCache() writes one. */
  readonly cached: boolean;
  /** Writes the cache (after the bundle's first work, so that it holds what that work compiled), then removes earlier bundles' caches. */
  saveCache(): void;
}

/** `require` is the caller's, so that `vscode` and ./undici.js resolve as they do for the entry file. */
export function runWithCodeCache<Exports>(bundleFile: string, cacheDir: string, requireFromEntry: NodeRequire): CachedBundle<Exports> {
  const bundle = fs.readFileSync(bundleFile, 'utf8');
  const cacheFile = path.join(cacheDir, `main-${createHash('sha256').update(bundle).digest('hex').slice(0, 16)}.bin`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // No cache for this bundle yet (first start, an update, or cleared): compile from source.
  }
  // The same wrapper Node puts around a CommonJS file. The minified bundle is nearly all one line:
  // the negative column offset keeps stack traces pointing at the bundle's own columns, not the wrapper's.
  const source = `${WRAPPER_START}${bundle}\n})`;
  const script = new vm.Script(source, { filename: bundleFile, columnOffset: -WRAPPER_START.length, ...(cachedData && { cachedData }) });
  const module = { exports: {} as Exports };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, requireFromEntry, module, bundleFile, path.dirname(bundleFile));
  return {
    exports: module.exports,
    cached: cachedData !== undefined && !script.cachedDataRejected,
    saveCache: () => saveCache(script, cacheFile),
  };
}

/** A failure only costs the next start its speed. */
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
