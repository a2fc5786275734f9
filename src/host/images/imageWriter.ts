import { randomBytes } from 'node:crypto';
import vscode = require('vscode');
import { CASE_INSENSITIVE, ContainmentError, createFileInside, walkLocalFolder } from '../../core/images/containedWrite';
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

function isInside(root: vscode.Uri, candidate: vscode.Uri): boolean {
  if (root.scheme !== candidate.scheme || root.authority !== candidate.authority) return false;
  return root.scheme === 'file'
    ? isPathInside(root.fsPath, candidate.fsPath, CASE_INSENSITIVE)
    : isPathInside(root.path, candidate.path);
}

/** Checks, before anything is requested, that the target cannot lead outside its root. */
export async function checkTarget(target: SaveTarget): Promise<string | undefined> {
  if (!isInside(target.root, target.folder)) return vscode.l10n.t('"{0}" is not inside "{1}".', target.folder.toString(true), target.root.toString(true));
  if (target.folder.scheme !== 'file') return undefined;
  try {
    await walkLocalFolder(target.root.fsPath, target.folder.fsPath, false);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Creates a file only when nothing exists at that name. On disk: exclusively, and only where it stays
 * inside the root (createFileInside). Other file systems (virtual workspaces) offer no exclusive
 * create through the API: stat, then write.
 */
async function createExclusive(target: SaveTarget, uri: vscode.Uri, bytes: Uint8Array): Promise<boolean> {
  if (uri.scheme === 'file') return createFileInside(target.root.fsPath, uri.fsPath, bytes);
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
  if (target.folder.scheme === 'file') await walkLocalFolder(target.root.fsPath, target.folder.fsPath, true);
  else await vscode.workspace.fs.createDirectory(target.folder);

  const names = candidateFileNames(baseName, extension, () => randomBytes(4).toString('hex'));
  for (let attempt = 0; attempt < 2000; attempt++) {
    const name = names.next().value;
    const image = vscode.Uri.joinPath(target.folder, name);
    const sidecar = vscode.Uri.joinPath(target.folder, sidecarName(name));
    if (!isInside(target.folder, image) || !isInside(target.folder, sidecar)) throw new ContainmentError(vscode.l10n.t('The file name "{0}" is not a plain name.', name));
    // A sidecar left from a deleted image keeps its name taken, so the pair stays together.
    if (await exists(sidecar)) continue;
    if (!(await createExclusive(target, image, bytes))) continue;
    if (await createExclusive(target, sidecar, sidecarFor(name))) return { image, sidecar };
    // Another writer took the sidecar name between the check and the create: give the name up.
    await removeOwnFile(image);
  }
  throw new Error(vscode.l10n.t('No free file name for "{0}" in {1}.', `${baseName}.${extension}`, target.folder.toString(true)));
}
