import vscode = require('vscode');
import { suggestionsStatus, type SuggestionsSpend, type SuggestionsState } from '../../core/suggestions/suggestionsStatus';
import { readSetting } from '../shared/config';
import { Disposable } from '../shared/disposable';
import { LazyFeature } from '../shared/lazyFeature';
import type { Releasable } from '../shared/disposable';
import type { Services } from '../shared/services';
import type { StatusItems } from '../shared/statusItems';

/** Until when suggestions are snoozed (epoch ms), shared by the user's windows. */
export const SNOOZED_UNTIL_KEY = 'inference.suggestions.snoozedUntil';

export type SuggestionsShellServices = Pick<Services, 'globalState' | 'environments' | 'models' | 'usage' | 'log'> & {
  readonly billing: Pick<Services['billing'], 'kindSpendToday'>;
};

/** The loaded feature, as the shell uses it: the provider it hands VS Code's questions to. */
export interface LoadedSuggestions extends Releasable {
  readonly provider: vscode.InlineCompletionItemProvider;
}

/** What only the loaded feature knows: a limit it hit, a failure it saw. */
export interface SuggestionsRuntime {
  readonly paused?: Extract<SuggestionsState, { kind: 'limit' | 'failing' }>;
}

/**
 * What activation does for inline suggestions: the status-bar item (on, off, snoozed, paused, what
 * they cost today) and, only while the user has turned them on, the provider VS Code asks as they
 * type. The feature's code (the suggester, the commands, the counts) loads on the first question or
 * command (LazyFeature): a user who never turns suggestions on never loads it.
 */
export class SuggestionsShell extends Disposable {
  readonly feature: LazyFeature<LoadedSuggestions>;
  readonly #item: vscode.StatusBarItem;
  readonly #items: StatusItems;
  #provider: vscode.Disposable | undefined;
  #runtime: SuggestionsRuntime = {};
  /** Today's suggestions, read from the period sums (their cost does not grow with the ledger). */
  #spend: SuggestionsSpend | undefined;
  readonly #onDidResume = this.register(new vscode.EventEmitter<void>());
  /** The user chose Resume Now: whatever held suggestions back is tried again. */
  readonly onDidResume = this.#onDidResume.event;
  /** Updates the item when a snooze or a pause ends, so that it never says a state that is over. */
  #expiry: NodeJS.Timeout | undefined;

  readonly #services: SuggestionsShellServices;

  constructor(services: SuggestionsShellServices, items: StatusItems, load: (shell: SuggestionsShell) => Promise<() => LoadedSuggestions>) {
    super();
    this.#services = services;
    this.#items = items;
    this.feature = this.register(new LazyFeature('suggestions', () => load(this)));
    this.#item = this.register(items.create('inference.suggestions', vscode.StatusBarAlignment.Right, 99));
    this.#item.name = vscode.l10n.t('Inference: Inline Suggestions');
    this.#item.command = 'inference.suggestionsMenu';
    const refresh = () => this.update();
    this.register(services.environments.onDidChange(refresh));
    this.register(services.models.onDidChangeSelection(refresh));
    this.register(vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('inference.suggestions.enabled')) this.#readSpend();
    }));
    this.register(services.usage.onDidChange(() => this.#readSpend()));
    this.register({ dispose: () => this.#provider?.dispose() });
    this.register({ dispose: () => clearTimeout(this.#expiry) });
    this.update();
    this.#item.show();
    // After activation: the sums are a small file, but activation waits for no file.
    setImmediate(() => this.#readSpend());
  }

  get enabled(): boolean {
    return readSetting('inference.suggestions.enabled');
  }

  snoozedUntil(now = Date.now()): number | undefined {
    const until = this.#services.globalState.get<number>(SNOOZED_UNTIL_KEY);
    return typeof until === 'number' && until > now ? until : undefined;
  }

  /** What the item shows now; the loaded feature hands in what it knows. */
  state(now = Date.now()): SuggestionsState {
    if (!this.enabled) return { kind: 'off' };
    const snoozed = this.snoozedUntil(now);
    if (snoozed !== undefined) return { kind: 'snoozed', until: snoozed };
    const { paused } = this.#runtime;
    if (paused && paused.until > now) return paused;
    const env = this.#services.environments.active();
    const model = this.#services.models.selected('suggestion', env.name);
    return model ? { kind: 'on', environment: env.label, model } : { kind: 'noModel', environment: env.label };
  }

  setRuntime(runtime: SuggestionsRuntime): void {
    this.#runtime = runtime;
    this.update();
  }

  /** Resume Now: the pause is dropped here, and the feature drops its own (suggestionBilling.ts). */
  resume(): void {
    this.#onDidResume.fire();
    this.setRuntime({});
  }

  /**
   * Today's spend, read whenever the ledger changes while suggestions are on; off, nothing is read
   * (the item keeps the last figure it had).
   */
  #readSpend(): void {
    if (!this.enabled) return this.update();
    void this.#services.billing.kindSpendToday('suggestion').then((spend) => {
      this.#spend = { credits: spend.measured, unmeasured: spend.unmeasured };
      this.update();
    }, (error: unknown) => this.#services.log.warn(`Suggestions: could not read today's spend: ${error instanceof Error ? error.message : String(error)}`));
  }

  update(): void {
    const now = Date.now();
    const state = this.state(now);
    const view = suggestionsStatus(state, this.#spend, now);
    clearTimeout(this.#expiry);
    // The snooze's minutes left are shown too: a minute is as long as the item may wait.
    if ('until' in state) this.#expiry = setTimeout(() => this.update(), Math.min(60_000, Math.max(0, state.until - now) + 500));
    this.#item.text = view.text;
    this.#item.tooltip = view.tooltip;
    this.#item.backgroundColor = view.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.#items.changed(this.#item);
    this.#followEnabled();
  }

  /** The item as the user sees it (tests). */
  snapshot(): { text: string; tooltip: string } {
    return { text: this.#item.text, tooltip: typeof this.#item.tooltip === 'string' ? this.#item.tooltip : '' };
  }

  /** The provider is registered only while suggestions are on: off, VS Code asks nothing of this extension as the user types. */
  #followEnabled(): void {
    if (this.enabled && !this.#provider) {
      this.#provider = vscode.languages.registerInlineCompletionItemProvider({ pattern: '**' }, {
        provideInlineCompletionItems: async (document, position, context, token) =>
          (await this.feature.get()).provider.provideInlineCompletionItems(document, position, context, token) ?? undefined,
      });
    } else if (!this.enabled && this.#provider) {
      this.#provider.dispose();
      this.#provider = undefined;
    }
  }
}
