import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { waitFor } from '../../harness/wait';

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

/**
 * Logs a line of its own and waits until a log file of the window holds it: the channel writes its
 * lines in order, so everything logged before is on disk too (a scan of the logs then sees it all).
 * Instead of a fixed pause for the channel to flush, which a busy machine could outlast.
 */
export async function logWritten(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Promise<void> {
  const barrier = `log barrier ${randomUUID()}`;
  log.info(barrier);
  const windowLogs = path.resolve(context.logUri.fsPath, '..', '..');
  const started = Date.now();
  await waitFor('the log channel to write its last line to disk', () => filesUnder(windowLogs).some((file) => file.endsWith('.log') && fs.readFileSync(file, 'latin1').includes(barrier)), { timeoutMs: 15_000, intervalMs: 50 });
  console.log(`      the log channel wrote its last line to disk in ${Date.now() - started} ms`);
}
