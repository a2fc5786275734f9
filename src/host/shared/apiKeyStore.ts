import vscode = require('vscode');
import { KeyTagger } from '../../core/models/keyTag';
import { Disposable } from './disposable';

const NAMESPACE = 'inference.apiKey.';
/**
 * The origins (scheme://host:port) a key was verified against and may go to: the environment's hosts,
 * separated by spaces (an origin has none; a value stored before alternates were possible is one origin).
 * Beside the key so both live and go together.
 */
const ORIGIN_NAMESPACE = 'inference.apiKeyOrigin.';
/** The installation's secret under which key tags are made (core/models/keyTag.ts explains why it lives here). */
const TAG_SECRET = 'inference.keyTagSecret';

/**
 * API keys in VS Code's SecretStorage, one per environment. Secrets are shared by all windows,
 * so a change made in another window arrives through onDidChange.
 */
export class ApiKeyStore extends Disposable {
  readonly #secrets: vscode.SecretStorage;
  readonly #onDidChange = this.register(new vscode.EventEmitter<string>());
  /** Fires with the environment name whose key was set or cleared, in this window or another. */
  readonly onDidChange = this.#onDidChange.event;
  readonly #tagger: KeyTagger;

  constructor(secrets: vscode.SecretStorage) {
    super();
    this.#secrets = secrets;
    this.#tagger = new KeyTagger({ get: () => secrets.get(TAG_SECRET), store: (value) => secrets.store(TAG_SECRET, value) });
    this.register(secrets.onDidChange((event) => {
      if (event.key.startsWith(NAMESPACE)) this.#onDidChange.fire(event.key.slice(NAMESPACE.length));
      if (event.key === TAG_SECRET) this.#tagger.forget();
    }));
  }

  /** A one-way tag of a key (core/models/keyTag.ts), to tell whether a stored model list was fetched with it; undefined without a key. */
  tag(key: string | undefined): Promise<string | undefined> {
    return this.#tagger.tag(key?.trim() || undefined);
  }

  /** Settles when the start-up import of keys has ended; until then, reads wait for it. */
  #startupImport: Promise<void> = Promise.resolve();

  /**
   * Runs the start-up import of keys (INFERENCE_API_KEY_* variables) without holding up activation.
   * Until it ends, reading a key or its origin waits for it: a command run the moment a window opens
   * must find an imported key, not report that none is set. The import reads through `read`, which
   * does not wait (it would wait for itself).
   */
  importAtStartup(work: (read: (env: string) => Promise<string | undefined>) => Promise<unknown>): Promise<void> {
    const done = work((env) => this.#read(env)).then(() => undefined);
    this.#startupImport = done.catch(() => undefined);
    return done;
  }

  async get(env: string): Promise<string | undefined> {
    await this.#startupImport;
    return this.#read(env);
  }

  async #read(env: string): Promise<string | undefined> {
    const key = await this.#secrets.get(NAMESPACE + env);
    return key?.trim() || undefined;
  }

  async has(env: string): Promise<boolean> {
    return (await this.get(env)) !== undefined;
  }

  /** Stores the key, and with it the origins it was verified against (when known). */
  async set(env: string, key: string, origins?: readonly string[]): Promise<void> {
    const trimmed = key.trim();
    if (!trimmed) throw new Error(vscode.l10n.t('An empty API key cannot be stored.'));
    if (origins?.length) await this.setOrigins(env, origins);
    else await this.#secrets.delete(ORIGIN_NAMESPACE + env);
    await this.#secrets.store(NAMESPACE + env, trimmed);
  }

  /** The origins the environment's key may be sent to; undefined when none was recorded yet. */
  async origins(env: string): Promise<string[] | undefined> {
    await this.#startupImport;
    const stored = (await this.#secrets.get(ORIGIN_NAMESPACE + env))?.split(' ').filter(Boolean);
    return stored?.length ? stored : undefined;
  }

  async setOrigins(env: string, origins: readonly string[]): Promise<void> {
    await this.#secrets.store(ORIGIN_NAMESPACE + env, origins.join(' '));
  }

  async clear(env: string): Promise<void> {
    await this.#secrets.delete(NAMESPACE + env);
    await this.#secrets.delete(ORIGIN_NAMESPACE + env);
  }
}
