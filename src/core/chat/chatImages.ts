import * as l10n from '@vscode/l10n';
import { createHash } from 'node:crypto';
import { describeBytes } from '../byteSize';
import { sniffImageType } from '../api/imageData';
import { CHAT_IMAGE_EXTENSIONS, type ChatImageMime } from './protocol/chatProtocol';

/**
 * Images attached to a chat message: what is accepted (PNG, JPEG, WebP, GIF, told by their magic
 * bytes, never by a file name), up to what size, and how they are named on disk and on the wire.
 */

export { CHAT_IMAGE_EXTENSIONS, type ChatImageMime } from './protocol/chatProtocol';

/** `inference.chat.maxImageMB`'s default: many services take 5 MB or more per image; the spec names no size. */
export const DEFAULT_MAX_IMAGE_MB = 5;
const MB = 1024 * 1024;

/**
 * An attached image: `file` is its name in the conversation's image folder, the SHA-256 of its bytes
 * with the type's extension, so that a file, once written, never changes. `data` is held only until
 * the file is written (a pending attachment); after that the bytes are read from the file.
 */
export interface ChatImage {
  mime: ChatImageMime;
  bytes: number;
  file: string;
  data?: Uint8Array;
}

const IMAGE_FILE = /^[0-9a-f]{64}\.(?:png|jpg|webp|gif)$/;

export function isChatImageMime(value: unknown): value is ChatImageMime {
  return typeof value === 'string' && Object.hasOwn(CHAT_IMAGE_EXTENSIONS, value);
}

/** Whether `name` is an image file's name as `chatImage` makes it (nothing else is read or written). */
export function isImageFileName(name: string): boolean {
  return IMAGE_FILE.test(name);
}

export function maxImageBytes(megabytes: number): number {
  return Math.round((Number.isFinite(megabytes) && megabytes > 0 ? megabytes : DEFAULT_MAX_IMAGE_MB) * MB);
}

/** The image in `data`, or an error that says why it cannot be attached (its type, or its size against the cap). */
export function chatImage(data: Uint8Array, name: string, maxBytes: number): ChatImage {
  const mime = sniffImageType(data);
  if (!isChatImageMime(mime)) {
    throw new Error(l10n.t('{0} is not a PNG, JPEG, WebP or GIF image (told by its content, not its name).', name));
  }
  if (data.length > maxBytes) {
    throw new Error(l10n.t('{0} is {1}; images of up to {2} can be attached (setting inference.chat.maxImageMB). It was not resized.', name, describeBytes(data.length), describeBytes(maxBytes)));
  }
  const hash = createHash('sha256').update(data).digest('hex');
  return { mime, bytes: data.length, file: `${hash}.${CHAT_IMAGE_EXTENSIONS[mime]}`, data };
}

/** The image as the common chat format's `image_url` carries it. */
export function imageDataUrl(mime: ChatImageMime, data: Uint8Array): string {
  return `data:${mime};base64,${Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64')}`;
}
