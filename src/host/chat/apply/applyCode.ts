import vscode = require('vscode');
import { blockTarget, type BlockTarget, type CodeBlock } from '../../../core/apply/codeTarget';
import { blockKind, hasElision, proposedText, type ApplyMode } from '../../../core/apply/proposal';
import { selectionLineRange } from '../../../core/chat/selectionLines';
import { chooseTargetFile } from './applyTarget';
import { currentDocument, type CodeProposals } from './codeProposals';

interface ModeChoice extends vscode.QuickPickItem {
  mode: ApplyMode;
  /** What the diff's title says the change does. */
  summary: string;
}

/** The editor showing `document`: the one the user last worked in when it shows it, else a visible one. */
function editorOf(document: vscode.TextDocument, hint: vscode.TextEditor | undefined): vscode.TextEditor | undefined {
  if (hint?.document === document) return hint;
  return vscode.window.visibleTextEditors.find((editor) => editor.document === document);
}

/** Where a fragment goes, chosen by the user: the selection, the cursor (or the end, with no editor), or the whole file. */
async function chooseFragmentMode(code: string, document: vscode.TextDocument, editor: vscode.TextEditor | undefined): Promise<ModeChoice | undefined> {
  const choices: ModeChoice[] = [];
  const selection = editor?.selection;
  if (selection && !selection.isEmpty) {
    const lines = selectionLineRange(selection.start, selection.end);
    choices.push({
      label: vscode.l10n.t('Replace the selection'),
      description: lines.includes('-') ? vscode.l10n.t('lines {0}', lines) : vscode.l10n.t('line {0}', lines),
      mode: { kind: 'replace', start: document.offsetAt(selection.start), end: document.offsetAt(selection.end) },
      summary: vscode.l10n.t('replaces the selection'),
    });
  }
  if (selection) {
    choices.push({
      label: vscode.l10n.t('Insert at the cursor'),
      description: vscode.l10n.t('line {0}', selection.active.line + 1),
      mode: { kind: 'insert', offset: document.offsetAt(selection.active) },
      summary: vscode.l10n.t('inserted at the cursor'),
    });
  } else {
    choices.push({ label: vscode.l10n.t('Add at the end of the file'), mode: { kind: 'insert', offset: document.getText().length }, summary: vscode.l10n.t('added at the end') });
  }
  choices.push({
    label: vscode.l10n.t('Replace the whole file'),
    ...(hasElision(code) && { detail: vscode.l10n.t('The block leaves code out ("..."): replacing the file would delete that code.') }),
    mode: { kind: 'whole' },
    summary: vscode.l10n.t('replaces the whole file'),
  });
  return vscode.window.showQuickPick(choices, {
    title: vscode.l10n.t('Apply to {0}: the code block looks like a part of the file', vscode.workspace.asRelativePath(document.uri, false)),
    placeHolder: vscode.l10n.t('Where should it go? You review the change before anything is written.'),
  });
}

/**
 * Proposes `target` as a change to `file`, against the file's current text (its editor's, unsaved
 * edits included), and opens the diff for review. A block that reads as the whole file replaces it;
 * a fragment goes where the user chooses.
 */
export async function proposeChange(target: BlockTarget, file: vscode.Uri, editorHint: vscode.TextEditor | undefined, proposals: CodeProposals): Promise<void> {
  const document = await currentDocument(file);
  const base = document?.getText();
  const name = vscode.workspace.asRelativePath(file, false);
  const choice: Pick<ModeChoice, 'mode' | 'summary'> | undefined = !document
    ? { mode: { kind: 'whole' }, summary: vscode.l10n.t('new file') }
    : blockKind(target.code, document.getText()) === 'whole'
      ? { mode: { kind: 'whole' }, summary: vscode.l10n.t('replaces the whole file') }
      : await chooseFragmentMode(target.code, document, editorOf(document, editorHint));
  if (!choice) return;
  const eol = document?.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
  const proposed = proposedText(base ?? '', target.code, choice.mode, { eol, namingLine: target.namingLine, newFile: !document });
  if (proposed === base) {
    void vscode.window.showInformationMessage(vscode.l10n.t('{0} already has this code: there is nothing to change.', name));
    return;
  }
  await proposals.show({ target, file, base, proposed, label: choice.summary });
}

/** The chat's Apply button: the block's file (named, the editor's, or picked), then the proposal's diff. */
export async function applyCodeBlock(block: CodeBlock, editor: vscode.TextEditor | undefined, proposals: CodeProposals): Promise<void> {
  const target = blockTarget(block);
  const file = await chooseTargetFile(target.path, editor);
  if (file) await proposeChange(target, file, editor, proposals);
}
