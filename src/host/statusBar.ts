import * as vscode from 'vscode';
import type { Services } from './services';
import { readSetting } from './config';
import { formatCredits } from '../core/credits';
import { Disposable } from './disposable';
import { describeAge } from './format';


/**
 * Two status-bar items: the active environment with its chat model (click: pick a model) and the wallet
 * balance (click: the account menu). Both follow every response, environment switch and model choice.
 */
export class AccountStatusBar extends Disposable {
  readonly #model: vscode.StatusBarItem;
  readonly #balance: vscode.StatusBarItem;

  constructor(private readonly services: Services) {
    super();
    this.#balance = this.register(vscode.window.createStatusBarItem('inference.balance', vscode.StatusBarAlignment.Right, 100));
    this.#balance.name = 'Inference: Credit Balance';
    this.#balance.command = 'inference.showAccountMenu';
    this.#model = this.register(vscode.window.createStatusBarItem('inference.model', vscode.StatusBarAlignment.Right, 101));
    this.#model.name = 'Inference: Environment and Model';
    this.#model.command = 'inference.pickModel';
    const refresh = () => this.update();
    this.register(services.account.onDidChange(refresh));
    this.register(services.environments.onDidChange(refresh));
    this.register(services.models.onDidChangeSelection(refresh));
    this.register(vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('inference.balanceWarningThreshold')) refresh();
    }));
    // The tooltip states the balance's age; keep it honest while the window stays open.
    const ageTimer = setInterval(refresh, 60_000);
    this.register({ dispose: () => clearInterval(ageTimer) });
    this.update();
    this.#model.show();
    this.#balance.show();
  }

  update(): void {
    const env = this.services.environments.active();
    const snapshot = this.services.account.get(env.name);
    const model = this.services.models.selectedChatModel(env.name);
    if (this.services.environments.all().length === 0) {
      this.#model.text = '$(add) Add Inference Environment';
      this.#model.tooltip = 'No environment of the service is configured yet. Click to add one (name, address, key).';
      this.#model.command = 'inference.addEnvironment';
    } else if (env.problem) {
      this.#model.text = `$(warning) ${env.label}`;
      this.#model.tooltip = `${env.problem.message} Click to choose an environment.`;
      this.#model.command = 'inference.switchEnvironment';
    } else {
      this.#model.text = `$(server-environment) ${env.label} · ${model ?? 'no model'}`;
      this.#model.tooltip = model ? `Chat model in ${env.label}: ${model}. Click to pick another.` : `No chat model chosen for ${env.label}. Click to pick one.`;
      this.#model.command = 'inference.pickModel';
    }

    const balance = snapshot.balanceCredits;
    const threshold = readSetting('inference.balanceWarningThreshold');
    const low = balance !== undefined && balance < threshold;
    this.#balance.text = balance === undefined ? '$(credit-card) balance unknown' : `$(${low ? 'warning' : 'credit-card'}) ${formatCredits(balance)} credits`;
    this.#balance.backgroundColor = low ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.#balance.accessibilityInformation = {
      label: balance === undefined ? `Credit balance in ${env.label} unknown` : `Credit balance in ${env.label}: ${formatCredits(balance)} credits${low ? ', below the warning threshold' : ''}`,
    };

    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**Inference: ${env.label}**\n\n`);
    const rows: Array<[string, string]> = [
      ['Balance', balance === undefined ? 'unknown until the first request' : `${formatCredits(balance)} credits${snapshot.balanceAt ? ` (as of ${describeAge(snapshot.balanceAt)})` : ''}${low ? ` — below ${formatCredits(threshold)}` : ''}`],
      ['Model', model ?? 'none chosen'],
      ['Rate limit', snapshot.rateLimitRequests === undefined ? 'unknown' : `${snapshot.rateLimitRequests} requests/min`],
      ['Last request', snapshot.lastRequestId ? `\`${snapshot.lastRequestId}\`${snapshot.lastRequestAt ? ` (${describeAge(snapshot.lastRequestAt)})` : ''}` : 'none yet'],
    ];
    tooltip.appendMarkdown(rows.map(([name, value]) => `${name}: ${value}`).join('  \n'));
    tooltip.appendMarkdown('\n\nClick for environment, key, model and logs.');
    this.#balance.tooltip = tooltip;
  }

  /** What the two items show right now, as text (for tests and diagnostics). */
  snapshot(): { model: string; balance: string; tooltip: string; warning: boolean } {
    const tooltip = this.#balance.tooltip;
    return {
      model: this.#model.text,
      balance: this.#balance.text,
      tooltip: typeof tooltip === 'string' ? tooltip : tooltip?.value ?? '',
      warning: this.#balance.backgroundColor !== undefined,
    };
  }
}
