import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';

/**
 * The shell's loader (src/host/shell/codeCache.ts) as src/startup.ts runs it: a bundle called main.js,
 * the extension's global storage for its code cache, one process per window (within one process V8's
 * in-memory compilation cache would answer before the code cache is even read).
 */
const BUILT_LOADER = path.join(__dirname, '..', '..', '..', 'src', 'host', 'shell', 'codeCache.js');

function standInBundle(marker: string): string {
  // Functions for V8 to cache, and exports that say which bundle ran.
  return `function work(n) { let total = 0; for (let i = 0; i < n; i++) total += i % 7; return total; }
exports.activate = (context) => ({ marker: ${JSON.stringify(marker)}, storage: context.globalStorageUri.fsPath, work: work(100) });
exports.deactivate = () => ${JSON.stringify(`deactivated ${marker}`)};
`;
}

describe('shell loader: runs main.js through a code cache in global storage', () => {
  let dir: string;
  let storage: string;
  const cacheDir = () => path.join(storage, 'code-cache');
  const cacheFiles = () => (fs.existsSync(cacheDir()) ? fs.readdirSync(cacheDir()).sort() : []);

  /** One window: a new process loads the loader, activates, deactivates, and waits for the cache to be saved. */
  function start(): { api: { marker: string; storage: string; work: number }; deactivated: unknown } {
    const script = `
      const { runWithCodeCache } = require(${JSON.stringify(BUILT_LOADER)});
      const bundle = runWithCodeCache(require('path').resolve('main.js'), ${JSON.stringify(path.join(storage, 'code-cache'))}, require);
      const api = bundle.exports.activate({ globalStorageUri: { fsPath: ${JSON.stringify(storage)} } });
      if (!bundle.cached) setImmediate(() => bundle.saveCache());
      const deactivated = bundle.exports.deactivate();
      setTimeout(() => console.log(JSON.stringify({ api, deactivated })), 300);`;
    const child = spawnSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8', timeout: 15_000 });
    assert.equal(child.status, 0, child.stderr);
    return JSON.parse(child.stdout) as ReturnType<typeof start>;
  }

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inference-loader-'));
    storage = path.join(dir, 'global-storage');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('runs the bundle and returns its activate() result; deactivate() reaches the bundle', () => {
    fs.writeFileSync(path.join(dir, 'main.js'), standInBundle('one'));
    const { api, deactivated } = start();
    assert.deepEqual(api, { marker: 'one', storage, work: 295 });
    assert.equal(deactivated, 'deactivated one');
  });

  it('a thrown error names the bundle\'s own line and column, with the cache and without', () => {
    // Minified: the throw is far along line 1, where the loader's wrapper would shift the column.
    const bundle = `${'/* padding */ '.repeat(8)}exports.activate = () => { try { null.boom(); } catch (e) { return { marker: e.stack.split('\\n')[1] }; } };
exports.deactivate = () => { try { undefined.bang(); } catch (e) { return e.stack.split('\\n')[1]; } };
`;
    fs.writeFileSync(path.join(dir, 'main.js'), bundle);
    const at = (needle: string) => {
      const line = bundle.split('\n').findIndex((text) => text.includes(needle));
      // V8 points at the property that could not be read.
      return `main.js:${line + 1}:${bundle.split('\n')[line].indexOf(needle) + 1})`;
    };
    for (const window of ['first start, compiled from source', 'second start, from the code cache']) {
      const { api, deactivated } = start();
      assert.ok(api.marker.endsWith(at('boom')), `${window}: ${api.marker} should end with ${at('boom')}`);
      assert.ok(String(deactivated).endsWith(at('bang')), `${window}: ${String(deactivated)} should end with ${at('bang')}`);
    }
    assert.equal(cacheFiles().length, 1, 'the second start had a cache to use');
  });

  it('writes the cache after the first activation, and a later start uses it without rewriting it', () => {
    fs.writeFileSync(path.join(dir, 'main.js'), standInBundle('one'));
    start();
    const [cache] = cacheFiles();
    assert.match(cache ?? '', /^main-[0-9a-f]{16}\.bin$/);
    const file = path.join(cacheDir(), cache);
    fs.utimesSync(file, 1, 1);
    assert.equal(start().api.marker, 'one');
    assert.deepEqual(cacheFiles(), [cache]);
    assert.equal(fs.statSync(file).mtimeMs, 1000, 'an accepted cache is not written again');
  });

  it('an updated bundle of the same length gets its own cache, and the earlier one is removed', () => {
    fs.writeFileSync(path.join(dir, 'main.js'), standInBundle('one'));
    start();
    const [first] = cacheFiles();
    const updated = standInBundle('two');
    assert.equal(updated.length, standInBundle('one').length, 'same length: V8 alone would accept the old cache');
    fs.writeFileSync(path.join(dir, 'main.js'), updated);
    assert.equal(start().api.marker, 'two', 'the new bundle ran, not the cached one');
    const files = cacheFiles();
    assert.equal(files.length, 1);
    assert.notEqual(files[0], first);
  });

  it('a corrupt cache is refused by V8: the bundle compiles from source and the cache is rewritten', () => {
    fs.writeFileSync(path.join(dir, 'main.js'), standInBundle('one'));
    start();
    const file = path.join(cacheDir(), cacheFiles()[0]);
    const corrupt = Buffer.alloc(fs.statSync(file).size, 0x5a);
    fs.writeFileSync(file, corrupt);
    assert.equal(start().api.marker, 'one');
    assert.notDeepEqual(fs.readFileSync(file), corrupt, 'the refused cache was replaced');
  });
});
