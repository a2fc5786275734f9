import * as fs from 'node:fs/promises';
import type { ChatImage } from '../chatImages';
import { imageAttachments } from '../conversation';
import { replayLog } from './historyLog';
import { imageFile, imageFolder } from './historyFileNames';

/**
 * The images of a conversation, as files beside its log (`images/<id>/<sha256>.<ext>`), never inlined
 * in it. A file's name is its content's hash, so it is written once and never changes: two windows
 * writing the same image write the same bytes, through a temporary file renamed into place, and a
 * log line that names an image is written only after the image (historyStore.ts queues both).
 */
export class HistoryImages {
  readonly #dir: string;
  readonly #pid: number;

  constructor(dir: string, pid: number) {
    this.#dir = dir;
    this.#pid = pid;
  }

  /** Writes the images that still hold their bytes and are not on disk yet; then they drop the bytes. */
  async write(conversationId: string, images: readonly ChatImage[]): Promise<void> {
    const pending = images.filter((image) => image.data !== undefined);
    if (!pending.length) return;
    await fs.mkdir(imageFolder(this.#dir, conversationId), { recursive: true });
    for (const image of pending) {
      const target = imageFile(this.#dir, conversationId, image.file);
      if (!(await exists(target))) {
        const temp = `${target}.${this.#pid}.tmp`;
        await fs.writeFile(temp, image.data!);
        await fs.rename(temp, target);
      }
      delete image.data;
    }
  }

  async read(conversationId: string, file: string): Promise<Buffer> {
    return fs.readFile(imageFile(this.#dir, conversationId, file));
  }

  /**
   * Deletes those of `files` on disk that no message of the saved log names: an image another
   * window's message names stays (a window writes an image before the line that names it, in its
   * own queue; the same image attached again is the same file). No log yet (the conversation's first
   * question was taken back) names nothing; a log that cannot be read, or not whole, deletes nothing.
   * A file not on disk costs a stat, not a log read.
   */
  async forget(conversationId: string, files: readonly string[], readLog: () => Promise<string>): Promise<void> {
    const written = await this.#existing(conversationId, files);
    if (!written.length) return;
    let text = '';
    try {
      text = await readLog();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return;
    }
    const { conversation, problems } = text ? replayLog(text) : { conversation: undefined, problems: [] };
    if (text && (!conversation || problems.length)) return;
    const named = new Set(imageAttachments(conversation?.messages ?? []).map((attachment) => attachment.image.file));
    for (const file of written) if (!named.has(file)) await this.#removeFile(conversationId, file);
  }

  /** Those of `files` that are on disk. */
  async #existing(conversationId: string, files: readonly string[]): Promise<string[]> {
    const found = await Promise.all(files.map((file) => exists(imageFile(this.#dir, conversationId, file))));
    return files.filter((_, index) => found[index]);
  }

  /** One image no message names any more. */
  #removeFile(conversationId: string, file: string): Promise<void> {
    return fs.rm(imageFile(this.#dir, conversationId, file), { force: true });
  }

  /** With the conversation: its folder and everything in it. */
  remove(conversationId: string): Promise<void> {
    return fs.rm(imageFolder(this.#dir, conversationId), { recursive: true, force: true });
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.stat(file);
    return true;
  } catch {
    return false;
  }
}
