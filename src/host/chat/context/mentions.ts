import * as path from 'node:path';
import vscode = require('vscode');
import { newId, type Attachment } from '../../../core/chat/conversation';
import type { MentionItemView, MentionKind, MentionRefusal, MentionTarget } from '../../../core/chat/protocol/chatProtocol';
import { mentionItems } from '../../../core/chat/mentions/mentionItems';
import {
  capRefusal, changesText, problemCount, problemsText, terminalCommandText, terminalPlainText,
  type FileProblems, type ProblemSeverity, type RepositoryChanges,
} from '../../../core/chat/mentions/mentionText';
import { Disposable } from '../../shared/disposable';
import { contextCapChars } from '../chatSettings';
import { captureContext, type EditorTracker } from './editorContext';
import { gitApi } from './gitApi';
import { readMentionedFile, WorkspaceFiles, workspacePath } from './mentionFiles';
import { terminalSelection, TerminalOutputs } from './terminalOutput';

type Content = Omit<Attachment, 'id'>;

/** One `#` source besides files (Mentions.sources). */
interface MentionSource {
  row(activeFile: string | undefined): Omit<MentionItemView, 'kind'>;
  attach(label: string): Promise<Content | MentionRefusal>;
}

/**
 * A diagnostic's severity by name. A function, not a table keyed by the enum: nothing of the vscode
 * API is read while the bundle loads (the activation benchmark loads it against an inert stub).
 */
function severityName(severity: vscode.DiagnosticSeverity): ProblemSeverity {
  switch (severity) {
    case vscode.DiagnosticSeverity.Error: return 'error';
    case vscode.DiagnosticSeverity.Warning: return 'warning';
    case vscode.DiagnosticSeverity.Information: return 'information';
    default: return 'hint';
  }
}
/** The Git API's Status.UNTRACKED (git.d.ts). */
const GIT_UNTRACKED = 7;

/**
 * The `#` picker's host side: the rows for a query, and a picked row's content as an attachment (the
 * same attachments the composer's buttons add), or why it attaches nothing. Everything here only
 * reads, so it works in an untrusted workspace too.
 */
export class Mentions extends Disposable {
  readonly #files = new WorkspaceFiles();
  readonly #terminals = this.register(new TerminalOutputs());

  readonly #editors: EditorTracker;

  constructor(editors: EditorTracker) {
    super();
    this.#editors = editors;
  }

  async query(query: string): Promise<MentionItemView[]> {
    const files = await this.#files.list(query === '');
    const openFiles = vscode.window.tabGroups.all.flatMap((group) => group.tabs)
      .map((tab) => (tab.input instanceof vscode.TabInputText ? workspacePath(tab.input.uri) : undefined))
      .filter((p): p is string => p !== undefined && files.has(p));
    return mentionItems(query, { others: this.#otherSources(), openFiles: [...new Set(openFiles)], files: [...files.keys()] });
  }

  /**
   * The `#` sources besides files, one row each: what the picker shows (`row`, given the active
   * file's workspace path) and what a pick attaches (`attach`, given the row's label for a refusal).
   * A new kind of mention is a row here, its kind in core/chat/attachmentViews.ts and its icon in the
   * webview (both checked by the compiler); the picker lists them in this order.
   */
  readonly #sources: { readonly [K in Exclude<MentionKind, 'file'>]: MentionSource } = {
    selection: {
      row: (name) => ({ label: vscode.l10n.t('Selection'), detail: name ?? vscode.l10n.t('the editor\'s selected text') }),
      attach: async () => captureContext(this.#editors.editor(), 'selection'),
    },
    problemsFile: {
      row: (name) => ({ label: vscode.l10n.t('Problems in the active file'), ...(name !== undefined && { detail: name }) }),
      attach: async (label) => {
        const editor = this.#editors.editor();
        if (!editor) return { label, message: vscode.l10n.t('Open a file in an editor first: there is no active file.') };
        return problems([[editor.document.uri, vscode.languages.getDiagnostics(editor.document.uri)]], workspacePath(editor.document.uri), label);
      },
    },
    problemsWorkspace: {
      row: () => ({ label: vscode.l10n.t('Problems in the workspace'), detail: vscode.l10n.t('every file\'s diagnostics') }),
      attach: async (label) => problems(vscode.languages.getDiagnostics(), vscode.l10n.t('the workspace'), label),
    },
    terminal: {
      row: () => ({ label: vscode.l10n.t('Terminal'), detail: vscode.l10n.t('its selection, or the last command and its output') }),
      attach: (label) => this.#terminal(label),
    },
    changes: {
      row: () => ({ label: vscode.l10n.t('Changes'), detail: vscode.l10n.t('the working tree\'s diff (Git)') }),
      attach: (label) => changes(label),
    },
  };

  #otherSources(): MentionItemView[] {
    const editor = this.#editors.editor();
    const name = editor ? workspacePath(editor.document.uri) : undefined;
    return (Object.entries(this.#sources) as [Exclude<MentionKind, 'file'>, MentionSource][]).map(([kind, source]) => ({ kind, ...source.row(name) }));
  }

  /** The attachment for a picked row, or the refusal its chip shows. */
  async resolve(target: MentionTarget): Promise<Attachment | MentionRefusal> {
    const label = target.kind === 'file' ? target.path ?? '' : this.#sources[target.kind].row(undefined).label;
    try {
      const content = target.kind === 'file' ? await this.#file(target.path ?? '') : await this.#sources[target.kind].attach(label);
      if ('message' in content) return content;
      const tooLarge = capRefusal(content.label, content.content.length, contextCapChars());
      return tooLarge ? { label: content.label, message: tooLarge } : { id: newId(), ...content };
    } catch (error) {
      return { label, message: error instanceof Error ? error.message : String(error) };
    }
  }

  async #file(relativePath: string): Promise<Content | MentionRefusal> {
    const uri = await this.#files.find(relativePath);
    if (!uri) return { label: relativePath, message: vscode.l10n.t('{0} is not a file of this workspace (or files.exclude or .gitignore leave it out).', relativePath) };
    const read = await readMentionedFile(uri, relativePath, contextCapChars());
    if ('refused' in read) return { label: relativePath, message: read.refused };
    const name = relativePath.split('/').at(-1) ?? relativePath;
    return { kind: 'file', label: name, detail: relativePath, content: read.content, languageId: read.languageId };
  }

  async #terminal(label: string): Promise<Content | MentionRefusal> {
    const terminal = vscode.window.activeTerminal;
    if (!terminal) return { label, message: vscode.l10n.t('No terminal is open.') };
    const name = terminalName(terminal);
    const selected = await terminalSelection();
    if (selected) return { kind: 'terminal', label: vscode.l10n.t('{0}: selection', name), detail: vscode.l10n.t('{0} (selected text)', name), content: terminalPlainText(selected) };
    if (!terminal.shellIntegration) {
      // The selection can only be read on the desktop (terminalSelection): only there is selecting a way out.
      const why = vscode.l10n.t('{0} has no shell integration, so its last command cannot be read.', whichTerminal(terminal));
      const way = vscode.env.uiKind === vscode.UIKind.Web
        ? vscode.l10n.t('Use a shell that VS Code integrates with (terminal.integrated.shellIntegration.enabled), or paste the output into your message.')
        : vscode.l10n.t('Select its output and mention the terminal again, or use a shell that VS Code integrates with (terminal.integrated.shellIntegration.enabled).');
      return { label, message: `${why} ${way}` };
    }
    const command = this.#terminals.lastCommand(terminal);
    if (!command) return { label, message: vscode.l10n.t('{0} has not finished a command since this window opened. Run one, or select text in it.', whichTerminal(terminal)) };
    return { kind: 'terminal', label: vscode.l10n.t('{0}: last command', name), detail: vscode.l10n.t('{0} (last command: {1})', name, command.commandLine), content: terminalCommandText(command) };
  }
}

/** A terminal's name is empty until its shell reports a title: then it is named by what it is. */
function terminalName(terminal: vscode.Terminal): string {
  return terminal.name.trim() || vscode.l10n.t('Terminal');
}

/** The subject of a sentence about the active terminal, by name when it has one. */
function whichTerminal(terminal: vscode.Terminal): string {
  const name = terminal.name.trim();
  return name ? vscode.l10n.t('The terminal "{0}"', name) : vscode.l10n.t('The active terminal');
}

function problems(entries: readonly [vscode.Uri, readonly vscode.Diagnostic[]][], where: string, label: string): Content | MentionRefusal {
  const files: FileProblems[] = entries.filter(([, list]) => list.length > 0).map(([uri, list]) => ({
    path: workspacePath(uri),
    problems: list.map((d) => ({
      severity: severityName(d.severity),
      line: d.range.start.line + 1,
      column: d.range.start.character + 1,
      message: d.message,
      ...(d.source !== undefined && { source: d.source }),
      ...(d.code !== undefined && { code: String(typeof d.code === 'object' ? d.code.value : d.code) }),
    })),
  }));
  const count = problemCount(files);
  if (!count) return { label, message: vscode.l10n.t('No problems are reported in {0}.', where) };
  return { kind: 'problems', label: vscode.l10n.t('Problems in {0} ({1})', where, count), detail: where, content: problemsText(files) };
}

async function changes(label: string): Promise<Content | MentionRefusal> {
  const git = await gitApi();
  if (!('api' in git)) return { label, message: git.unavailable };
  const repositories = git.api.repositories.filter((repo) => vscode.workspace.getWorkspaceFolder(repo.rootUri) !== undefined);
  if (!repositories.length) return { label, message: vscode.l10n.t('The workspace has no Git repository.') };
  const parts: RepositoryChanges[] = await Promise.all(repositories.map(async (repo) => ({
    root: repositoryName(repo.rootUri),
    staged: await repo.diff(true),
    unstaged: await repo.diff(false),
    untracked: [...repo.state.workingTreeChanges.filter((c) => c.status === GIT_UNTRACKED), ...(repo.state.untrackedChanges ?? [])]
      .map((change) => workspacePath(change.uri)),
  })));
  const content = changesText(parts);
  if (!content) return { label, message: vscode.l10n.t('The working tree has no changes.') };
  return { kind: 'changes', label: vscode.l10n.t('Changes'), detail: parts.map((p) => p.root).join(', '), content, languageId: 'diff' };
}

/** The workspace folder's name, and the path below it for a nested repository (never an absolute path). */
function repositoryName(root: vscode.Uri): string {
  const folder = vscode.workspace.getWorkspaceFolder(root);
  if (!folder) return path.basename(root.fsPath);
  const below = path.relative(folder.uri.fsPath, root.fsPath).split(path.sep).join('/');
  return below ? `${folder.name}/${below}` : folder.name;
}
