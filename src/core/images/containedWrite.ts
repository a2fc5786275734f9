import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import { isPathInside } from './containment';

/**
 * Writing into a folder on disk without ever leaving its root, even when a folder on the way is
 * swapped for a symbolic link while the write is under way (another process in the workspace can do
 * that between any two awaits).
 */

export class ContainmentError extends Error {
  override readonly name = 'ContainmentError';
}

export const CASE_INSENSITIVE = process.platform === 'win32' || process.platform === 'darwin';

/** Test seams: each runs at its point of the write, so that a test can swap a folder exactly there. */
export interface WriteRaceHooks {
  /** After the folder was checked, before the file is created. */
  beforeCreate?: () => Promise<void>;
  /** After the file was created (still empty), before where it landed is checked. */
  beforeVerify?: () => Promise<void>;
}

function errorCode(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

/**
 * Walks `folder` (below `root`) one segment at a time, refusing any existing segment that resolves
 * (through a symbolic link) outside the root: `mkdir -p` would follow such a link and write elsewhere.
 * With `create`, missing segments are made; without, the walk stops at the first missing one.
 */
export async function walkLocalFolder(root: string, folder: string, create: boolean): Promise<void> {
  const realRoot = await fs.realpath(root);
  const relative = path.relative(root, folder);
  let current = root;
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
    if (!isPathInside(realRoot, resolved, CASE_INSENSITIVE)) {
      throw new ContainmentError(l10n.t('The image folder "{0}" leads outside the workspace folder (to "{1}"), so nothing is saved there.', current, resolved));
    }
    if (!(await fs.stat(resolved)).isDirectory()) throw new ContainmentError(l10n.t('"{0}" exists and is not a folder.', current));
  }
}

/**
 * Creates `file` with `bytes` only when nothing exists at that name (false when something does), and
 * only inside `root`. The name is opened with O_CREAT|O_EXCL (atomic, and it never follows a link
 * planted at the name), but the folders on the way are walked again by the kernel: one swapped for a
 * link since they were checked would put the file elsewhere. So the new file is checked while still
 * empty: its one link must be at a real path inside the root and be the very file opened (same device
 * and inode). Only then are the bytes written, through the open handle; a file that landed outside is
 * removed, and nothing is ever written to it.
 */
export async function createFileInside(root: string, file: string, bytes: Uint8Array, hooks: WriteRaceHooks = {}): Promise<boolean> {
  const realRoot = await fs.realpath(root);
  await hooks.beforeCreate?.();
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'wx');
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    await hooks.beforeVerify?.();
    const opened = await handle.stat();
    const where = await fs.realpath(file).catch(() => undefined);
    const found = where === undefined ? undefined : await fs.stat(where).catch(() => undefined);
    const same = found !== undefined && found.dev === opened.dev && found.ino === opened.ino;
    if (!same || opened.nlink !== 1 || !isPathInside(realRoot, where ?? '', CASE_INSENSITIVE)) {
      // Remove it where it was found (it is ours: created just now, empty); if it moved, it stays empty.
      if (same && where !== undefined) await fs.unlink(where).catch(() => undefined);
      throw new ContainmentError(l10n.t('A folder on the way to "{0}" was replaced while the image was being saved, and the file would have landed outside the workspace folder; nothing was written.', file));
    }
    await handle.writeFile(bytes);
    return true;
  } finally {
    await handle.close();
  }
}
