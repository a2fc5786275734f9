import vscode = require('vscode');
import type { EditorAttachmentKind } from '../../../core/chat/protocol/chatProtocol';
import type { Registered } from '../../shared/disposable';
import type { ChatSurface } from '../surfaces/chatSurface';
import { captureContext, type EditorTracker } from './editorContext';

/** How an editor action reaches a chat surface: the newest panel or the visible side-bar view, revealed, or a new panel beside the editor. */
export type ChatForEditor = (preserveFocus: boolean) => ChatSurface;

/** What the starters put in the composer; the user reads, edits and sends it. */
export const STARTERS = {
  explain: () => vscode.l10n.t('Explain what the attached code does, step by step.'),
  fix: () => vscode.l10n.t('Find the problems in the attached code and propose a fixed version.'),
};

/**
 * The editor context menu and keybindings: attach the selection or the file to the chat through the
 * same path as the panel's own attach buttons, and for the starters put a question in the composer.
 * Nothing is sent: the user still presses Send.
 */
export function registerEditorActions(editors: EditorTracker, chatFor: ChatForEditor): Registered {
  const attach = (kind: EditorAttachmentKind, preserveFocus: boolean, composerText?: string) => () => {
    // Capture first: revealing the panel takes the active editor away.
    const attachment = captureContext(editors.editor(), kind);
    const panel = chatFor(preserveFocus);
    panel.addContext(attachment, { focus: !preserveFocus, ...(composerText !== undefined && { text: composerText }) });
  };
  return vscode.Disposable.from(
    vscode.commands.registerCommand('inference.askAboutSelection', attach('selection', false)),
    vscode.commands.registerCommand('inference.addSelectionToChat', attach('selection', true)),
    vscode.commands.registerCommand('inference.addFileToChat', attach('file', true)),
    vscode.commands.registerCommand('inference.explainSelection', attach('selection', false, STARTERS.explain())),
    vscode.commands.registerCommand('inference.fixSelection', attach('selection', false, STARTERS.fix())),
  );
}
