import { ApiError } from './errors';
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

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

function decodeBase64(text: string, meta: ResponseMeta): Uint8Array {
  const compact = text.replace(/\s+/g, '');
  if (!compact || !BASE64.test(compact)) {
    throw new ApiError('malformedResponse', 'The service returned image data that is not valid base64.', { meta, status: meta.status });
  }
  return new Uint8Array(Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64'));
}

/** One item of the image result: `{b64_json}` or `{url}` holding a data URL (never fetched from the network). */
export function decodeImageItem(item: unknown, meta: ResponseMeta): GeneratedImage {
  const record = (item ?? {}) as Record<string, unknown>;
  if (typeof record.b64_json === 'string') {
    const bytes = decodeBase64(record.b64_json, meta);
    return { bytes, mimeType: sniffImageType(bytes) ?? 'application/octet-stream' };
  }
  if (typeof record.url === 'string') {
    const match = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s.exec(record.url);
    if (!match) {
      throw new ApiError('malformedResponse', 'The service returned an image URL that is not a data URL; this client does not download hosted links.', { meta, status: meta.status });
    }
    const [, declaredType, parameters, payload] = match;
    const bytes = parameters.includes(';base64')
      ? decodeBase64(payload, meta)
      : new Uint8Array(Buffer.from(decodeURIComponent(payload), 'utf8'));
    return { bytes, mimeType: sniffImageType(bytes) ?? (declaredType || 'application/octet-stream') };
  }
  throw new ApiError('malformedResponse', 'An image in the response has neither b64_json nor url.', { meta, status: meta.status });
}
