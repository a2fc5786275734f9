import vscode = require('vscode');

/** How ages read in the UI, in one place so that notifications and the status bar agree. */

export function describeAge(timestamp: number, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - timestamp) / 1000));
  if (seconds < 60) return vscode.l10n.t('just now');
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return vscode.l10n.t('{0} min ago', minutes);
  const hours = Math.round(minutes / 60);
  if (hours < 48) return vscode.l10n.t('{0} h ago', hours);
  return vscode.l10n.t('{0} days ago', Math.round(hours / 24));
}
