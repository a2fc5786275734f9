import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import vscode = require('vscode');
import { isPathInside } from '../../core/images/containment';
import { candidateFileNames, sidecarName } from '../../core/images/fileNames';

/** Where images go: `folder` is inside `root`, and nothing may be written outside `root`. */
export interface SaveTarget {
  root: vscode.Uri;
  folder: vscode.Uri;
}

export interface WrittenImage {
  image: vscode.Uri;
  sidecar: vscode.Uri;
}

export class ContainmentError extends Error {
  override readonly name = 'ContainmentError';
}

const CASE_INSENSITIVE = process.platform === 'win32' || process.platform === 'darwin';

function isInside(root: vscode.Uri, candidate: vscode.Uri): boolean {
  if (root.scheme !== candidate.scheme || root.authority !== candidate.authority) return false;
  return root.scheme === 'file'
    ? isPathInside(root.fsPath, candidate.fsPath, CASE_INSENSITIVE)
    : isPathInside(root.path, candidate.path);
}

function errorCode(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

/**
 * Walks the target folder one segment at a time, refusing any existing segment that resolves
 * (through a symbolic link) outside the root: `mkdir -p` would follow such a link and write elsewhere.
 * With `create`, missing segments are made; without, the walk stops at the first missing one.
 */
async function walkLocalFolder(target: SaveTarget, create: boolean): Promise<void> {
  const root = await fs.realpath(target.root.fsPath);
  const relative = path.relative(target.root.fsPath, target.folder.fsPath);
  let current = target.root.fsPath;
  for (const segment of relative.split(path.sep).filter(Boolean)) {
    current = path.join(current, segment);
    try {
      if (create) await fs.mkdir(current);
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    let resolved: string;
    try {
      resolved = await fs.realpath(current);
    } catch (error) {
      if (!create && errorCode(error) === 'ENOENT') return;
      throw error;
    }
    if (!isPathInside(root, resolved, CASE_INSENSITIVE)) {
      throw new ContainmentError(vscode.l10n.t('The image folder "{0}" leads outside the workspace folder (to "{1}"), so nothing is saved there.', current, resolved));
    }
    if (!(await fs.stat(resolved)).isDirectory()) throw new ContainmentError(vscode.l10n.t('"{0}" exists and is not a folder.', current));
  }
}

/** Checks, before anything is requested, that the target cannot lead outside its root. */
export async function checkTarget(target: SaveTarget): Promise<string | undefined> {
  if (!isInside(target.root, target.folder)) return vscode.l10n.t('"{0}" is not inside "{1}".', target.folder.toString(true), target.root.toString(true));
  if (target.folder.scheme !== 'file') return undefined;
  try {
    await walkLocalFolder(target, false);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Creates a file only when nothing exists at that name. On disk this is O_CREAT|O_EXCL, atomic even
 * against another writer, and it does not follow a symbolic link planted at the name. Other file
 * systems (virtual workspaces) offer no exclusive create through the API: stat, then write.
 */
async function createExclusive(uri: vscode.Uri, bytes: Uint8Array): Promise<boolean> {
  if (uri.scheme === 'file') {
    try {
      await fs.writeFile(uri.fsPath, bytes, { flag: 'wx' });
      return true;
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return false;
      throw error;
    }
  }
  if (await exists(uri)) return false;
  await vscode.workspace.fs.writeFile(uri, bytes);
  return true;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return false;
    throw error;
  }
}

async function removeOwnFile(uri: vscode.Uri): Promise<void> {
  await vscode.workspace.fs.delete(uri, { useTrash: false }).then(undefined, () => undefined);
}

/**
 * Writes the image and its sidecar under the first free name (`name.png`, `name-2.png`, …): never
 * over an existing file, never outside the target's root.
 */
export async function writeImageWithSidecar(
  target: SaveTarget,
  baseName: string,
  extension: string,
  bytes: Uint8Array,
  sidecarFor: (imageName: string) => Uint8Array,
): Promise<WrittenImage> {
  if (!isInside(target.root, target.folder)) throw new ContainmentError(vscode.l10n.t('"{0}" is not inside "{1}".', target.folder.toString(true), target.root.toString(true)));
  if (target.folder.scheme === 'file') await walkLocalFolder(target, true);
  else await vscode.workspace.fs.createDirectory(target.folder);

  const names = candidateFileNames(baseName, extension, () => randomBytes(4).toString('hex'));
  for (let attempt = 0; attempt < 2000; attempt++) {
    const name = names.next().value;
    const image = vscode.Uri.joinPath(target.folder, name);
    const sidecar = vscode.Uri.joinPath(target.folder, sidecarName(name));
    if (!isInside(target.folder, image) || !isInside(target.folder, sidecar)) throw new ContainmentError(vscode.l10n.t('The file name "{0}" is not a plain name.', name));
    // A sidecar left from a deleted image keeps its name taken, so the pair stays together.
    if (await exists(sidecar)) continue;
    if (!(await createExclusive(image, bytes))) continue;
    if (await createExclusive(sidecar, sidecarFor(name))) return { image, sidecar };
    // Another writer took the sidecar name between the check and the create: give the name up.
    await removeOwnFile(image);
  }
  throw new Error(vscode.l10n.t('No free file name for "{0}" in {1}.', `${baseName}.${extension}`, target.folder.toString(true)));
}
