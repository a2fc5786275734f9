import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Inference Client', { log: true });
  context.subscriptions.push(log);
  log.info('Inference Client activated');
}

export function deactivate(): void {
  // Every registration is owned by context.subscriptions; nothing else to release.
}
