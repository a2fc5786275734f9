/**
 * Removes credentials from text that came from a response (error bodies, service messages, headers
 * shown to the user, stream errors), so that a service or proxy echoing the request's
 * `Authorization` header cannot put a key into a notification, a log, a saved chat or an export.
 */

export const REDACTED = '[redacted]';

/** Secrets shorter than this are not searched for: a short string would blank out ordinary words. */
const MIN_SECRET_LENGTH = 8;

/** `Bearer <token>` anywhere (header echoes, JSON, quoted strings). */
const BEARER = /\b(bearer)(\s+|%20|\+)(?!\[redacted\])([^\s"'`<>,;)\]}]+)/gi;

/** Header-like echoes of credentials: `x-api-key: …`, `"api_key": "…"`, `authorization=…`, `token: …`. */
const CREDENTIAL_FIELD = /\b(x-api-key|api[-_]?key|apikey|authorization|proxy-authorization|access[-_]?token|auth[-_]?token|token|secret)(["']?\s*[:=]\s*["']?)(?!bearer\b)(?!\[redacted\])([^\s"'`<>,;)\]}]+)/gi;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `text` with every occurrence of the given secrets (the active key; also its part after a known
 * prefix) and anything that looks like a bearer token or a credential field replaced by `[redacted]`.
 * Pure and cheap: call it on every response-derived text before it is shown, logged or stored.
 */
export function redactSecrets(text: string, secrets: ReadonlyArray<string | undefined> = []): string {
  let result = text;
  const wanted = secrets
    .map((secret) => secret?.trim() ?? '')
    .filter((secret) => secret.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  for (const secret of wanted) {
    if (result.includes(secret)) result = result.split(secret).join(REDACTED);
    // An echo may be URL-encoded (a query string, a Location header).
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret && result.includes(encoded)) result = result.replace(new RegExp(escapeRegExp(encoded), 'g'), REDACTED);
  }
  return result
    .replace(BEARER, (_match, word: string, gap: string) => `${word}${gap}${REDACTED}`)
    .replace(CREDENTIAL_FIELD, (_match, name: string, separator: string) => `${name}${separator}${REDACTED}`);
}

/** The strings that identify a key: the key itself and, when it has a known prefix, what follows it. */
export function keySecrets(key: string | undefined, prefix = ''): string[] {
  const trimmed = key?.trim();
  if (!trimmed) return [];
  return prefix && trimmed.startsWith(prefix) ? [trimmed, trimmed.slice(prefix.length)] : [trimmed];
}
