import * as path from 'node:path';
import vscode = require('vscode');
import { inspectLink } from '../../../core/chat/protocol/linkTarget';
import { newId, type Attachment } from '../../../core/chat/conversation';
import { selectionLineRange } from '../../../core/chat/selectionLines';
import { Disposable } from '../../shared/disposable';
import type { EditorAttachmentKind } from '../../../core/chat/protocol/chatProtocol';
import { capRefusal } from '../../../core/chat/mentions/mentionText';
import { contextCapChars } from '../chatSettings';

/**
 * The text editor the user last worked in. While the chat panel has focus there is no active text
 * editor, so attachments and "Insert at Cursor" use the last one that was active.
 */
export class EditorTracker extends Disposable {
  #last: vscode.TextEditor | undefined = vscode.window.activeTextEditor;

  constructor() {
    super();
    this.register(vscode.window.onDidChangeActiveTextEditor((editor) => {
      if (editor) this.#last = editor;
    }));
  }

  editor(): vscode.TextEditor | undefined {
    const active = vscode.window.activeTextEditor;
    if (active) return active;
    if (this.#last && !this.#last.document.isClosed) {
      // The editor object may be stale after its tab moved; prefer the visible one for the same document.
      return vscode.window.visibleTextEditors.find((e) => e.document === this.#last?.document) ?? this.#last;
    }
    return undefined;
  }
}

function displayPath(document: vscode.TextDocument): string {
  return document.isUntitled ? document.fileName : vscode.workspace.asRelativePath(document.uri, false);
}

/** The selection or the whole file of the editor, as a chip; throws a user-facing Error when there is none. */
export function captureContext(editor: vscode.TextEditor | undefined, kind: EditorAttachmentKind): Attachment {
  if (!editor) throw new Error(vscode.l10n.t('Open a file in an editor first: there is no editor to attach from.'));
  const { document } = editor;
  const where = displayPath(document);
  const name = path.basename(document.fileName);
  let content: string;
  let label: string;
  let detail: string;
  if (kind === 'selection') {
    const selection = editor.selection;
    if (selection.isEmpty) throw new Error(vscode.l10n.t('Select some text in the editor first.'));
    content = document.getText(selection);
    const lines = selectionLineRange(selection.start, selection.end);
    label = `${name}:${lines}`;
    detail = lines.includes('-') ? vscode.l10n.t('{0}, lines {1}', where, lines) : vscode.l10n.t('{0}, line {1}', where, lines);
  } else {
    content = document.getText();
    label = name;
    detail = where;
  }
  // Larger context is refused rather than silently cut: the user decides what to send.
  const tooLarge = capRefusal(label, content.length, contextCapChars());
  if (tooLarge) throw new Error(tooLarge);
  return { id: newId(), kind, label, detail, content, languageId: document.languageId };
}

export async function insertAtCursor(editor: vscode.TextEditor | undefined, code: string): Promise<void> {
  if (!editor) {
    await openInNewFile(code);
    return;
  }
  const shown = await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
  const ok = await shown.edit((edit) => {
    for (const selection of shown.selections) edit.replace(selection, code);
  });
  if (!ok) throw new Error(vscode.l10n.t('The editor refused the edit (is it read-only?).'));
}

export async function openInNewFile(code: string, language?: string): Promise<vscode.TextDocument> {
  const known = language ? (await vscode.languages.getLanguages()).includes(language) : false;
  const document = await vscode.workspace.openTextDocument({ content: code, ...(known && { language }) });
  await vscode.window.showTextDocument(document, { preview: false });
  return document;
}

/**
 * Opens a link from a model's answer only after the user saw where it really goes: the host, not the
 * webview, decides (http, https and mailto), and a modal names the real target with any reason to
 * look twice. Returns whether it was opened.
 */
export async function openLink(href: string): Promise<boolean> {
  const inspection = inspectLink(href);
  if (!inspection.ok) throw new Error(inspection.reason);
  const { target } = inspection;
  const question = target.scheme === 'mailto' ? vscode.l10n.t('Write an e-mail to {0}?', target.destination) : vscode.l10n.t('Open {0} in your browser?', target.destination);
  const detail = [target.href, ...target.warnings.map((warning) => `⚠ ${warning}`)].join('\n\n');
  const open = target.scheme === 'mailto' ? vscode.l10n.t('Open Mail App') : vscode.l10n.t('Open Link');
  const copy = vscode.l10n.t('Copy Link');
  const choice = await vscode.window.showWarningMessage(question, { modal: true, detail }, open, copy);
  if (choice === copy) await vscode.env.clipboard.writeText(target.href);
  if (choice !== open) return false;
  return vscode.env.openExternal(vscode.Uri.parse(target.href, true));
}
