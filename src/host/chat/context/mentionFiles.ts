import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import vscode = require('vscode');
import { isPathInside } from '../../../core/images/containment';
import { binaryRefusal, capRefusal, fileSizeRefusal, isBinary, outsideWorkspaceRefusal } from '../../../core/chat/mentions/mentionText';
import { gitApi } from './gitApi';

/** Files listed for the picker at most: a monorepo's first 20,000 are enough to type a name into. */
const MAX_LISTED_FILES = 20_000;

export type FileContent = { content: string; languageId: string } | { refused: string };

/** A path as the picker shows it: workspace-relative, with the folder's name in a multi-root workspace. */
export function workspacePath(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

/**
 * The workspace's files for `#` mentions: `findFiles` without an exclude applies `files.exclude`;
 * `.gitignore` is applied through the Git extension (`checkIgnore`), which knows git's every rule.
 * The listing is kept until the picker opens again (an empty query), so typing filters it at once.
 */
export class WorkspaceFiles {
  #listing: Promise<Map<string, vscode.Uri>> | undefined;

  list(refresh: boolean): Promise<Map<string, vscode.Uri>> {
    if (refresh || !this.#listing) this.#listing = listFiles().catch(() => new Map());
    return this.#listing;
  }

  /** The listed file at a path the webview sent; anything else (a path it made up) is not a workspace file. */
  async find(relativePath: string): Promise<vscode.Uri | undefined> {
    return (await this.list(false)).get(relativePath);
  }
}

async function listFiles(): Promise<Map<string, vscode.Uri>> {
  const uris = await vscode.workspace.findFiles('**/*', undefined, MAX_LISTED_FILES);
  const ignored = await gitIgnored(uris);
  const files = new Map<string, vscode.Uri>();
  for (const uri of uris) if (!ignored.has(uri.fsPath)) files.set(workspacePath(uri), uri);
  return new Map([...files].sort(([a], [b]) => a.localeCompare(b)));
}

async function gitIgnored(uris: readonly vscode.Uri[]): Promise<Set<string>> {
  const git = await gitApi();
  if (!('api' in git)) return new Set();
  const ignored = new Set<string>();
  for (const repository of git.api.repositories) {
    const inside = uris.filter((uri) => isPathInside(repository.rootUri.fsPath, uri.fsPath, caseInsensitiveFs())).map((uri) => uri.fsPath);
    if (!inside.length) continue;
    for (const file of await repository.checkIgnore(inside).catch(() => new Set<string>())) ignored.add(file);
  }
  return ignored;
}

function caseInsensitiveFs(): boolean {
  return process.platform === 'win32' || process.platform === 'darwin';
}

/** Whether the file, with every link on its way resolved, is inside a workspace folder (resolved the same way). */
async function resolvesInsideWorkspace(uri: vscode.Uri): Promise<boolean> {
  const real = await fs.realpath(uri.fsPath);
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme !== 'file') continue;
    const root = await fs.realpath(folder.uri.fsPath).catch(() => undefined);
    if (root && isPathInside(root, real, caseInsensitiveFs())) return true;
  }
  return false;
}

/**
 * A workspace file's text for a mention, or why it is refused: a link out of the workspace, a file
 * too large for the cap (by its size on disk, before reading), binary content. An open editor's
 * unsaved text is what the user sees, so it is what is sent.
 */
export async function readMentionedFile(uri: vscode.Uri, label: string, cap: number): Promise<FileContent> {
  if (uri.scheme === 'file' && !(await resolvesInsideWorkspace(uri))) return { refused: outsideWorkspaceRefusal(label) };
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
  if (open?.isDirty) {
    const content = open.getText();
    const tooLarge = capRefusal(label, content.length, cap);
    return tooLarge ? { refused: tooLarge } : { content, languageId: open.languageId };
  }
  const stat = await vscode.workspace.fs.stat(uri);
  const sizeRefusal = fileSizeRefusal(label, stat.size, cap);
  if (sizeRefusal) return { refused: sizeRefusal };
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (isBinary(bytes)) return { refused: binaryRefusal(label) };
  const content = new TextDecoder().decode(bytes);
  const tooLarge = capRefusal(label, content.length, cap);
  if (tooLarge) return { refused: tooLarge };
  return { content, languageId: open?.languageId ?? path.extname(uri.path).slice(1) };
}
