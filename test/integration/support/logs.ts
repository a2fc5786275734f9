import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';

/**
 * Every log file this window wrote so far, as text (output channels flush to disk with a delay, so
 * callers wait for what they expect). `nameIncludes` keeps only the files whose name contains it.
 */
export function windowLogText(context: vscode.ExtensionContext, nameIncludes = ''): string {
  const windowLogs = path.resolve(context.logUri.fsPath, '..', '..');
  return fs.readdirSync(windowLogs, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.includes(nameIncludes) && entry.name.endsWith('.log'))
    .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

/** The text of the extension's "Inference Client" log channel as written to disk in this window. */
export function extensionLogText(context: vscode.ExtensionContext): string {
  return windowLogText(context, 'Inference Client');
}
