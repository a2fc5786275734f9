import * as l10n from '@vscode/l10n';
import { ApiError } from './errors';
import { readImageResultBody } from './imageBody';
import { readBodyCapped, tooLarge, type ResponseLimits } from './limits';
import { describeErrorBody } from './responseErrors';
import { responseHeader, type ResponseBody, type ResponseHeaders, type TransportResponse } from './transport';
import { errorFromTransport } from './transportErrors';
import type { ResponseMeta } from './types';

/**
 * Reading a response body within the client's limits: a JSON body, an image result, or the start of an
 * error body. Every failure is an ApiError carrying the response's metadata (its request id above all),
 * and any body text that reaches a message has been through `redact` first.
 */

/** How much of an error body is read: enough for any service's explanation, never a whole page. */
export const ERROR_BODY_LIMIT = 64 * 1024;

/** The Content-Length the response declared, when it is a usable number. */
function declaredLength(headers: ResponseHeaders): number | undefined {
  const value = Number.parseInt(responseHeader(headers, 'content-length'), 10);
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** The first `limit` bytes of a body as text; the rest is not read (the connection is closed). */
export async function readBodyStart(body: ResponseBody, limit: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) break;
  }
  body.cancel();
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

export interface BodyReading {
  meta: ResponseMeta;
  signal: AbortSignal | undefined;
  limits: ResponseLimits;
  /** Removes the key and anything like a credential from response-derived text. */
  redact: (text: string) => string;
}

/** The body as a JSON object; anything else is `malformedResponse`, quoting what the service said instead. */
export async function readJsonBody(response: TransportResponse, { meta, signal, limits, redact }: BodyReading): Promise<unknown> {
  const limit = limits.jsonBytes;
  let text: string;
  try {
    // One buffer, decoded once; it is dropped as soon as the text exists.
    text = (await readBodyCapped(response.body, limit, declaredLength(response.headers), () => tooLarge('a response', limit, meta))).toString('utf8');
  } catch (error) {
    // Stop reading at once; the error that destroying reports is the one thrown here.
    response.body.cancel();
    throw errorFromTransport(error, signal, meta);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    // Caught just below and replaced by the malformedResponse error: never shown.
    if (parsed === null || typeof parsed !== 'object') throw new TypeError('not an object');
    return parsed;
  } catch {
    const { message } = describeErrorBody(redact(text.slice(0, ERROR_BODY_LIMIT)), responseHeader(response.headers, 'content-type'), redact);
    throw new ApiError('malformedResponse', message ? l10n.t('The service answered with something that is not the expected JSON: {0}', message) : l10n.t('The service answered with something that is not the expected JSON.'), { meta, status: meta.status });
  }
}

/** Like readJsonBody, but base64 payloads are decoded as they arrive instead of being held as text. */
export async function readImageResult(response: TransportResponse, { meta, signal, limits }: BodyReading): Promise<unknown> {
  let parsed: unknown;
  try {
    parsed = await readImageResultBody(response.body, {
      maxBodyBytes: limits.jsonBytes,
      maxDecodedBytes: limits.imageBytes,
      declaredLength: declaredLength(response.headers),
      onBodyTooLarge: () => tooLarge('a response', limits.jsonBytes, meta),
      onDecodedTooLarge: () => tooLarge('an image', limits.imageBytes, meta),
      onNotBase64: () => new ApiError('malformedResponse', l10n.t('The service returned image data that is not valid base64.'), { meta, status: meta.status }),
    });
  } catch (error) {
    response.body.cancel();
    if (!(error instanceof SyntaxError)) throw errorFromTransport(error, signal, meta);
  }
  if (parsed === null || typeof parsed !== 'object') {
    throw new ApiError('malformedResponse', l10n.t('The service answered with something that is not the expected JSON.'), { meta, status: meta.status });
  }
  return parsed;
}
