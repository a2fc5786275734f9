import vscode = require('vscode');
import { limitSummary, warnedLimit, type PeriodSpend } from '../../core/usage/spendingLimits';
import { affectsSetting } from './config';
import { Disposable } from './disposable';
import type { Environments } from './environments';
import type { SpendingGuard } from '../../core/usage/spendingGuard';
import type { UsageLedger } from './usageLedger';

/** globalState key of the periods whose warning was shown: `environment period start` (shared by windows). */
const WARNED_KEY = 'inference.spendingLimitWarned';

/**
 * Where the active environment stands against its spending limits, recomputed (from every window's
 * ledger entries) when spend is recorded or the settings change, for the status bar. At a limit's
 * warning fraction the user is notified once per period (the period's start is remembered).
 */
export class SpendingWatch extends Disposable {
  #warned: PeriodSpend | undefined;
  #environment = '';
  #generation = 0;
  readonly #onDidChange = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.#onDidChange.event;

  readonly #guard: SpendingGuard;
  readonly #environments: Environments;
  readonly #state: vscode.Memento;

  constructor(guard: SpendingGuard, environments: Environments, usage: UsageLedger, state: vscode.Memento) {
    super();
    this.#guard = guard;
    this.#environments = environments;
    this.#state = state;
    const refresh = () => void this.refresh();
    this.register(usage.onDidChange(refresh));
    this.register(environments.onDidChange(refresh));
    this.register(vscode.workspace.onDidChangeConfiguration((event) => {
      if (affectsSetting(event, 'inference.spendingLimits', 'inference.unmeasuredRequestCredits')) refresh();
    }));
    refresh();
  }

  /** The active environment's limit closest to being reached, when it is at its warning fraction or past it. */
  warned(environment: string): PeriodSpend | undefined {
    return environment === this.#environment ? this.#warned : undefined;
  }

  async refresh(): Promise<void> {
    const generation = ++this.#generation;
    const environment = this.#environments.active().name;
    const limit = this.#guard.limitOf(environment);
    // What was spent (reservations are requests still in flight, not spend): a request that just ended shows its own cost.
    const warned = limit ? warnedLimit(await this.#guard.spend(environment, limit, 0)) : undefined;
    if (generation !== this.#generation) return; // A later refresh is under way.
    this.#environment = environment;
    this.#warned = warned;
    this.#onDidChange.fire();
    if (warned) await this.#notifyOnce(environment, warned);
  }

  async #notifyOnce(environment: string, spend: PeriodSpend): Promise<void> {
    const key = `${environment} ${spend.period} ${spend.resetsAt}`;
    const shown = this.#state.get<string[]>(WARNED_KEY, []);
    if (shown.includes(key)) return;
    // Keep the last few: periods end, and an old key can never match again.
    await this.#state.update(WARNED_KEY, [...shown.slice(-19), key]);
    const raise = vscode.l10n.t('Raise Limit');
    const choice = await vscode.window.showWarningMessage(limitSummary(spend, environment), raise);
    if (choice === raise) await vscode.commands.executeCommand('workbench.action.openSettings', 'inference.spendingLimits');
  }
}
