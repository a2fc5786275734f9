import type { ResponseMeta } from './types';

type HeaderBag = Record<string, string | string[] | undefined>;

function firstValue(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  const trimmed = text?.trim();
  return trimmed ? trimmed : undefined;
}

function finiteNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** Reads the spec's response headers; each one may be absent, and a malformed number is treated as absent. */
export function parseResponseMeta(status: number, headers: HeaderBag, receivedAt = Date.now()): ResponseMeta {
  const meta: ResponseMeta = { status, receivedAt };
  const requestId = firstValue(headers, 'x-request-id');
  const modelId = firstValue(headers, 'x-service-model-id');
  const balance = finiteNumber(firstValue(headers, 'x-service-balance-credits'));
  const rpm = finiteNumber(firstValue(headers, 'x-ratelimit-limit-requests'));
  if (requestId !== undefined) meta.requestId = requestId;
  if (modelId !== undefined) meta.modelId = modelId;
  if (balance !== undefined) meta.balanceCredits = balance;
  if (rpm !== undefined) meta.rateLimitRequests = rpm;
  return meta;
}

/** `Retry-After` is either delta-seconds or an HTTP date; returns whole seconds to wait, or undefined. */
export function parseRetryAfter(headers: HeaderBag, now = Date.now()): number | undefined {
  const text = firstValue(headers, 'retry-after');
  if (text === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text));
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
