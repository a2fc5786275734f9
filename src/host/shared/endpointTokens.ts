import vscode = require('vscode');
import { ENDPOINT_TOKENS_SECRET, EndpointTokenStore } from '../../core/localEndpoint/endpointTokenStore';
import type { NamedToken } from '../../core/localEndpoint/namedTokens';
import { Disposable } from './disposable';

/**
 * The named endpoint tokens in VS Code's SecretStorage (core/localEndpoint/endpointTokenStore.ts), with
 * other windows' changes followed: a token revoked in any window is refused by this window's running
 * endpoint as soon as SecretStorage reports the change. Logs names only, never a token.
 */
export class EndpointTokens extends Disposable {
  readonly #store: EndpointTokenStore;
  readonly #onDidChange = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.#onDidChange.event;

  readonly #log: vscode.LogOutputChannel;

  constructor(secrets: vscode.SecretStorage, log: vscode.LogOutputChannel) {
    super();
    this.#log = log;
    this.#store = new EndpointTokenStore(secrets);
    void this.#store.loaded.then(() => this.#onDidChange.fire(), (error: unknown) => this.#failed('read', error));
    this.register(secrets.onDidChange((event) => {
      if (event.key !== ENDPOINT_TOKENS_SECRET) return;
      void this.#store.reload().then(() => this.#onDidChange.fire(), (error: unknown) => this.#failed('read', error));
    }));
  }

  /** What the endpoint accepts now (read per request). */
  list(): readonly NamedToken[] {
    return this.#store.list();
  }

  async create(name: string, dailyLimit: number | undefined): Promise<{ secret: string; token: NamedToken }> {
    const made = await this.#store.create(name, dailyLimit);
    this.#log.info(`local endpoint: token "${made.token.name}" created${dailyLimit === undefined ? '' : ` with a daily limit of ${dailyLimit} credits`}`);
    this.#onDidChange.fire();
    return made;
  }

  /** Refused by this window's endpoint before this returns; other windows follow through SecretStorage. */
  async revoke(token: NamedToken): Promise<boolean> {
    const revoked = this.#store.revoke(token.id);
    this.#onDidChange.fire();
    const existed = await revoked;
    this.#log.info(`local endpoint: token "${token.name}" revoked`);
    return existed;
  }

  #failed(what: string, error: unknown): void {
    this.#log.warn(`local endpoint: endpoint tokens not ${what}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
