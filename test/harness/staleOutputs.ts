import * as fs from 'node:fs';
import * as path from 'node:path';
import { OUT_DIR, REPO_ROOT } from './paths';

/**
 * esbuild writes out/ but never deletes from it: a test file that was deleted or renamed would keep
 * running from its old compiled copy. Removes every out/ script whose TypeScript source is gone.
 */
export function pruneStaleOutputs(): string[] {
  const removed: string[] = [];
  for (const top of ['src', 'test']) {
    const dir = path.join(OUT_DIR, top);
    if (!fs.existsSync(dir)) continue;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
      const compiled = path.join(entry.parentPath, entry.name);
      const source = path.join(REPO_ROOT, path.relative(OUT_DIR, compiled)).replace(/\.js$/, '.ts');
      if (fs.existsSync(source)) continue;
      fs.rmSync(compiled, { force: true });
      fs.rmSync(`${compiled}.map`, { force: true });
      removed.push(path.relative(REPO_ROOT, compiled));
    }
  }
  if (removed.length > 0) console.log(`[build] removed stale compiled files: ${removed.join(', ')}`);
  return removed;
}
