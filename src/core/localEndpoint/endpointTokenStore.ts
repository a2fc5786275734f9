/**
 * The named endpoint tokens, kept in secret storage (VS Code's SecretStorage in the host; shared by
 * every window) under one key. This window's list is held in memory, so that the endpoint's check
 * per request reads no storage: a revocation here takes effect before it is even written, and one in
 * another window as soon as the storage says it changed (`reload`). Knows nothing of VS Code.
 */
import { createNamedToken, parseNamedTokens, serializeNamedTokens, tokenNameProblem, type NamedToken } from './namedTokens';

/** What the store needs of secret storage (vscode.SecretStorage has these). */
export interface SecretStoreLike {
  get(key: string): Thenable<string | undefined>;
  store(key: string, value: string): Thenable<void>;
}

export const ENDPOINT_TOKENS_SECRET = 'inference.localEndpoint.tokens';

export class EndpointTokenStore {
  #tokens: readonly NamedToken[] = [];
  /** Changes made here since a reload started: that reload's (older) result is not kept. */
  #generation = 0;
  /** Changes run one after another (each is a read, a change and a write). */
  #queue: Promise<unknown> = Promise.resolve();
  readonly loaded: Promise<void>;

  readonly #secrets: SecretStoreLike;
  readonly #clock: () => number;

  constructor(secrets: SecretStoreLike, clock: () => number = Date.now) {
    this.#secrets = secrets;
    this.#clock = clock;
    this.loaded = this.reload();
  }

  /** The tokens as this window knows them: what the endpoint accepts now. */
  list(): readonly NamedToken[] {
    return this.#tokens;
  }

  /** Re-reads the stored list (another window created or revoked one). */
  async reload(): Promise<void> {
    const generation = this.#generation;
    const tokens = parseNamedTokens(await this.#secrets.get(ENDPOINT_TOKENS_SECRET));
    if (generation === this.#generation) this.#tokens = tokens;
  }

  /** Makes a token; returns its secret (to be shown once) and its record. Rejects a name `tokenNameProblem` refuses. */
  create(name: string, dailyLimit: number | undefined): Promise<{ secret: string; token: NamedToken }> {
    return this.#change((stored) => {
      const problem = tokenNameProblem(name, stored);
      if (problem) throw new Error(`Endpoint token name refused: ${problem}`);
      const made = createNamedToken(name, dailyLimit, this.#clock());
      return { tokens: [...stored, made.token], result: made };
    });
  }

  /** Refuses the token at once in this window, then removes it from storage. True when it existed. */
  revoke(id: string): Promise<boolean> {
    const known = this.#tokens.some((token) => token.id === id);
    this.#generation++;
    this.#tokens = this.#tokens.filter((token) => token.id !== id);
    return this.#change((stored) => ({ tokens: stored.filter((token) => token.id !== id), result: known || stored.some((token) => token.id === id) }));
  }

  #change<T>(change: (stored: readonly NamedToken[]) => { tokens: readonly NamedToken[]; result: T }): Promise<T> {
    const run = this.#queue.then(async () => {
      const { tokens, result } = change(parseNamedTokens(await this.#secrets.get(ENDPOINT_TOKENS_SECRET)));
      this.#generation++;
      this.#tokens = tokens;
      await this.#secrets.store(ENDPOINT_TOKENS_SECRET, serializeNamedTokens(tokens));
      return result;
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
