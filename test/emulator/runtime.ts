/** Everything one environment's listener needs; built once per environment by index.ts. */
import { FaultQueue } from './faults';
import { extraChatModels, type ModelCatalog } from './models';
import { KeyStore, type KeyRecord, type WalletName } from './keys';
import { SlidingWindowLimiter } from './rateLimit';
import { ScriptedReplies } from './scripted';
import type { EnvironmentName, Pacing, RequestRecord, ResolvedOptions, SuggestionStyle } from './types';
import { Wallet } from './wallet';

export class EnvRuntime {
  readonly keys: KeyStore;
  readonly wallets: Record<WalletName, Wallet>;
  readonly faults = new FaultQueue();
  readonly limiter = new SlidingWindowLimiter();
  readonly scripted = new ScriptedReplies();
  /** The environment's catalog, plus the extra chat models a test asked for (setExtraChatModels). */
  readonly catalog: ModelCatalog;
  /** The options' pacing until a test changes it (setPacing, POST /__emulator/pacing). */
  pacing: Pacing;
  suggestionStyle: SuggestionStyle;

  constructor(
    readonly name: EnvironmentName,
    private readonly baseCatalog: ModelCatalog,
    readonly options: ResolvedOptions,
    /** The emulator-wide request log (shared by both environments). */
    readonly log: RequestRecord[],
  ) {
    this.keys = new KeyStore(options.keyPrefix, options.defaultRpm, options.fullKeys[name]);
    this.wallets = { main: new Wallet(options.initialCredits), broke: new Wallet(0) };
    this.catalog = { chat: [...baseCatalog.chat], image: [...baseCatalog.image] };
    this.pacing = { firstTokenDelayMs: options.firstTokenDelayMs, tokensPerSecond: options.tokensPerSecond };
    this.suggestionStyle = options.suggestionStyle;
  }

  /** The catalog's own chat models and `count` more (a long model list, for the picker's benchmark). */
  setExtraChatModels(count: number): void {
    this.catalog.chat = [...this.baseCatalog.chat, ...extraChatModels(this.name, count)];
  }

  walletOf(key: KeyRecord): Wallet {
    return this.wallets[key.wallet];
  }

  /** Wallets, rpm windows, faults, scripted replies, the model list, pacing, suggestion style and this environment's log entries back to start. */
  reset(): void {
    this.setExtraChatModels(0);
    this.pacing = { firstTokenDelayMs: this.options.firstTokenDelayMs, tokensPerSecond: this.options.tokensPerSecond };
    this.suggestionStyle = this.options.suggestionStyle;
    this.wallets.main.reset();
    this.wallets.broke.reset();
    this.limiter.reset();
    this.faults.clear();
    this.scripted.clear();
    for (let i = this.log.length - 1; i >= 0; i--) {
      if (this.log[i].env === this.name) this.log.splice(i, 1);
    }
  }
}
