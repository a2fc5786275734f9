import * as fs from 'node:fs/promises';
import vscode = require('vscode');
import { isInsideWorkspace, realTarget, resolveNamedPath, type PathProbe } from '../../../core/apply/workspacePath';

/**
 * Which file Apply proposes a change to: the file the block names, else the file of the editor the
 * user last worked in, else one the user picks. Whatever the source, the file must be inside a
 * workspace folder once symbolic links are resolved.
 */

const probe: PathProbe = {
  realpath: (p) => fs.realpath(p),
  exists: (p) => fs.lstat(p).then(() => true, () => false),
};

function workspaceRoots(): string[] {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
  if (folders.length === 0) throw new Error(vscode.l10n.t('Open a folder first: Apply changes files in the workspace only, and this window has none.'));
  return folders.map((folder) => folder.uri.fsPath);
}

async function realRoots(roots: string[]): Promise<string[]> {
  return Promise.all(roots.map((root) => fs.realpath(root).catch(() => root)));
}

/** Whether a file path is in the workspace with its links resolved (a dangling link is not). */
export async function isContained(filePath: string): Promise<boolean> {
  const roots = workspaceRoots();
  if (!isInsideWorkspace(roots, filePath)) return false;
  const real = await realTarget(filePath, probe);
  return real !== undefined && isInsideWorkspace(await realRoots(roots), real);
}

function outsideError(shown: string): Error {
  return new Error(vscode.l10n.t('"{0}" is outside the workspace (or links out of it). Apply changes files in the workspace only; nothing was changed.', shown));
}

async function namedFile(named: string): Promise<vscode.Uri> {
  const resolution = resolveNamedPath(workspaceRoots(), named);
  if (!resolution.ok) throw new Error(resolution.reason);
  // The first folder that has the file; a file no folder has is proposed as new in the first.
  const existing = await Promise.all(resolution.candidates.map((candidate) => probe.exists(candidate)));
  const chosen = resolution.candidates[Math.max(0, existing.indexOf(true))];
  if (!(await isContained(chosen))) throw outsideError(named);
  return vscode.Uri.file(chosen);
}

async function pickedFile(): Promise<vscode.Uri | undefined> {
  const [root] = workspaceRoots();
  const picked = await vscode.window.showOpenDialog({
    defaultUri: vscode.Uri.file(root),
    canSelectFiles: true,
    canSelectFolders: false,
    canSelectMany: false,
    openLabel: vscode.l10n.t('Propose the Change'),
    title: vscode.l10n.t('Apply the code block to which file?'),
  });
  const uri = picked?.[0];
  if (uri && (uri.scheme !== 'file' || !(await isContained(uri.fsPath)))) throw outsideError(uri.fsPath);
  return uri;
}

/** The target file, or undefined when the user cancelled the pick. Throws a user-facing Error for a file outside the workspace. */
export async function chooseTargetFile(namedPath: string | undefined, editor: vscode.TextEditor | undefined): Promise<vscode.Uri | undefined> {
  if (namedPath !== undefined) return namedFile(namedPath);
  const document = editor?.document;
  if (document && !document.isClosed && document.uri.scheme === 'file' && (await isContained(document.uri.fsPath))) return document.uri;
  return pickedFile();
}
