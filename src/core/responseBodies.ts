import * as l10n from '@vscode/l10n';
import type { Dispatcher } from 'undici';
import { ApiError } from './errors';
import { readImageResultBody } from './imageBody';
import { readBodyCapped, tooLarge, type ResponseLimits } from './limits';
import { describeErrorBody } from './responseErrors';
import { errorFromTransport } from './transportErrors';
import type { ResponseMeta } from './types';

/**
 * Reading a response body within the client's limits: a JSON body, an image result, or the start of an
 * error body. Every failure is an ApiError carrying the response's metadata (its request id above all),
 * and any body text that reaches a message has been through `redact` first.
 */

export type ResponseData = Dispatcher.ResponseData;

/** How much of an error body is read: enough for any service's explanation, never a whole page. */
export const ERROR_BODY_LIMIT = 64 * 1024;

export function responseHeader(headers: ResponseData['headers'], name: string): string {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** The Content-Length the response declared, when it is a usable number. */
function declaredLength(headers: ResponseData['headers']): number | undefined {
  const value = Number.parseInt(responseHeader(headers, 'content-length'), 10);
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** The first `limit` bytes of a body as text; the rest is not read (the connection is closed). */
export async function readBodyStart(body: ResponseData['body'], limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) break;
  }
  body.destroy();
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
export async function readJsonBody(response: ResponseData, { meta, signal, limits, redact }: BodyReading): Promise<unknown> {
  const limit = limits.jsonBytes;
  let text: string;
  try {
    // One buffer, decoded once; it is dropped as soon as the text exists.
    text = (await readBodyCapped(response.body as AsyncIterable<Uint8Array>, limit, declaredLength(response.headers), () => tooLarge('a response', limit, meta))).toString('utf8');
  } catch (error) {
    // Stop reading at once; the error that destroying reports is the one thrown here.
    response.body.on('error', () => undefined).destroy();
    throw errorFromTransport(error, signal, meta);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    // Caught just below and replaced by the malformedResponse error: never shown.
    if (parsed === null || typeof parsed !== 'object') throw new TypeError('not an object');
    return parsed;
  } catch {
    const { message } = describeErrorBody(redact(text.slice(0, ERROR_BODY_LIMIT)), responseHeader(response.headers, 'content-type'));
    throw new ApiError('malformedResponse', message ? l10n.t('The service answered with something that is not the expected JSON: {0}', message) : l10n.t('The service answered with something that is not the expected JSON.'), { meta, status: meta.status });
  }
}

/** Like readJsonBody, but base64 payloads are decoded as they arrive instead of being held as text. */
export async function readImageResult(response: ResponseData, { meta, signal, limits }: BodyReading): Promise<unknown> {
  let parsed: unknown;
  try {
    parsed = await readImageResultBody(response.body as AsyncIterable<Uint8Array>, {
      maxBodyBytes: limits.jsonBytes,
      maxDecodedBytes: limits.imageBytes,
      declaredLength: declaredLength(response.headers),
      onBodyTooLarge: () => tooLarge('a response', limits.jsonBytes, meta),
      onDecodedTooLarge: () => tooLarge('an image', limits.imageBytes, meta),
      onNotBase64: () => new ApiError('malformedResponse', l10n.t('The service returned image data that is not valid base64.'), { meta, status: meta.status }),
    });
  } catch (error) {
    response.body.on('error', () => undefined).destroy();
    if (!(error instanceof SyntaxError)) throw errorFromTransport(error, signal, meta);
  }
  if (parsed === null || typeof parsed !== 'object') {
    throw new ApiError('malformedResponse', l10n.t('The service answered with something that is not the expected JSON.'), { meta, status: meta.status });
  }
  return parsed;
}
