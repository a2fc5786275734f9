import * as fs from 'node:fs';
import * as path from 'node:path';

/** Every file under the root (logs, user data, workspace) below 20 MB, for secret scans; bounded by `limit`. */
export function filesUnder(root: string, limit = 5000): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (found.length >= limit) return;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== '.git') walk(full);
      else if (entry.isFile() && fs.statSync(full).size < 20_000_000) found.push(full);
    }
  };
  walk(root);
  return found;
}
