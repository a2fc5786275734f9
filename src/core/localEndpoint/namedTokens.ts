/**
 * Named endpoint tokens: besides the per-run token, the user may give each tool its own token, with an
 * optional daily limit in credits. A token is shown once when it is made; what is kept (in
 * SecretStorage, endpointTokenStore.ts) is its SHA-256 digest with its id, name and limit, so that
 * nothing stored can authenticate. Knows nothing of VS Code.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { PER_RUN_TOKEN, type EndpointTokenRef } from '../usage/ledger';
import { createEndpointToken, tokenDigest } from './auth';
import { parseJson } from '../json';

export interface NamedToken {
  /** Random UUID: what the ledger attributes requests to, so that a renamed or revoked token's history stays its own. */
  id: string;
  name: string;
  /** Credits per day (the user's time zone); undefined: no limit of its own. */
  dailyLimit?: number;
  createdAt: number;
  /** SHA-256 of the token, base64url. */
  digest: string;
}

/** Who sent a request the endpoint admitted: the per-run token, or a named one with its limit. */
export interface EndpointCaller {
  token: EndpointTokenRef;
  dailyLimit?: number;
}

export const PER_RUN_CALLER: EndpointCaller = { token: PER_RUN_TOKEN };

const STORED_VERSION = 1;
export const MAX_TOKEN_NAME_LENGTH = 64;

function isLimit(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** The stored list back; anything malformed (another version, a bad entry) is dropped, never trusted. */
export function parseNamedTokens(stored: string | undefined): NamedToken[] {
  if (!stored) return [];
  const raw = parseJson(stored);
  if (typeof raw !== 'object' || raw === null || (raw as { v?: unknown }).v !== STORED_VERSION) return [];
  const list = (raw as { tokens?: unknown }).tokens;
  if (!Array.isArray(list)) return [];
  const tokens: NamedToken[] = [];
  for (const item of list as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const { id, name, dailyLimit, createdAt, digest } = item as Record<string, unknown>;
    if (typeof id !== 'string' || !id || typeof name !== 'string' || typeof createdAt !== 'number' || typeof digest !== 'string' || !digest) continue;
    const token: NamedToken = { id, name, createdAt, digest };
    if (isLimit(dailyLimit)) token.dailyLimit = dailyLimit;
    tokens.push(token);
  }
  return tokens;
}

export function serializeNamedTokens(tokens: readonly NamedToken[]): string {
  return JSON.stringify({ v: STORED_VERSION, tokens });
}

/** Why a name cannot be used (English: the host localizes its own prompts), or undefined when it can. */
export function tokenNameProblem(name: string, existing: readonly NamedToken[]): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return 'empty';
  if (trimmed.length > MAX_TOKEN_NAME_LENGTH) return 'tooLong';
  // Control characters would let a name forge a second line in the log or break a CSV cell's display.
  if (/\p{Cc}/u.test(trimmed)) return 'controlCharacters';
  if (existing.some((token) => token.name.toLowerCase() === trimmed.toLowerCase())) return 'taken';
  return undefined;
}

/** The daily limit as typed: empty is none, otherwise a finite number of credits ≥ 0 (null: not one). */
export function parseDailyLimit(text: string): number | undefined | null {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  const value = Number(trimmed);
  return isLimit(value) ? value : null;
}

/** A new token: the secret to show once, and the record to keep. */
export function createNamedToken(name: string, dailyLimit: number | undefined, now: number): { secret: string; token: NamedToken } {
  const secret = createEndpointToken();
  const token: NamedToken = { id: randomUUID(), name: name.trim(), createdAt: now, digest: tokenDigest(secret).toString('base64url') };
  if (dailyLimit !== undefined) token.dailyLimit = dailyLimit;
  return { secret, token };
}

/**
 * Who holds the presented token: the per-run token or one of the named ones. Every candidate is
 * compared, in constant time, whatever matched before: the time taken tells neither which token nor
 * how much of one was right. Undefined when none matches (or nothing was presented).
 */
export function identifyCaller(presented: string | undefined, perRunToken: string, named: readonly NamedToken[]): EndpointCaller | undefined {
  if (presented === undefined) return undefined;
  const digest = tokenDigest(presented);
  let caller: EndpointCaller | undefined;
  if (perRunToken !== '' && timingSafeEqual(digest, tokenDigest(perRunToken))) caller = PER_RUN_CALLER;
  for (const token of named) {
    const stored = Buffer.from(token.digest, 'base64url');
    // A digest of another length was not written by us; compared against itself so the time stays the same.
    const matches = stored.length === digest.length ? timingSafeEqual(digest, stored) : !timingSafeEqual(digest, digest);
    if (matches && !caller) caller = { token: { id: token.id, name: token.name }, ...(token.dailyLimit !== undefined && { dailyLimit: token.dailyLimit }) };
  }
  return caller;
}
