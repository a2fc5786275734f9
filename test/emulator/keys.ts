/** Demo API keys: random per start, with the scopes, limits and states the tests need. */
import { randomBytes } from 'node:crypto';
import { ApiError, unauthorized } from './errors';
import type { DemoKeys, KeyLabel } from './types';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const KEY_BODY_LENGTH = 32;
const KEY_BODY_PATTERN = new RegExp(`^[A-Za-z0-9]{${KEY_BODY_LENGTH}}$`);

export type Scope = 'chat' | 'images';
export type KeyStatus = 'active' | 'expired' | 'revoked';
export type WalletName = 'main' | 'broke';

export interface KeyRecord {
  label: KeyLabel;
  secret: string;
  scopes: ReadonlySet<Scope>;
  rpm: number;
  status: KeyStatus;
  wallet: WalletName;
}

const issued = new Set<string>();

/** Every key generated in this process, so that a test can prove none of them reached a file. */
export function issuedKeys(): ReadonlySet<string> {
  return issued;
}

/** `prefix` followed by 32 base62 characters from the CSPRNG (rejection sampling keeps it uniform). */
export function generateKey(prefix: string): string {
  let body = '';
  while (body.length < KEY_BODY_LENGTH) {
    for (const byte of randomBytes(KEY_BODY_LENGTH)) {
      if (byte < 248 && body.length < KEY_BODY_LENGTH) body += BASE62[byte % 62];
    }
  }
  issued.add(prefix + body);
  return prefix + body;
}

export class KeyStore {
  readonly demoKeys: DemoKeys;
  private readonly bySecret = new Map<string, KeyRecord>();

  /** `fullKey`: the `full` key, issued by the caller (EmulatorOptions.fullKeys) instead of generated here. */
  constructor(private readonly prefix: string, defaultRpm: number, fullKey?: string) {
    const all: Scope[] = ['chat', 'images'];
    const specs: Record<KeyLabel, Omit<KeyRecord, 'label' | 'secret'>> = {
      full: { scopes: new Set(all), rpm: defaultRpm, status: 'active', wallet: 'main' },
      chatOnly: { scopes: new Set<Scope>(['chat']), rpm: defaultRpm, status: 'active', wallet: 'main' },
      lowRpm: { scopes: new Set(all), rpm: 2, status: 'active', wallet: 'main' },
      broke: { scopes: new Set(all), rpm: defaultRpm, status: 'active', wallet: 'broke' },
      expired: { scopes: new Set(all), rpm: defaultRpm, status: 'expired', wallet: 'main' },
      revoked: { scopes: new Set(all), rpm: defaultRpm, status: 'revoked', wallet: 'main' },
    };
    const keys: Partial<DemoKeys> = {};
    for (const label of Object.keys(specs) as KeyLabel[]) {
      const secret = (label === 'full' && fullKey) || generateKey(prefix);
      keys[label] = secret;
      this.bySecret.set(secret, { label, secret, ...specs[label] });
    }
    this.demoKeys = keys as DemoKeys;
  }

  records(): KeyRecord[] {
    return [...this.bySecret.values()];
  }

  /** Resolves the `Authorization` header to an active key, or throws the matching 401. */
  authenticate(authorization: string | undefined): KeyRecord {
    if (authorization === undefined || authorization.trim() === '') {
      throw unauthorized('missing_api_key', 'No API key provided. Send it as "Authorization: Bearer <API_KEY>".');
    }
    const match = /^Bearer +(\S+)\s*$/i.exec(authorization);
    if (!match) {
      throw unauthorized('malformed_authorization', 'The Authorization header must have the form "Bearer <API_KEY>".');
    }
    const secret = match[1];
    if (!secret.startsWith(this.prefix)) {
      throw unauthorized('invalid_key_prefix', 'The API key does not have the expected prefix.');
    }
    if (!KEY_BODY_PATTERN.test(secret.slice(this.prefix.length))) {
      throw unauthorized('malformed_api_key', 'The API key is malformed.');
    }
    const record = this.bySecret.get(secret);
    if (!record) {
      throw unauthorized('unknown_api_key', 'Unknown API key: it is not valid in this environment.');
    }
    if (record.status === 'expired') throw unauthorized('expired_api_key', 'The API key has expired.');
    if (record.status === 'revoked') throw unauthorized('revoked_api_key', 'The API key has been revoked.');
    return record;
  }
}

export function requireScope(key: KeyRecord, scope: Scope): void {
  if (!key.scopes.has(scope)) {
    throw new ApiError(403, 'permission_error', 'missing_scope', `The API key lacks the "${scope}" scope.`);
  }
}
