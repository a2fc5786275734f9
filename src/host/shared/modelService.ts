import vscode = require('vscode');
import { ApiError } from '../../core/api/errors';
import { SharedOperations, untilAborted, type CachedModelList, type ListSource } from '../../core/models/modelListCache';
import { PersistedModelLists, type ModelKind } from '../../core/models/persistedModelLists';
import type { ApiAccess } from './apiAccess';
import type { ApiKeyStore } from './apiKeyStore';
import { readSetting } from './config';
import { Disposable } from './disposable';
import type { Environments } from './environments';

/** What a model is chosen for: a kind of list, or inline suggestions, which take one of the chat models. */
export type ModelRole = ModelKind | 'suggestion';
const LIST_OF: Readonly<Record<ModelRole, ModelKind>> = { chat: 'chat', image: 'image', suggestion: 'chat' };

const SELECTED_KEY = (env: string, role: ModelRole) => `inference.selectedModel.${env}.${role}`;

export interface ListOptions {
  /** Always ask the service (the balance comes with the answer). */
  refresh?: boolean;
  signal?: AbortSignal;
  /** A 429 fails at once instead of showing a retry countdown (for lists nobody asked for on screen). */
  quiet?: boolean;
  /**
   * A stored list of this address and key answers even past its lifetime, and is refreshed in the
   * background (at most once per lifetime, across windows): for VS Code's model-list questions, which
   * must not hold up its start on the network.
   */
  staleWhileRefreshing?: boolean;
}

/**
 * Model ids come only from GET /models of the environment (never guessed), persisted in globalState
 * per environment (shared by windows, core/models/persistedModelLists.ts) and current for
 * `inference.modelCacheMinutes` while the environment's address and key stay the same; the chosen
 * model is remembered per environment.
 */
export class ModelService extends Disposable {
  readonly #onDidChangeSelection = this.register(new vscode.EventEmitter<string>());
  readonly onDidChangeSelection = this.#onDidChangeSelection.event;
  readonly #onDidChangeModels = this.register(new vscode.EventEmitter<{ env: string; kind: ModelKind }>());
  /** Fires when an environment's cached list of models of a kind changes (new ids, or forgotten). */
  readonly onDidChangeModels = this.#onDidChangeModels.event;

  /** Lists being fetched for the cache, shared by everyone who asks meanwhile. */
  readonly #fetches = new SharedOperations<string[]>();
  readonly #lists: PersistedModelLists;

  readonly #memento: vscode.Memento;
  readonly #environments: Environments;
  readonly #api: ApiAccess;
  readonly #keys: ApiKeyStore;
  readonly #log: vscode.LogOutputChannel | undefined;

  constructor(
    memento: vscode.Memento,
    environments: Environments,
    api: ApiAccess,
    keys: ApiKeyStore,
    log?: vscode.LogOutputChannel,
  ) {
    super();
    this.#memento = memento;
    this.#environments = environments;
    this.#api = api;
    this.#keys = keys;
    this.#log = log;
    this.#lists = new PersistedModelLists(memento, Date.now);
  }

  cached(env: string, kind: ModelKind): CachedModelList | undefined {
    return this.#lists.entry(env, kind);
  }

  /**
   * The ids of the environment's models of that kind, from the stored list while it is current (fresh,
   * from the environment's address, with its key); callers that ask while that list is being fetched
   * share the one request.
   */
  async list(kind: ModelKind, envName = this.#environments.active().name, options: ListOptions = {}): Promise<string[]> {
    if (options.refresh) return this.#fetch(kind, envName, options);
    const source = await this.#source(envName);
    const lifetimeMs = readSetting('inference.modelCacheMinutes') * 60_000;
    const found = source ? this.#lists.lookup(envName, kind, source, lifetimeMs) : { state: 'none' as const };
    if (found.state === 'current') return found.ids;
    if (found.state === 'stale' && options.staleWhileRefreshing && source) {
      void this.#refreshInBackground(kind, envName, source, lifetimeMs);
      return found.ids;
    }
    const shared = this.#fetches.run(fetchKey(envName, kind, options.quiet ? 'quiet' : 'retrying', source), () => this.#fetch(kind, envName, { quiet: options.quiet }));
    return untilAborted(shared, options.signal, () => new ApiError('cancelled', vscode.l10n.t('The request was cancelled.')));
  }

  /** The environment's address and the tag of its key (undefined for an unknown environment). */
  async #source(envName: string, key?: string): Promise<ListSource | undefined> {
    const env = this.#environments.get(envName);
    if (!env) return undefined;
    return { baseUrl: env.baseUrl, keyTag: await this.#keys.tag(key ?? await this.#keys.get(envName)) };
  }

  async #refreshInBackground(kind: ModelKind, envName: string, source: ListSource, lifetimeMs: number): Promise<void> {
    if (!(await this.#lists.claimRefresh(envName, kind, source, lifetimeMs))) return;
    try {
      await this.#fetches.run(fetchKey(envName, kind, 'quiet', source), () => this.#fetch(kind, envName, { quiet: true }));
    } catch (error) {
      // The stored list keeps answering; the next attempt comes once the lifetime is over again.
      this.#log?.warn(`Model list of ${envName} (${kind}): the background refresh failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async #fetch(kind: ModelKind, envName: string, options: { signal?: AbortSignal; quiet?: boolean | undefined }): Promise<string[]> {
    const client = await this.#api.client(envName);
    const source = await this.#source(envName);
    const fetch = () => client.listModels({ type: kind, ...(options.signal && { signal: options.signal }) });
    const { models } = options.quiet ? await fetch() : await this.#api.withRateLimitRetry('model list', fetch, options.signal);
    const ids = [...new Set(models.map((model) => model.id))];
    if (source) await this.#store(envName, kind, ids, source);
    return ids;
  }

  /**
   * Stores a list fetched elsewhere (the key check fetches one with the key it is about to store:
   * `key`; otherwise the environment's stored key), so the picker and VS Code's model list need no
   * second call.
   */
  async remember(envName: string, kind: ModelKind, ids: string[], key?: string): Promise<void> {
    const source = await this.#source(envName, key);
    if (source) await this.#store(envName, kind, ids, source);
  }

  async #store(envName: string, kind: ModelKind, ids: string[], source: ListSource): Promise<void> {
    // Only a different list is news: listeners re-read the list, and a refresh that finds the same ids must not loop.
    if (await this.#lists.save(envName, kind, ids, source)) this.#onDidChangeModels.fire({ env: envName, kind });
  }

  selected(role: ModelRole, envName = this.#environments.active().name): string | undefined {
    return this.#memento.get<string>(SELECTED_KEY(envName, role));
  }

  selectedChatModel(envName?: string): string | undefined {
    return this.selected('chat', envName);
  }

  async select(role: ModelRole, id: string | undefined, envName = this.#environments.active().name): Promise<void> {
    await this.#memento.update(SELECTED_KEY(envName, role), id);
    this.#onDidChangeSelection.fire(envName);
  }

  /** Forgets the cached lists of the environment: both kinds, or only `kind`. */
  async invalidate(envName: string, kind?: ModelKind): Promise<void> {
    for (const each of kind ? [kind] : (['chat', 'image'] as const)) {
      if (await this.#lists.forget(envName, each)) this.#onDidChangeModels.fire({ env: envName, kind: each });
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
  async pickChatModel(envName = this.#environments.active().name): Promise<string | undefined> {
    return this.pick('chat', envName);
  }

  async pick(role: ModelRole, envName = this.#environments.active().name, extraIds: string[] = []): Promise<string | undefined> {
    const kind = LIST_OF[role];
    const env = this.#environments.get(envName) ?? this.#environments.active();
    const picker = vscode.window.createQuickPick<vscode.QuickPickItem & { id: string }>();
    const refresh: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('refresh'), tooltip: vscode.l10n.t('Refresh the model list') };
    picker.title = PICKER_TITLES[role](env.label);
    picker.placeholder = vscode.l10n.t('Models offered by this environment');
    picker.buttons = [refresh];
    // Filtered on the ids alone: matching every item's description too cost VS Code's filter per
    // keystroke with 2,000 models (the only description is the current model's "(current)").
    picker.matchOnDescription = false;
    const current = this.selected(role, env.name);
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
        if (id) await this.select(role, id, env.name);
        return id;
      });
    } finally {
      picker.dispose();
    }
  }
}

const PICKER_TITLES: Readonly<Record<ModelRole, (environment: string) => string>> = {
  chat: (environment) => vscode.l10n.t('Chat model for {0}', environment),
  image: (environment) => vscode.l10n.t('Image model for {0}', environment),
  suggestion: (environment) => vscode.l10n.t('Model for inline suggestions in {0}', environment),
};

/**
 * Which callers share one model-list request: those of one environment, kind and manner, and of one
 * address and key. A request begun with a key (or address) that a caller has just replaced answers
 * for the old one: shared, it gave the new key's caller the old key's 401.
 */
function fetchKey(envName: string, kind: ModelKind, manner: 'quiet' | 'retrying', source: ListSource | undefined): string {
  return [envName, kind, manner, source?.baseUrl ?? '', source?.keyTag ?? ''].join('\n');
}
