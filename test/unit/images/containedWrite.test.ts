import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { ContainmentError, createFileInside, walkLocalFolder } from '../../../src/core/images/containedWrite';

const IMAGE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

/** Every file under a folder with its size (links not followed). */
async function filesUnder(folder: string): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const entry of await fs.readdir(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) found[path.relative(folder, path.join(entry.parentPath, entry.name))] = (await fs.stat(path.join(entry.parentPath, entry.name))).size;
  }
  return found;
}

// Issue 27, item 8: the folder was checked, then the file written by path a few awaits later.
describe('createFileInside: the containment check holds for the file actually written', () => {
  let base: string;
  let root: string;
  let folder: string;
  let outside: string;

  beforeEach(async () => {
    base = await fs.mkdtemp(path.join(os.tmpdir(), 'contained-write-'));
    root = path.join(base, 'workspace');
    folder = path.join(root, 'images');
    outside = path.join(base, 'outside');
    await fs.mkdir(outside, { recursive: true });
    await fs.mkdir(root);
    await walkLocalFolder(root, folder, true);
  });

  afterEach(async () => {
    await fs.rm(base, { recursive: true, force: true });
  });

  /** What another process in the workspace could do at any moment: the image folder becomes a link out. */
  const swapFolderForLink = async () => {
    await fs.rename(folder, `${folder}-moved`);
    await fs.symlink(outside, folder, 'dir');
  };
  const swapBack = async () => {
    await fs.unlink(folder);
    await fs.rename(`${folder}-moved`, folder);
  };

  it('writes a new file, and reports a taken name without touching it', async () => {
    const file = path.join(folder, 'a.png');
    assert.equal(await createFileInside(root, file, IMAGE), true);
    assert.deepEqual(new Uint8Array(await fs.readFile(file)), IMAGE);
    assert.equal(await createFileInside(root, file, new Uint8Array([9])), false);
    assert.deepEqual(new Uint8Array(await fs.readFile(file)), IMAGE);
  });

  it('refuses, and removes the file, when the folder became a link out after the check', async () => {
    await assert.rejects(createFileInside(root, path.join(folder, 'a.png'), IMAGE, { beforeCreate: swapFolderForLink }), ContainmentError);
    assert.deepEqual(await filesUnder(outside), {}, 'nothing is left outside');
  });

  it('writes nothing outside when the link is swapped back before the file is checked', async () => {
    // The file lands outside, then the folder is restored, so its path inside looks innocent again.
    await assert.rejects(createFileInside(root, path.join(folder, 'a.png'), IMAGE, { beforeCreate: swapFolderForLink, beforeVerify: swapBack }), ContainmentError);
    assert.deepEqual(await filesUnder(outside), { 'a.png': 0 }, 'the file that landed outside stays empty');
    assert.deepEqual(await filesUnder(root), {});
  });

  it('refuses a file that another link also reaches', async () => {
    const file = path.join(folder, 'a.png');
    await assert.rejects(createFileInside(root, file, IMAGE, { beforeVerify: () => fs.link(file, path.join(outside, 'copy.png')) }), ContainmentError);
    assert.deepEqual(await filesUnder(outside), { 'copy.png': 0 });
    assert.deepEqual(await filesUnder(root), {});
  });
});
