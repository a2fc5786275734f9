import * as path from 'node:path';
import vscode = require('vscode');
import { HistoryStore, type DamagedHistory } from '../../../core/chat/history/historyStore';

/**
 * The chat history under the extension's global storage: the core store (the format and its crash
 * safety are in core/chat/history/historyLog.ts), used directly, and what it reports through VS Code — the
 * change event, the log, and the one warning a damaged history file deserves.
 */
export interface ChatHistory {
  readonly store: HistoryStore;
  /** The store changed: saved, deleted, or the index corrected after a listing. */
  readonly onDidChange: vscode.Event<void>;
  /** Awaits the last write: a window that closes mid-stream keeps the text received so far. */
  dispose(): Promise<void>;
}

export function openChatHistory(storageUri: vscode.Uri, log: vscode.LogOutputChannel): ChatHistory {
  const changed = new vscode.EventEmitter<void>();
  const store = new HistoryStore({
    dir: path.join(storageUri.fsPath, 'chat-history'),
    onChange: () => changed.fire(),
    onDamaged: (damaged) => reportDamaged(damaged, log),
    onError: (message) => log.error(message),
  });
  return {
    store,
    onDidChange: changed.event,
    dispose: async () => {
      await store.flush();
      changed.dispose();
    },
  };
}

/** Each damaged file is reported once: it is moved aside, so it is not found again. */
function reportDamaged(damaged: DamagedHistory, log: vscode.LogOutputChannel): void {
  // The log stays in English (it is read with us when reporting a problem); the notification is translated.
  const what = damaged.recovered ? 'was damaged; what could be read was kept' : 'could not be read';
  log.error(`Chat history file ${damaged.file} ${what}; the file was moved to ${damaged.movedTo} (${damaged.problems.map((p) => `${p.kind} line ${p.line}`).join(', ')})`);
  const open = vscode.l10n.t('Open Original');
  const kept = path.basename(damaged.movedTo);
  void vscode.window.showWarningMessage(
    damaged.recovered
      ? vscode.l10n.t('A chat history file was damaged; what could be read was kept. The original was kept as {0}; other conversations are not affected.', kept)
      : vscode.l10n.t('A chat history file could not be read. The original was kept as {0}; other conversations are not affected.', kept),
    open,
  ).then((choice) => {
    if (choice === open) void vscode.commands.executeCommand('vscode.open', vscode.Uri.file(damaged.movedTo));
  });
}
