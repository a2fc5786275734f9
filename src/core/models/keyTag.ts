import { createHmac, randomBytes } from 'node:crypto';

/**
 * A tag of an API key that tells whether a stored model list was fetched with the key in use now,
 * without storing the key: HMAC-SHA256 of the key under a random secret of this installation.
 *
 * Why an HMAC with a secret kept in SecretStorage: the tags are persisted in globalState, a plain
 * database file any process of the user (or a backup) can read. A bare or salted hash beside its
 * salt there would let whoever has the file confirm a guessed or leaked key with one hash. Under a
 * secret that lives in SecretStorage (the OS keychain, where the keys themselves are) a tag says
 * nothing about the key to anyone who cannot read the keys already.
 */
export function keyTag(secret: string, key: string): string {
  // 128 bits: far more than telling a handful of keys apart needs, and nothing to invert.
  return createHmac('sha256', secret).update(key, 'utf8').digest('base64url').slice(0, 22);
}

export function newTagSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Where the installation's tag secret is kept (SecretStorage in the host, a variable in tests). */
export interface SecretSlot {
  get(): PromiseLike<string | undefined>;
  store(value: string): PromiseLike<void>;
}

/**
 * Tags keys under the installation's secret, created on first use. The secret is read once per
 * window. Where SecretStorage fails (a Linux desktop without a keyring), a secret of this window
 * alone is used: lists still answer within the window, and a new window fetches its list once, as
 * without persistence.
 */
export class KeyTagger {
  #secret: Promise<string> | undefined;

  readonly #slot: SecretSlot;
  readonly #newSecret: () => string;

  constructor(slot: SecretSlot, newSecret: () => string = newTagSecret) {
    this.#slot = slot;
    this.#newSecret = newSecret;
  }

  async tag(key: string | undefined): Promise<string | undefined> {
    return key === undefined ? undefined : keyTag(await this.#installationSecret(), key);
  }

  /** Another window stored a secret (two windows that started at once): read it again. */
  forget(): void {
    this.#secret = undefined;
  }

  #installationSecret(): Promise<string> {
    this.#secret ??= this.#readOrCreate().catch(() => this.#newSecret());
    return this.#secret;
  }

  async #readOrCreate(): Promise<string> {
    const stored = await this.#slot.get();
    if (stored) return stored;
    const created = this.#newSecret();
    await this.#slot.store(created);
    // Windows that created one at the same moment all end up with the one stored last.
    return (await this.#slot.get()) || created;
  }
}
