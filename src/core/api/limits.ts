import * as l10n from '@vscode/l10n';
import { ApiError } from './errors';
import type { ResponseMeta } from './types';
import { describeBytes } from '../byteSize';

/**
 * Caps on what one response may make the extension hold in memory. The spec names no body sizes, so
 * these are the client's own choices, generous enough for any real answer or image (README, "Limits").
 */
export interface ResponseLimits {
  /** Bytes of one non-streamed JSON body (model list, chat completion, image result). */
  jsonBytes: number;
  /** Decoded bytes of one generated image. */
  imageBytes: number;
  /** Bytes of one streamed chat answer as received (events and framing included). */
  streamBytes: number;
}

const MIB = 1024 * 1024;

export const DEFAULT_LIMITS: Readonly<ResponseLimits> = {
  jsonBytes: 64 * MIB,
  imageBytes: 32 * MIB,
  streamBytes: 64 * MIB,
};

export function resolveLimits(partial: Partial<ResponseLimits> = {}): ResponseLimits {
  return { ...DEFAULT_LIMITS, ...partial };
}

export { describeBytes } from '../byteSize';

/** What passed a size limit; each has its own sentence, so a translation never splices a fragment in. */
export type OversizedPart = 'an answer' | 'a response' | 'an image';

function oversizedSentence(what: OversizedPart, limit: string): string {
  switch (what) {
    case 'an answer': return l10n.t('The service sent an answer larger than this client accepts ({0}); it was not read further.', limit);
    case 'a response': return l10n.t('The service sent a response larger than this client accepts ({0}); it was not read further.', limit);
    case 'an image': return l10n.t('The service sent an image larger than this client accepts ({0}); it was not read further.', limit);
  }
}

/** `kept` is a sentence the caller already translated, appended as is (with its leading space). */
export function tooLarge(what: OversizedPart, limit: number, meta?: ResponseMeta, kept = ''): ApiError {
  return new ApiError('tooLarge', oversizedSentence(what, describeBytes(limit)) + kept, {
    ...(meta && { meta, status: meta.status }),
  });
}

/**
 * Reads a whole body into one buffer, failing with `tooLarge` once it passes `limit` (or at once when
 * the declared Content-Length does). With a Content-Length the buffer is allocated once and filled in
 * place, so a large image response is held once, not as chunks plus their concatenation.
 */
export async function readBodyCapped(
  body: AsyncIterable<Uint8Array>,
  limit: number,
  declaredLength: number | undefined,
  onLimit: () => ApiError,
): Promise<Buffer> {
  if (declaredLength !== undefined && declaredLength > limit) throw onLimit();
  if (declaredLength !== undefined) {
    const buffer = Buffer.allocUnsafe(declaredLength);
    let offset = 0;
    for await (const chunk of body) {
      if (offset + chunk.length > declaredLength) throw onLimit();
      buffer.set(chunk, offset);
      offset += chunk.length;
    }
    return offset === declaredLength ? buffer : buffer.subarray(0, offset);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) throw onLimit();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** Passes a stream's chunks through until `limit` bytes have gone by, then fails with `onLimit()`. */
export async function* capStream(body: AsyncIterable<Uint8Array>, limit: number, onLimit: () => ApiError): AsyncGenerator<Uint8Array, void, undefined> {
  let size = 0;
  for await (const chunk of body) {
    if (size + chunk.length > limit) {
      // Hand on what fits first: a read can be tens of KiB, and the answer up to the cap is kept.
      if (limit > size) yield chunk.subarray(0, limit - size);
      throw onLimit();
    }
    size += chunk.length;
    yield chunk;
  }
}
