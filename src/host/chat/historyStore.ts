import * as path from 'node:path';
import vscode = require('vscode');
import type { Conversation, ConversationSummary } from '../../core/chat/conversation';
import { HistoryStore, type DamagedHistory } from '../../core/chat/historyStore';
import type { SearchHit } from '../../core/chat/historySearch';

export { STREAMING_SAVE_INTERVAL_MS } from '../../core/chat/historyStore';

/**
 * The chat history under the extension's global storage (the format and its crash safety are in
 * core/chat/historyLog.ts). This adapter adds what needs VS Code: the change event, the log, and the
 * one warning a damaged history file deserves.
 */
export class ChatHistoryStore implements vscode.Disposable {
  private readonly store: HistoryStore;
  private readonly onDidChangeEmitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.onDidChangeEmitter.event;

  constructor(storageUri: vscode.Uri, private readonly log: vscode.LogOutputChannel) {
    this.store = new HistoryStore({
      dir: path.join(storageUri.fsPath, 'chat-history'),
      onChange: () => this.onDidChangeEmitter.fire(),
      onDamaged: (damaged) => this.reportDamaged(damaged),
      onError: (message) => this.log.error(message),
    });
  }

  save(conversation: Conversation): Promise<void> {
    return this.store.save(conversation);
  }

  /** Called on every streamed delta; the new text is journaled at most once per interval. */
  saveSoon(conversation: Conversation): void {
    this.store.saveSoon(conversation);
  }

  load(id: string): Promise<Conversation | undefined> {
    return this.store.load(id);
  }

  /** From the history index: no conversation is read (core/chat/historyIndex.ts). */
  list(): Promise<ConversationSummary[]> {
    return this.store.list();
  }

  /** Conversations whose text contains `query`, newest first, as they are found; stops when `signal` aborts. */
  search(query: string, signal: AbortSignal): AsyncGenerator<SearchHit> {
    return this.store.search(query, signal);
  }

  /** A conversation was closed: what this window kept to append to its log can go. */
  release(id: string): void {
    this.store.release(id);
  }

  delete(id: string): Promise<void> {
    return this.store.delete(id);
  }

  flush(): Promise<void> {
    return this.store.flush();
  }

  /** Each damaged file is reported once: it is moved aside, so it is not found again. */
  private reportDamaged(damaged: DamagedHistory): void {
    // The log stays in English (it is read with us when reporting a problem); the notification is translated.
    const what = damaged.recovered ? 'was damaged; what could be read was kept' : 'could not be read';
    this.log.error(`Chat history file ${damaged.file} ${what}; the file was moved to ${damaged.movedTo} (${damaged.problems.map((p) => `${p.kind} line ${p.line}`).join(', ')})`);
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

  /** Awaits the last write: a window that closes mid-stream keeps the text received so far. */
  async dispose(): Promise<void> {
    await this.store.flush();
    this.onDidChangeEmitter.dispose();
  }
}
