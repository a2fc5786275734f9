import * as l10n from '@vscode/l10n';
import { ApiError, type ApiErrorDetails, type Endpoint } from './errors';
import type { ResponseMeta } from './types';

/**
 * What an error response means: its body (of any shape: the service's JSON, a proxy's page, plain
 * text) reduced to a short message and code, and its status turned into an ApiError a user can act on.
 */

const MAX_MESSAGE_CHARS = 300;

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_MESSAGE_CHARS ? `${oneLine.slice(0, MAX_MESSAGE_CHARS - 1)}…` : oneLine;
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value : undefined;
}

export interface ErrorBody {
  message?: string;
  code?: string;
  /** The body was a JSON object: the shape a service answers with, unlike a proxy's page. */
  json?: true;
}

/**
 * Pulls a human-readable message out of an error body of unknown shape: the common
 * `{error:{message,code}}`, `{error:"..."}`, `{message}`, `{detail}`, an HTML page's title, or plain text.
 * `redact` runs on what was decoded (a JSON string's escapes can spell a key that the raw text hides).
 */
export function describeErrorBody(body: string, contentType = '', redact: (text: string) => string = (text) => text): ErrorBody {
  const found = readErrorBody(body, contentType);
  return {
    ...(found.message !== undefined && { message: clip(redact(found.message)) }),
    ...(found.code !== undefined && { code: redact(found.code) }),
    ...(found.json && { json: true as const }),
  };
}

function readErrorBody(body: string, contentType: string): ErrorBody {
  const text = body.trim();
  if (!text) return {};
  if (contentType.includes('json') || text.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object') {
        const record = parsed as Record<string, unknown>;
        const error = record.error;
        if (error && typeof error === 'object') {
          const inner = error as Record<string, unknown>;
          const message = stringField(inner.message) ?? stringField(inner.detail);
          const code = stringField(inner.code) ?? stringField(inner.type);
          return { ...(message && { message }), ...(code && { code }), json: true };
        }
        const message = stringField(error) ?? stringField(record.message) ?? stringField(record.detail);
        const code = stringField(record.code);
        return { ...(message && { message }), ...(code && { code }), json: true };
      }
    } catch {
      // Not JSON after all: fall through to the text handling.
    }
  }
  if (contentType.includes('html') || /^<(!doctype|html)/i.test(text)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1];
    const stripped = (title ?? text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ')).trim();
    return stripped ? { message: stripped } : {};
  }
  return { message: text };
}

const SCOPE_WORDS = /\bscopes?\b/i;
const ROUTE_WORDS = /\b(endpoint|route|path)s?\b|unknown_endpoint|no_route/i;

/** Where a redirect pointed, reduced to its origin: enough to recognise, nothing a service could smuggle. */
function redirectOrigin(location: string | undefined, baseUrl: string | undefined): string | undefined {
  if (!location) return undefined;
  try {
    return new URL(location, baseUrl).origin;
  } catch {
    return undefined;
  }
}

/** Whole sentences, each translated on its own, joined as one message. */
function sentences(...parts: (string | false | undefined)[]): string {
  return parts.filter(Boolean).join(' ');
}

export interface ResponseContext {
  retryAfterSeconds?: number;
  /** The `Location` header of a redirect. */
  location?: string;
  /** The base URL the request went to, to resolve a relative `Location`. */
  baseUrl?: string;
}

/**
 * Maps an HTTP error status to an ApiError with a sentence a user can act on. It reads no more into a
 * status than the spec says: a 403 is not always a missing scope, and a 404 that is not the service's
 * JSON may come from a proxy or a wrong base URL rather than an unknown model.
 */
export function errorFromResponse(endpoint: Endpoint, meta: ResponseMeta, body: ErrorBody, context: ResponseContext = {}): ApiError {
  const { retryAfterSeconds } = context;
  const status = meta.status;
  const service = body.message;
  const details: ApiErrorDetails = {
    status,
    meta,
    endpoint,
    ...(service !== undefined && { serviceMessage: service }),
    ...(body.code !== undefined && { serviceCode: body.code }),
    ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
  };
  const said = service ? l10n.t('The service said: {0}', service) : undefined;
  const mentionsScope = SCOPE_WORDS.test(`${service ?? ''} ${body.code ?? ''}`);
  if (status >= 300 && status < 400) {
    const origin = redirectOrigin(context.location, context.baseUrl);
    return new ApiError('redirected', sentences(
      origin ? l10n.t('The base URL redirects (HTTP {0} to {1}).', status, origin) : l10n.t('The base URL redirects (HTTP {0}).', status),
      l10n.t('Redirects are not followed, so the API key was not sent there. If the new address is right, put it in the "inference.environments" setting.'),
    ), details);
  }
  if (endpoint === 'images' && (status === 401 || status === 403) && mentionsScope) {
    return new ApiError('missingScope', sentences(
      l10n.t('The service refused to generate images with this key (HTTP {0}).', status), said,
      l10n.t('Likely cause: the key lacks the "images" scope; set a key that has it.'),
    ), details);
  }
  switch (status) {
    case 400:
    case 422:
      return new ApiError('badRequest', sentences(l10n.t('The service rejected the request (HTTP {0}).', status), said), details);
    case 401:
      return new ApiError('unauthorized', sentences(l10n.t('The API key was refused (HTTP 401): it may be wrong, expired, revoked or from another environment.'), said), details);
    case 402:
      return new ApiError('insufficientCredits', sentences(
        l10n.t('The wallet has insufficient credits for this call (HTTP 402).'),
        meta.balanceCredits !== undefined && l10n.t('Balance: {0} credits.', meta.balanceCredits),
        l10n.t('Add credits to this environment\'s wallet to continue.'), said,
      ), details);
    case 403:
      return endpoint === 'images'
        ? new ApiError('forbidden', sentences(l10n.t('The service refused the image request (HTTP 403).'), said, l10n.t('Likely causes: the key lacks the "images" scope, or the model needs a paid plan.')), details)
        : new ApiError('forbidden', sentences(l10n.t('The key is not allowed to make this call (HTTP 403).'), said, l10n.t('Some models need a paid plan.')), details);
    case 404:
      // Only the service's JSON can say a model is unknown; a page, or JSON about a missing route, cannot.
      if (endpoint === 'models' || !body.json || ROUTE_WORDS.test(`${service ?? ''} ${body.code ?? ''}`)) {
        const answered = endpoint === 'models'
          ? (body.json ? l10n.t('The service answered 404 for the model list') : l10n.t('The service answered 404 for the model list without its usual JSON error'))
          : (body.json ? l10n.t('The service answered 404 for this call') : l10n.t('The service answered 404 for this call without its usual JSON error'));
        return new ApiError('notFound', sentences(
          l10n.t('{0}: the base URL may be wrong (check the environment\'s base URL: it ends in /api/v1), or a proxy answered.', answered), said,
        ), details);
      }
      return new ApiError('modelNotFound', sentences(
        endpoint === 'images' ? l10n.t('The image model is unknown in this environment (HTTP 404).') : l10n.t('The chat model is unknown in this environment (HTTP 404).'),
        l10n.t('Pick a model from this environment\'s list.'), said,
      ), details);
    case 429:
      return new ApiError('rateLimited', sentences(
        l10n.t('Rate limit reached for this key (HTTP 429).'),
        retryAfterSeconds !== undefined && l10n.t('Retry after {0} s.', retryAfterSeconds), said,
      ), details);
    default:
      if (status >= 500) return new ApiError('server', sentences(l10n.t('The service failed (HTTP {0}). Try again in a moment.', status), said), details);
      return new ApiError('http', sentences(l10n.t('Unexpected HTTP {0} from the service.', status), said), details);
  }
}
