import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';

/** The text of the extension's "Inference Client" log channel as written to disk in this window. */
export function extensionLogText(context: vscode.ExtensionContext): string {
  const windowLogs = path.resolve(context.logUri.fsPath, '..', '..');
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.includes('Inference Client') && entry.name.endsWith('.log')) texts.push(fs.readFileSync(full, 'utf8'));
    }
  };
  walk(windowLogs);
  return texts.join('\n');
}
