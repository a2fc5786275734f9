/**
 * Removes credentials from text that came from a response (error bodies, service messages, headers
 * shown to the user, stream errors), so that a service or proxy echoing the request's
 * `Authorization` header cannot put a key into a notification, a log, a saved chat or an export.
 *
 * The key is searched for in the text as a reader of it will see it: also after JSON string escapes
 * (`\u0073`, `\/`, `\\`) and percent escapes (`%73`) are decoded, even nested, since a client's JSON
 * parser or a URL decoder would turn them back into the key. What is replaced is the raw stretch
 * that decodes to it, from one escape's start to another's end, so JSON text stays valid JSON.
 */

export const REDACTED = '[redacted]';

/** Secrets shorter than this are not searched for: a short string would blank out ordinary words. */
const MIN_SECRET_LENGTH = 8;

/** `Bearer <token>` anywhere (header echoes, JSON, quoted strings). */
const BEARER = /\b(bearer)(\s+|%20|\+)(?!\[redacted\])([^\s"'`<>,;)\]}]+)/gi;

/** Header-like echoes of credentials: `x-api-key: …`, `"api_key": "…"`, `authorization=…`, `token: …`. */
const CREDENTIAL_FIELD = /\b(x-api-key|api[-_]?key|apikey|authorization|proxy-authorization|access[-_]?token|auth[-_]?token|token|secret)(["']?\s*[:=]\s*["']?)(?!bearer\b)(?!\[redacted\])([^\s"'`<>,;)\]}]+)/gi;

/** One escape a JSON parser or a URL decoder turns into one character. */
const ESCAPE = /%[0-9a-f]{2}|\\u[0-9a-f]{4}|\\[\\/]/gi;
const HAS_ESCAPE = /%[0-9a-f]{2}|\\u[0-9a-f]{4}|\\[\\/]/i;
/** Escapes within escapes (a JSON string holding JSON, `%255C`): decoded this many times at most. */
const MAX_DECODE_ROUNDS = 3;

/** The secrets worth searching for, longest first (so the key goes before its own suffix). */
export function usableSecrets(secrets: ReadonlyArray<string | undefined>): string[] {
  return secrets
    .map((secret) => secret?.trim() ?? '')
    .filter((secret) => secret.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
}

/** Decoded text, with the raw offset where each of its characters starts (and the raw length at its end). */
interface DecodedView { text: string; starts: number[] }

function decodeOnce(view: DecodedView): DecodedView | undefined {
  if (!HAS_ESCAPE.test(view.text)) return undefined;
  let text = '';
  const starts: number[] = [];
  let last = 0;
  for (const match of view.text.matchAll(ESCAPE)) {
    const at = match.index;
    text += view.text.slice(last, at);
    for (let i = last; i < at; i++) starts.push(view.starts[i]);
    const token = match[0];
    text += token.startsWith('%') ? String.fromCharCode(parseInt(token.slice(1), 16))
      : token[1] === 'u' ? String.fromCharCode(parseInt(token.slice(2), 16)) : token[1];
    starts.push(view.starts[at]);
    last = at + token.length;
  }
  text += view.text.slice(last);
  for (let i = last; i <= view.text.length; i++) starts.push(view.starts[i]);
  return { text, starts };
}

function occurrences(text: string, secret: string, map: (at: number) => [number, number], into: Array<[number, number]>): void {
  for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + secret.length)) into.push(map(at));
}

/**
 * Where in `text` a secret stands, raw or escaped: sorted, non-overlapping [start, end) offsets.
 * `secrets` as `usableSecrets` returns them. Without any escape in the text, this is one indexOf per secret.
 */
export function secretSpans(text: string, secrets: readonly string[]): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  if (secrets.length === 0) return found;
  for (const secret of secrets) occurrences(text, secret, (at) => [at, at + secret.length], found);
  let view: DecodedView | undefined = HAS_ESCAPE.test(text) ? { text, starts: Array.from({ length: text.length + 1 }, (_, i) => i) } : undefined;
  for (let round = 0; view && round < MAX_DECODE_ROUNDS; round++) {
    view = decodeOnce(view);
    if (!view) break;
    const { starts } = view;
    for (const secret of secrets) occurrences(view.text, secret, (at) => [starts[at], starts[at + secret.length]], found);
  }
  found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: Array<[number, number]> = [];
  for (const span of found) {
    const previous = merged.at(-1);
    if (previous && span[0] < previous[1]) previous[1] = Math.max(previous[1], span[1]);
    else merged.push([span[0], span[1]]);
  }
  return merged;
}

/** `text` with the given spans replaced by `[redacted]`. */
export function replaceSpans(text: string, spans: ReadonlyArray<readonly [number, number]>): string {
  if (spans.length === 0) return text;
  let out = '';
  let last = 0;
  for (const [start, end] of spans) {
    out += text.slice(last, start) + REDACTED;
    last = end;
  }
  return out + text.slice(last);
}

/**
 * `text` with every form of the given secrets (raw, JSON-escaped, percent-escaped) replaced, and
 * nothing else: for text that is not an error, such as a relayed answer, where a word like `token:`
 * is the model's and must stay.
 */
export function redactKey(text: string, secrets: readonly string[]): string {
  return replaceSpans(text, secretSpans(text, secrets));
}

/**
 * `text` with every occurrence of the given secrets (the active key; also its part after a known
 * prefix), in any escaped form, and anything that looks like a bearer token or a credential field
 * replaced by `[redacted]`. Pure and cheap: call it on every response-derived text before it is
 * shown, logged or stored, and again on what is decoded from it (a JSON message).
 */
export function redactSecrets(text: string, secrets: ReadonlyArray<string | undefined> = []): string {
  return redactKey(text, usableSecrets(secrets))
    .replace(BEARER, (_match, word: string, gap: string) => `${word}${gap}${REDACTED}`)
    .replace(CREDENTIAL_FIELD, (_match, name: string, separator: string) => `${name}${separator}${REDACTED}`);
}

function redactStrings(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [redact(name), redactStrings(item, redact)]));
}

/**
 * An error text as another program will read it: JSON has each decoded string redacted (so an escape
 * cannot hide a bearer token from the patterns) and is written back as JSON; other text is redacted as is.
 */
export function redactErrorText(text: string, secrets: ReadonlyArray<string | undefined> = []): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.stringify(redactStrings(JSON.parse(trimmed), (item) => redactSecrets(item, secrets)));
    } catch {
      // Not JSON after all: redacted as text below.
    }
  }
  return redactSecrets(text, secrets);
}

/** The strings that identify a key: the key itself and, when it has a known prefix, what follows it. */
export function keySecrets(key: string | undefined, prefix = ''): string[] {
  const trimmed = key?.trim();
  if (!trimmed) return [];
  return prefix && trimmed.startsWith(prefix) ? [trimmed, trimmed.slice(prefix.length)] : [trimmed];
}
