import { createHash } from 'node:crypto';
import vscode = require('vscode');
import { ApiError } from '../core/errors';
import { isCurrent, SharedOperations, untilAborted, type CachedModelList } from '../core/modelListCache';
import type { ModelType } from '../core/types';
import type { ApiAccess } from './apiAccess';
import type { ApiKeyStore } from './apiKeyStore';
import { readSetting } from './config';
import { Disposable } from './disposable';
import type { Environments } from './environments';

type ModelKind = Extract<ModelType, 'chat' | 'image'>;

const CACHE_KEY = (env: string, kind: ModelKind) => `inference.models.${env}.${kind}`;
const SELECTED_KEY = (env: string, kind: ModelKind) => `inference.selectedModel.${env}.${kind}`;

/** A short, one-way tag of a key, kept in memory only: tells whether a list was fetched with the current key. */
function keyTag(key: string | undefined): string | undefined {
  return key === undefined ? undefined : createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/**
 * Model ids come only from GET /models of the environment (never guessed), cached per environment
 * for `inference.modelCacheMinutes` while the environment's address and key stay the same; the
 * chosen model is remembered per environment.
 */
export class ModelService extends Disposable {
  readonly #onDidChangeSelection = this.register(new vscode.EventEmitter<string>());
  readonly onDidChangeSelection = this.#onDidChangeSelection.event;
  readonly #onDidChangeModels = this.register(new vscode.EventEmitter<{ env: string; kind: ModelKind }>());
  /** Fires when an environment's cached list of models of a kind changes (new ids, or forgotten). */
  readonly onDidChangeModels = this.#onDidChangeModels.event;

  /** `env \n kind` → tag of the key the cached list was fetched with (memory only; see `isCurrent`). */
  readonly #listedWithKey = new Map<string, string>();
  /** Lists being fetched for the cache, shared by everyone who asks meanwhile. */
  readonly #fetches = new SharedOperations<string[]>();

  constructor(
    private readonly memento: vscode.Memento,
    private readonly environments: Environments,
    private readonly api: ApiAccess,
    private readonly keys: ApiKeyStore,
  ) {
    super();
  }

  cached(env: string, kind: ModelKind): CachedModelList | undefined {
    return this.memento.get<CachedModelList>(CACHE_KEY(env, kind));
  }

  /**
   * The ids of the environment's models of that kind, from the cache while it is current (fresh,
   * from the environment's address, with its key); callers that ask while that list is being
   * fetched share the one request. `refresh` always asks the service (the balance comes with the
   * answer). `quiet`: a 429 fails at once instead of showing a retry countdown (for lists nobody
   * asked for on screen).
   */
  async list(kind: ModelKind, envName = this.environments.active().name, options: { refresh?: boolean; signal?: AbortSignal; quiet?: boolean } = {}): Promise<string[]> {
    if (options.refresh) return this.#fetch(kind, envName, options);
    const cached = await this.#current(kind, envName);
    if (cached) return cached.ids;
    const shared = this.#fetches.run(`${envName}\n${kind}\n${options.quiet ? 'quiet' : 'retrying'}`, () => this.#fetch(kind, envName, { quiet: options.quiet }));
    return untilAborted(shared, options.signal, () => new ApiError('cancelled', vscode.l10n.t('The request was cancelled.')));
  }

  async #current(kind: ModelKind, envName: string): Promise<CachedModelList | undefined> {
    const cached = this.cached(envName, kind);
    const env = this.environments.get(envName);
    if (!cached || !env) return undefined;
    const wanted = {
      now: Date.now(),
      lifetimeMs: readSetting('inference.modelCacheMinutes') * 60_000,
      baseUrl: env.baseUrl,
      keyTag: keyTag(await this.keys.get(envName)),
      listedWithKeyTag: this.#listedWithKey.get(`${envName}\n${kind}`),
    };
    return isCurrent(cached, wanted) ? cached : undefined;
  }

  async #fetch(kind: ModelKind, envName: string, options: { signal?: AbortSignal; quiet?: boolean | undefined }): Promise<string[]> {
    const client = await this.api.client(envName);
    const usedKey = keyTag(await this.keys.get(envName));
    const fetch = () => client.listModels({ type: kind, ...(options.signal && { signal: options.signal }) });
    const { models } = options.quiet ? await fetch() : await this.api.withRateLimitRetry('model list', fetch, options.signal);
    const ids = [...new Set(models.map((model) => model.id))];
    await this.#store(envName, kind, ids, usedKey);
    return ids;
  }

  /**
   * Stores a list fetched elsewhere (the key check fetches one with the key it is about to store),
   * so the picker and VS Code's model list need no second call.
   */
  async remember(envName: string, kind: ModelKind, ids: string[]): Promise<void> {
    await this.#store(envName, kind, ids, undefined);
  }

  async #store(envName: string, kind: ModelKind, ids: string[], usedKeyTag: string | undefined): Promise<void> {
    const previous = this.cached(envName, kind)?.ids;
    const baseUrl = this.environments.get(envName)?.baseUrl;
    if (usedKeyTag) this.#listedWithKey.set(`${envName}\n${kind}`, usedKeyTag);
    else this.#listedWithKey.delete(`${envName}\n${kind}`);
    await this.memento.update(CACHE_KEY(envName, kind), { ids, fetchedAt: Date.now(), ...(baseUrl && { baseUrl }) } satisfies CachedModelList);
    // Only a different list is news: listeners re-read the list, and a refresh that finds the same ids must not loop.
    if (!previous || previous.length !== ids.length || previous.some((id, i) => id !== ids[i])) this.#onDidChangeModels.fire({ env: envName, kind });
  }

  selected(kind: ModelKind, envName = this.environments.active().name): string | undefined {
    return this.memento.get<string>(SELECTED_KEY(envName, kind));
  }

  selectedChatModel(envName?: string): string | undefined {
    return this.selected('chat', envName);
  }

  async select(kind: ModelKind, id: string | undefined, envName = this.environments.active().name): Promise<void> {
    await this.memento.update(SELECTED_KEY(envName, kind), id);
    this.#onDidChangeSelection.fire(envName);
  }

  /** Forgets the cached lists of the environment: both kinds, or only `kind`. */
  async invalidate(envName: string, kind?: ModelKind): Promise<void> {
    for (const each of kind ? [kind] : (['chat', 'image'] as const)) {
      if (!this.cached(envName, each)) continue;
      await this.memento.update(CACHE_KEY(envName, each), undefined);
      this.#onDidChangeModels.fire({ env: envName, kind: each });
    }
  }

  /**
   * A 404 for a model of `kind`: that id is stale, so forget that kind's list and choice. The other
   * kind is untouched: an image model unknown to the service says nothing about the chat model.
   */
  async onModelNotFound(envName: string, kind: ModelKind = 'chat'): Promise<void> {
    await this.invalidate(envName, kind);
    await this.select(kind, undefined, envName);
  }

  /** The picker: the environment's chat models with the current one marked, and a refresh button. */
  async pickChatModel(envName = this.environments.active().name): Promise<string | undefined> {
    return this.pick('chat', envName);
  }

  async pick(kind: ModelKind, envName = this.environments.active().name, extraIds: string[] = []): Promise<string | undefined> {
    const env = this.environments.get(envName) ?? this.environments.active();
    const picker = vscode.window.createQuickPick<vscode.QuickPickItem & { id: string }>();
    const refresh: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('refresh'), tooltip: vscode.l10n.t('Refresh the model list') };
    picker.title = kind === 'chat' ? vscode.l10n.t('Chat model for {0}', env.label) : vscode.l10n.t('Image model for {0}', env.label);
    picker.placeholder = vscode.l10n.t('Models offered by this environment');
    picker.buttons = [refresh];
    picker.matchOnDescription = true;
    const current = this.selected(kind, env.name);
    const load = async (refreshList: boolean) => {
      picker.busy = true;
      try {
        const ids = [...extraIds, ...(await this.list(kind, env.name, { refresh: refreshList }))];
        picker.items = ids.map((id) => ({
          id,
          label: id,
          ...(id === current && { description: vscode.l10n.t('(current)'), picked: true, iconPath: new vscode.ThemeIcon('check') }),
        }));
        const active = picker.items.find((item) => item.id === current);
        if (active) picker.activeItems = [active];
        if (ids.length === 0) picker.placeholder = vscode.l10n.t('This environment offers no models of this kind');
      } finally {
        picker.busy = false;
      }
    };
    try {
      return await new Promise<string | undefined>((resolve, reject) => {
        picker.onDidAccept(() => {
          // Enter on a list still loading (or empty) chooses nothing: the picker stays, so a failed load is still shown.
          const chosen = picker.selectedItems[0]?.id;
          if (chosen === undefined) return;
          resolve(chosen);
          picker.hide();
        });
        picker.onDidHide(() => resolve(undefined));
        picker.onDidTriggerButton(() => load(true).catch(reject));
        picker.show();
        load(false).catch((error: unknown) => {
          picker.hide();
          reject(error);
        });
      }).then(async (id) => {
        if (id) await this.select(kind, id, env.name);
        return id;
      });
    } finally {
      picker.dispose();
    }
  }
}
