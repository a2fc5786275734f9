import * as l10n from '@vscode/l10n';
import { ApiError } from './errors';
import { DecodedString } from './imageBody';
import { DEFAULT_LIMITS, tooLarge } from './limits';
import type { GeneratedImage, ResponseMeta } from './types';

const SIGNATURES: ReadonlyArray<[string, number[]]> = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
  ['image/webp', [0x52, 0x49, 0x46, 0x46]],
];

/** The MIME type from the file's own magic bytes; the spec does not say which formats the service returns. */
export function sniffImageType(bytes: Uint8Array): string | undefined {
  for (const [type, signature] of SIGNATURES) {
    if (signature.every((byte, index) => bytes[index] === byte)) {
      if (type === 'image/webp' && String.fromCharCode(...bytes.subarray(8, 12)) !== 'WEBP') continue;
      return type;
    }
  }
  return undefined;
}

function malformed(message: string, meta: ResponseMeta): ApiError {
  return new ApiError('malformedResponse', message, { meta, status: meta.status });
}

/**
 * Decodes base64 (or base64url) once, without a regular-expression pass over a payload of many
 * megabytes: Node's decoder skips characters outside the alphabet, so a decoded length short of what
 * the text's length promises reveals them. Only text with white space (line-wrapped base64) is copied.
 */
function decodeBase64(text: string, meta: ResponseMeta, maxBytes: number): Uint8Array {
  if (Buffer.byteLength(text, 'base64') > maxBytes) throw tooLarge('an image', maxBytes, meta);
  const attempt = (candidate: string): Buffer | undefined => {
    const unpadded = candidate.length - (candidate.endsWith('==') ? 2 : candidate.endsWith('=') ? 1 : 0);
    if (unpadded === 0 || unpadded % 4 === 1) return undefined;
    const bytes = Buffer.from(candidate, 'base64');
    return bytes.length === Buffer.byteLength(candidate, 'base64') ? bytes : undefined;
  };
  const bytes = attempt(text) ?? (/\s/.test(text) ? attempt(text.replace(/\s+/g, '')) : undefined);
  if (!bytes) throw malformed(l10n.t('The service returned image data that is not valid base64.'), meta);
  return bytes;
}

/** RFC 2397 data without `;base64`: percent-escapes are bytes (a PNG's 0x89 is `%89`, not UTF-8). */
function decodePercent(payload: string, meta: ResponseMeta, maxBytes: number): Uint8Array {
  const raw = Buffer.from(payload, 'utf8');
  if (raw.length > maxBytes * 3) throw tooLarge('an image', maxBytes, meta);
  const out = Buffer.allocUnsafe(raw.length);
  let length = 0;
  for (let index = 0; index < raw.length; index++) {
    const byte = raw[index];
    if (byte !== 0x25) {
      out[length++] = byte;
      continue;
    }
    const hex = raw.toString('latin1', index + 1, index + 3);
    if (!/^[0-9a-fA-F]{2}$/.test(hex)) {
      throw malformed(l10n.t('The service returned a data URL with a malformed "%" escape ("%{0}" at character {1}).', hex, index), meta);
    }
    out[length++] = Number.parseInt(hex, 16);
    index += 2;
  }
  if (length > maxBytes) throw tooLarge('an image', maxBytes, meta);
  return out.subarray(0, length);
}

function describeStart(bytes: Uint8Array): string {
  if (bytes.length === 0) return l10n.t('it is empty');
  const head = Array.from(bytes.subarray(0, 8), (byte) => byte.toString(16).padStart(2, '0')).join(' ');
  return l10n.t('it starts with {0}', head);
}

/**
 * One item of the image result: `{b64_json}` or `{url}` holding a data URL (never fetched from the
 * network). Only PNG, JPEG, WebP and GIF bytes are accepted, whatever type was declared: the file's
 * own signature decides its type and so its extension.
 */
export function decodeImageItem(item: unknown, meta: ResponseMeta, maxBytes: number = DEFAULT_LIMITS.imageBytes): GeneratedImage {
  const record = (item ?? {}) as Record<string, unknown>;
  let bytes: Uint8Array;
  if (record.b64_json instanceof DecodedString || record.url instanceof DecodedString) {
    // Decoded while the body arrived (imageBody.ts); a url must have had a data URL header.
    const decoded = (record.b64_json ?? record.url) as DecodedString;
    if (record.url === decoded && !decoded.header) {
      throw malformed(l10n.t('The service returned an image URL that is not a data URL; this client does not download hosted links.'), meta);
    }
    bytes = decoded.bytes;
  } else if (typeof record.b64_json === 'string') {
    bytes = decodeBase64(record.b64_json, meta, maxBytes);
  } else if (typeof record.url === 'string') {
    const comma = record.url.indexOf(',');
    const header = comma < 0 ? '' : record.url.slice(0, comma);
    if (!/^data:[^;,]*(;[^;,]*)*$/i.test(header)) {
      throw malformed(l10n.t('The service returned an image URL that is not a data URL; this client does not download hosted links.'), meta);
    }
    const payload = record.url.slice(comma + 1);
    bytes = /;base64$/i.test(header) ? decodeBase64(payload, meta, maxBytes) : decodePercent(payload, meta, maxBytes);
  } else {
    throw malformed(l10n.t('An image in the response has neither b64_json nor url.'), meta);
  }
  const mimeType = sniffImageType(bytes);
  if (!mimeType) {
    throw malformed(l10n.t('The service returned data that is not a PNG, JPEG, WebP or GIF image ({0}); nothing was saved.', describeStart(bytes)), meta);
  }
  return { bytes, mimeType };
}
