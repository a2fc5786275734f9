/** Everything one environment's listener needs; built once per environment by index.ts. */
import { FaultQueue } from './faults';
import type { ModelCatalog } from './models';
import { KeyStore, type KeyRecord, type WalletName } from './keys';
import { SlidingWindowLimiter } from './rateLimit';
import { ScriptedReplies } from './scripted';
import type { EnvironmentName, RequestRecord, ResolvedOptions } from './types';
import { Wallet } from './wallet';

export class EnvRuntime {
  readonly keys: KeyStore;
  readonly wallets: Record<WalletName, Wallet>;
  readonly faults = new FaultQueue();
  readonly limiter = new SlidingWindowLimiter();
  readonly scripted = new ScriptedReplies();

  constructor(
    readonly name: EnvironmentName,
    readonly catalog: ModelCatalog,
    readonly options: ResolvedOptions,
    /** The emulator-wide request log (shared by both environments). */
    readonly log: RequestRecord[],
  ) {
    this.keys = new KeyStore(options.keyPrefix, options.defaultRpm);
    this.wallets = { main: new Wallet(options.initialCredits), broke: new Wallet(0) };
  }

  walletOf(key: KeyRecord): Wallet {
    return this.wallets[key.wallet];
  }

  /** Wallets, rpm windows, faults, scripted replies and this environment's log entries back to start. */
  reset(): void {
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
