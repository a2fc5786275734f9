/** A message's content in the common chat format: a string, or text and image parts (image_url with a data URL). */
import { badRequest } from './errors';
import { isRecord } from './http';

/** What the request log keeps of an image part: its type and decoded size, never the data. */
export interface ImagePartLog {
  mime: string;
  bytes: number;
}

const IMAGE_DATA_URL = /^data:(image\/(?:png|jpeg|webp|gif));base64,([A-Za-z0-9+/]*={0,2})$/;

/** The image in an `image_url` part: a data URL of PNG, JPEG, WebP or GIF in base64 (the emulator fetches no remote URL). */
function imagePart(part: Record<string, unknown>, index: number): ImagePartLog {
  const url = isRecord(part.image_url) ? part.image_url.url : undefined;
  const match = typeof url === 'string' ? IMAGE_DATA_URL.exec(url) : null;
  if (!match) {
    throw badRequest('invalid_image_url', `messages[${index}] has an image_url part whose url is not a base64 data URL of a PNG, JPEG, WebP or GIF image.`);
  }
  return { mime: match[1], bytes: Buffer.byteLength(match[2], 'base64') };
}

export function parseContent(content: unknown, index: number): { text: string; images: ImagePartLog[] } {
  if (typeof content === 'string') return { text: content, images: [] };
  if (content === null) return { text: '', images: [] };
  if (!Array.isArray(content)) throw badRequest('invalid_messages', `messages[${index}].content must be a string or an array of content parts.`);
  const texts: string[] = [];
  const images: ImagePartLog[] = [];
  for (const part of content as unknown[]) {
    if (isRecord(part) && part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
    else if (isRecord(part) && part.type === 'image_url') images.push(imagePart(part, index));
    else throw badRequest('invalid_messages', `messages[${index}].content parts must be {"type":"text","text":"..."} or {"type":"image_url","image_url":{"url":"data:..."}}.`);
  }
  return { text: texts.join(''), images };
}
