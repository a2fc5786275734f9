import type { ResponseMeta } from './types';

/**
 * What went wrong, in terms a UI can act on. The kind decides the action offered
 * (Set API Key, Pick Model, Retry, ...); the status and service message are kept for the details.
 */
export type ApiErrorKind =
  | 'notConfigured'       // no base URL for the environment
  | 'missingKey'          // no key stored for the environment
  | 'invalidKey'          // key fails the local format check (prefix, whitespace); never sent
  | 'unauthorized'        // 401: key unknown, expired or revoked
  | 'insufficientCredits' // 402
  | 'missingScope'        // the key lacks a scope the call needs (`images`)
  | 'forbidden'           // 403 for another reason
  | 'modelNotFound'       // 404 on a call that names a model
  | 'notFound'            // 404 that is not the service's JSON (a proxy, a wrong base URL), or on the model list
  | 'redirected'          // 3xx: the base URL points elsewhere; redirects are not followed (the key would go along)
  | 'badRequest'          // 400 / 422
  | 'rateLimited'         // 429
  | 'server'              // 5xx
  | 'http'                // any other unexpected status
  | 'timeout'
  | 'network'
  | 'malformedResponse'
  | 'streamError'         // the service reported an error inside an event stream
  | 'tooLarge'            // a response passed one of the client's size limits (see limits.ts)
  | 'spendingLimit'       // the user's spending limit is reached; refused before sending (usage/spendingLimits.ts)
  | 'cancelled';

/**
 * Where the same call, unchanged, can succeed later; never 402 (the wallet needs credits first).
 * The one list: ApiError.retryable and the Retry action (errorActions.ts) both read it.
 */
export const RETRYABLE_KINDS: ReadonlySet<ApiErrorKind> = new Set<ApiErrorKind>(['rateLimited', 'server', 'timeout', 'network', 'streamError']);

export interface ApiErrorDetails {
  status?: number;
  serviceMessage?: string;
  serviceCode?: string;
  retryAfterSeconds?: number;
  meta?: ResponseMeta;
  /** The endpoint that answered, for errors built from a response. */
  endpoint?: Endpoint;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly status?: number;
  /** The service's own explanation, when its error body had one. */
  readonly serviceMessage?: string;
  readonly serviceCode?: string;
  readonly retryAfterSeconds?: number;
  readonly meta?: ResponseMeta;
  /** Which call failed (a 404 on images must not forget the chat model). */
  readonly endpoint?: Endpoint;

  constructor(kind: ApiErrorKind, message: string, details: ApiErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = kind;
    if (details.status !== undefined) this.status = details.status;
    if (details.serviceMessage !== undefined) this.serviceMessage = details.serviceMessage;
    if (details.serviceCode !== undefined) this.serviceCode = details.serviceCode;
    if (details.retryAfterSeconds !== undefined) this.retryAfterSeconds = details.retryAfterSeconds;
    if (details.meta !== undefined) this.meta = details.meta;
    if (details.endpoint !== undefined) this.endpoint = details.endpoint;
  }

  get requestId(): string | undefined {
    return this.meta?.requestId;
  }

  /** Whether trying the same call again, unchanged, can succeed. 402 is never retried. */
  get retryable(): boolean {
    return RETRYABLE_KINDS.has(this.kind);
  }
}

/**
 * Recognises an ApiError by shape as well as by class: the extension bundle and code loaded beside it
 * (tests, a second copy of the core) each have their own ApiError class.
 */
export function isApiError(value: unknown): value is ApiError {
  if (value instanceof ApiError) return true;
  return value instanceof Error && value.name === 'ApiError' && typeof (value as { kind?: unknown }).kind === 'string';
}

/** Any failure as an ApiError: a non-ApiError keeps its message and becomes kind `http`. */
export function toApiError(error: unknown): ApiError {
  if (isApiError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError('http', message, { cause: error });
}

/** Which call an error came from (a 404 on images must not forget the chat model). */
export type Endpoint = 'models' | 'chat' | 'images';
