import vscode = require('vscode');
import type { RecentSnippet } from '../../core/suggestions/prompt';
import { Disposable } from '../shared/disposable';

/** Files remembered, the most recently edited first: the prompt takes a few of them (core/suggestions/prompt.ts). */
const REMEMBERED_FILES = 8;
/** Lines around the last edit that make a file's snippet. */
const LINES_AROUND = 12;

/**
 * Where the user last edited other open files, so that a suggestion can see the code just written
 * elsewhere (a function added in one file, called in another). Only the place is kept; the text is
 * read when a suggestion asks, from documents still open, and only from those `mayBeSent` allows
 * (the same rules as the file being edited: the workspace, the excluded globs).
 */
export class RecentEdits extends Disposable {
  /** Document URI → the line last edited; a Map keeps insertion order, and an edit re-inserts. */
  readonly #lines = new Map<string, number>();
  readonly #mayBeSent: (document: vscode.TextDocument) => boolean;

  constructor(mayBeSent: (document: vscode.TextDocument) => boolean) {
    super();
    this.#mayBeSent = mayBeSent;
    this.register(vscode.workspace.onDidChangeTextDocument((event) => {
      const change = event.contentChanges[0];
      if (!change) return;
      const key = event.document.uri.toString();
      this.#lines.delete(key);
      this.#lines.set(key, change.range.start.line);
      if (this.#lines.size > REMEMBERED_FILES) this.#lines.delete(this.#lines.keys().next().value as string);
    }));
    this.register(vscode.workspace.onDidCloseTextDocument((document) => this.#lines.delete(document.uri.toString())));
  }

  /** Snippets of the other files, the most recent first. */
  snippets(current: vscode.TextDocument): RecentSnippet[] {
    const open = new Map(vscode.workspace.textDocuments.map((document) => [document.uri.toString(), document]));
    const snippets: RecentSnippet[] = [];
    for (const [key, line] of [...this.#lines].reverse()) {
      const document = open.get(key);
      if (!document || document === current || !this.#mayBeSent(document)) continue;
      const first = Math.max(0, line - LINES_AROUND);
      const last = Math.min(document.lineCount - 1, line + LINES_AROUND);
      const text = document.getText(new vscode.Range(first, 0, last, document.lineAt(last).text.length));
      snippets.push({ path: vscode.workspace.asRelativePath(document.uri, false), text });
    }
    return snippets;
  }
}
