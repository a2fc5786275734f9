import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';

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

/**
 * Every file the extension's window may write (its logs, all user data, the workspace), with its bytes
 * as latin1 text (so a scan for an ASCII secret stays in ASCII).
 */
export function writtenFiles(context: vscode.ExtensionContext, folders: readonly vscode.WorkspaceFolder[] = []): Array<[string, string]> {
  const roots = [path.resolve(context.logUri.fsPath, '..', '..'), path.resolve(context.globalStorageUri.fsPath, '..', '..'), ...folders.map((f) => f.uri.fsPath)];
  return roots.flatMap((root) => filesUnder(root)).map((file): [string, string] => [file, fs.readFileSync(file, 'latin1')]);
}
