import vscode = require('vscode');
import type { BlockTarget } from '../../../core/apply/codeTarget';
import { minimalReplacement } from '../../../core/apply/proposal';
import { newId } from '../../../core/chat/conversation';
import { Disposable } from '../../shared/disposable';

/** The scheme of the read-only documents that hold proposed text (the right side of the diff; the left of a new file's). */
export const PROPOSAL_SCHEME = 'inference-proposal';
const BASE_SUFFIX = '.base';

export interface Proposal {
  /** What was applied, kept to propose it again when the file changes before Accept. */
  target: BlockTarget;
  file: vscode.Uri;
  /** The file's text (its editor's, unsaved edits included) when proposed; undefined for a new file. */
  base: string | undefined;
  proposed: string;
  /** What the change does, as the diff's title says it: "replaces the whole file", "new file"... */
  label: string;
}

interface OpenProposal extends Proposal {
  proposedUri: vscode.Uri;
}

/** The document of `file` as VS Code holds it (an open editor's text, saved or not), or undefined when there is no file. */
export async function currentDocument(file: vscode.Uri): Promise<vscode.TextDocument | undefined> {
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === file.toString());
  if (open) return open;
  const exists = await vscode.workspace.fs.stat(file).then(() => true, () => false);
  return exists ? vscode.workspace.openTextDocument(file) : undefined;
}

/**
 * Proposed changes under review: each is a diff of the file against a read-only proposal document,
 * with Accept and Reject in the diff's title bar. Nothing is written until Accept, which checks that
 * the file is still as it was proposed against and applies one workspace edit (one undo step).
 */
export class CodeProposals extends Disposable implements vscode.TextDocumentContentProvider {
  readonly #open = new Map<string, OpenProposal>();

  readonly #repropose: (target: BlockTarget, file: vscode.Uri) => Promise<void>;

  constructor(repropose: (target: BlockTarget, file: vscode.Uri) => Promise<void>) {
    super();
    this.#repropose = repropose;
    this.register(vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, this));
    this.register(vscode.commands.registerCommand('inference.acceptProposal', (uri?: vscode.Uri) => this.#settle(uri, 'accept')));
    this.register(vscode.commands.registerCommand('inference.rejectProposal', (uri?: vscode.Uri) => this.#settle(uri, 'reject')));
    // A diff closed by hand is a rejection: forget it, so that memory follows what is open.
    this.register(vscode.window.tabGroups.onDidChangeTabs(({ closed }) => {
      for (const tab of closed) {
        const id = tab.input instanceof vscode.TabInputTextDiff ? this.#idOf(tab.input.modified) : undefined;
        if (id && this.#tabsOf(id).length === 0) this.#open.delete(id);
      }
    }));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return uri.query.endsWith(BASE_SUFFIX) ? '' : this.#open.get(uri.query)?.proposed ?? '';
  }

  /** Opens the diff of the proposal against the file's current text. */
  async show(proposal: Proposal): Promise<void> {
    const id = newId();
    const proposedUri = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: proposal.file.path, query: id });
    this.#open.set(id, { ...proposal, proposedUri });
    const left = proposal.base === undefined ? proposedUri.with({ query: `${id}${BASE_SUFFIX}` }) : proposal.file;
    const title = vscode.l10n.t('{0} ↔ Proposed ({1})', vscode.workspace.asRelativePath(proposal.file, false), proposal.label);
    await vscode.commands.executeCommand('vscode.diff', left, proposedUri, title, { preview: false });
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(vscode.l10n.t('This workspace is not trusted. Read the proposed change to {0} before you accept it: Accept edits the file.', vscode.workspace.asRelativePath(proposal.file, false)));
    }
  }

  /** Ids of the proposals under review, for the test API. */
  openIds(): string[] {
    return [...this.#open.keys()];
  }

  #idOf(uri: vscode.Uri | undefined): string | undefined {
    if (uri?.scheme !== PROPOSAL_SCHEME) return undefined;
    const id = uri.query.endsWith(BASE_SUFFIX) ? uri.query.slice(0, -BASE_SUFFIX.length) : uri.query;
    return this.#open.has(id) ? id : undefined;
  }

  #tabsOf(id: string): vscode.Tab[] {
    return vscode.window.tabGroups.all.flatMap((group) => group.tabs)
      .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === PROPOSAL_SCHEME && tab.input.modified.query === id);
  }

  /** The proposal a title-bar button (which passes the editor's resource) or the palette (the active diff) means. */
  #proposalFrom(uri: vscode.Uri | undefined): [string, OpenProposal] | undefined {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const id = this.#idOf(uri) ?? (input instanceof vscode.TabInputTextDiff ? this.#idOf(input.modified) : undefined);
    const proposal = id ? this.#open.get(id) : undefined;
    return id && proposal ? [id, proposal] : undefined;
  }

  async #close(id: string): Promise<void> {
    this.#open.delete(id);
    await vscode.window.tabGroups.close(this.#tabsOf(id));
  }

  async #settle(uri: vscode.Uri | undefined, decision: 'accept' | 'reject'): Promise<void> {
    const found = this.#proposalFrom(uri);
    if (!found) {
      void vscode.window.showInformationMessage(vscode.l10n.t('There is no proposed change open here any more.'));
      return;
    }
    const [id, proposal] = found;
    try {
      if (decision === 'accept') await this.#accept(id, proposal);
      else {
        await this.#close(id);
        vscode.window.setStatusBarMessage(vscode.l10n.t('Proposed change rejected: {0} was not changed', vscode.workspace.asRelativePath(proposal.file, false)), 4000);
      }
    } catch (error) {
      void vscode.window.showErrorMessage(error instanceof Error ? error.message : String(error));
    }
  }

  async #accept(id: string, proposal: OpenProposal): Promise<void> {
    const name = vscode.workspace.asRelativePath(proposal.file, false);
    const document = await currentDocument(proposal.file);
    if (document?.getText() !== proposal.base) {
      // Never clobber what changed since the proposal: show the block against the file as it is now.
      await this.#close(id);
      void vscode.window.showWarningMessage(vscode.l10n.t('{0} changed after the change was proposed, so nothing was applied. The code block is proposed again against its current text.', name));
      await this.#repropose(proposal.target, proposal.file);
      return;
    }
    const edit = new vscode.WorkspaceEdit();
    let changed: vscode.Range | undefined;
    if (!document) {
      edit.createFile(proposal.file, { ignoreIfExists: false, contents: new TextEncoder().encode(proposal.proposed) });
    } else {
      const replacement = minimalReplacement(document.getText(), proposal.proposed);
      if (replacement) {
        const range = new vscode.Range(document.positionAt(replacement.start), document.positionAt(replacement.end));
        edit.replace(proposal.file, range, replacement.text);
        changed = new vscode.Range(range.start, range.start);
      }
    }
    if (!(await vscode.workspace.applyEdit(edit))) {
      throw new Error(vscode.l10n.t('VS Code refused to change {0} (is it read-only?). Nothing was changed.', name));
    }
    await this.#close(id);
    const shown = await vscode.window.showTextDocument(proposal.file, { preview: false, ...(changed && { selection: changed }) });
    shown.revealRange(shown.selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Applied to {0}: Undo takes the change back', name), 6000);
  }
}
