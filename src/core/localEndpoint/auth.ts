/**
 * Who may use the local endpoint: a process on this machine that holds the per-run token (random per
 * start) or a named token the user made (namedTokens.ts), reaching it under a loopback host name. The
 * service key never leaves the host.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

const TOKEN_PREFIX = 'local-';

/** 256 random bits, URL-safe, with a prefix that tells it apart from a service key in a config file. */
export function createEndpointToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** SHA-256 of a token: what a comparison (and a named token's stored form) uses, never the token itself. */
export function tokenDigest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Constant-time whatever the lengths: both sides are hashed to 32 bytes before the comparison. */
export function tokenMatches(presented: string | undefined, expected: string): boolean {
  if (presented === undefined || expected === '') return false;
  return timingSafeEqual(tokenDigest(presented), tokenDigest(expected));
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Where one protocol's clients put the token: undefined when they did not send it there. */
export type TokenSource = (headers: IncomingHttpHeaders) => string | undefined;

/** `Authorization: Bearer <token>` (chat-completions clients). */
export const bearerToken: TokenSource = (headers) => {
  const authorization = single(headers.authorization)?.trim();
  return authorization ? /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] : undefined;
};

/** `x-api-key` (Anthropic clients). */
export const apiKeyToken: TokenSource = (headers) => {
  const apiKey = single(headers['x-api-key'])?.trim();
  return apiKey ? apiKey : undefined;
};

/**
 * The token a client sent, from the first of the sources where it is: every protocol's place is
 * accepted on every path (the server passes its protocols' sources). Undefined when none has one.
 */
export function presentedToken(headers: IncomingHttpHeaders, sources: readonly TokenSource[] = [bearerToken, apiKeyToken]): string | undefined {
  for (const source of sources) {
    const token = source(headers);
    if (token !== undefined) return token;
  }
  return undefined;
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Whether a request's Host header is one of the loopback names this server answers under (a port
 * aside). A page on another site whose DNS name was rebound to 127.0.0.1 still sends its own name,
 * so it is refused here. Not the base-URL question of loopback.ts: this is an exact list of names.
 */
export function isLoopbackHostHeader(host: string | undefined): boolean {
  if (!host) return false;
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(host.trim().toLowerCase());
  if (!match) return false;
  const name = match[1].replace(/\.$/, '');
  return LOOPBACK_NAMES.has(name);
}
