import * as vscode from 'vscode';

const NAMESPACE = 'inference.apiKey.';

/**
 * API keys in VS Code's SecretStorage, one per environment. Secrets are shared by all windows,
 * so a change made in another window arrives through onDidChange.
 */
export class ApiKeyStore implements vscode.Disposable {
  readonly #secrets: vscode.SecretStorage;
  readonly #onDidChange = new vscode.EventEmitter<string>();
  readonly #subscription: vscode.Disposable;
  /** Fires with the environment name whose key was set or cleared, in this window or another. */
  readonly onDidChange = this.#onDidChange.event;

  constructor(secrets: vscode.SecretStorage) {
    this.#secrets = secrets;
    this.#subscription = secrets.onDidChange((event) => {
      if (event.key.startsWith(NAMESPACE)) this.#onDidChange.fire(event.key.slice(NAMESPACE.length));
    });
  }

  async get(env: string): Promise<string | undefined> {
    const key = await this.#secrets.get(NAMESPACE + env);
    return key?.trim() || undefined;
  }

  async has(env: string): Promise<boolean> {
    return (await this.get(env)) !== undefined;
  }

  async set(env: string, key: string): Promise<void> {
    const trimmed = key.trim();
    if (!trimmed) throw new Error('An empty API key cannot be stored.');
    await this.#secrets.store(NAMESPACE + env, trimmed);
  }

  async clear(env: string): Promise<void> {
    await this.#secrets.delete(NAMESPACE + env);
  }

  dispose(): void {
    this.#subscription.dispose();
    this.#onDidChange.dispose();
  }
}

/** `INFERENCE_API_KEY_<ENV>`: the environment variable automation uses to hand a key to the extension. */
export function apiKeyVariableName(env: string): string {
  return `INFERENCE_API_KEY_${env.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}
