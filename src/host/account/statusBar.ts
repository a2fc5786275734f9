import vscode = require('vscode');
import type { Services } from '../shared/services';
import type { StatusItems } from '../shared/statusItems';
import { readSetting } from '../shared/config';
import { formatCredits, SPEND_DIGITS } from '../../core/credits';
import { markdownLiteral } from '../../core/markdownText';
import { Disposable } from '../shared/disposable';
import { describeAge } from '../shared/format';
import { limitSummary } from '../../core/usage/spendingLimits';

/** What the two items show and follow. */
export type AccountStatusBarServices = Pick<Services, 'account' | 'environments' | 'models' | 'usage' | 'spendingWatch'>;

/**
 * Two status-bar items: the active environment with its chat model (click: pick a model) and the wallet
 * balance (click: the account menu). Both follow every response, environment switch and model choice.
 */
export class AccountStatusBar extends Disposable {
  readonly #model: vscode.StatusBarItem;
  readonly #balance: vscode.StatusBarItem;
  readonly #items: StatusItems;

  readonly #services: AccountStatusBarServices;

  constructor(services: AccountStatusBarServices, items: StatusItems) {
    super();
    this.#services = services;
    this.#items = items;
    this.#balance = this.register(items.create('inference.balance', vscode.StatusBarAlignment.Right, 100));
    this.#balance.name = 'Inference: Credit Balance';
    this.#balance.command = 'inference.showAccountMenu';
    this.#model = this.register(items.create('inference.model', vscode.StatusBarAlignment.Right, 101));
    this.#model.name = 'Inference: Environment and Model';
    this.#model.command = 'inference.pickModel';
    const refresh = () => this.update();
    this.register(services.account.onDidChange(refresh));
    this.register(services.environments.onDidChange(refresh));
    this.register(services.models.onDidChangeSelection(refresh));
    this.register(services.usage.onDidChange(refresh));
    this.register(services.spendingWatch.onDidChange(refresh));
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
    const env = this.#services.environments.active();
    const snapshot = this.#services.account.get(env.name);
    const model = this.#services.models.selectedChatModel(env.name);
    if (this.#services.environments.all().length === 0) {
      this.#model.text = `$(add) ${vscode.l10n.t('Add Inference Environment')}`;
      this.#model.tooltip = vscode.l10n.t('No environment of the service is configured yet. Click to add one (name, address, key).');
      this.#model.command = 'inference.addEnvironment';
    } else if (env.problem) {
      this.#model.text = `$(warning) ${env.label}`;
      this.#model.tooltip = vscode.l10n.t('{0} Click to choose an environment.', env.problem.message);
      this.#model.command = 'inference.switchEnvironment';
    } else {
      // Without a model, the item says what clicking it does rather than what is missing.
      this.#model.text = `$(server-environment) ${env.label} · ${model ?? vscode.l10n.t('pick a chat model')}`;
      this.#model.tooltip = model ? vscode.l10n.t('Chat model in {0}: {1}. Click to pick another.', env.label, model) : vscode.l10n.t('No chat model chosen for {0}. Click to pick one.', env.label);
      this.#model.command = 'inference.pickModel';
    }

    const balance = snapshot.balanceCredits;
    const threshold = readSetting('inference.balanceWarningThreshold');
    const low = balance !== undefined && balance < threshold;
    // A spending limit at its warning fraction (or reached) warns like a low balance.
    const limit = this.#services.spendingWatch.warned(env.name);
    const warn = low || limit !== undefined;
    this.#balance.text = balance === undefined ? `$(${limit ? 'warning' : 'credit-card'}) ${vscode.l10n.t('balance unknown')}` : `$(${warn ? 'warning' : 'credit-card'}) ${vscode.l10n.t('{0} credits', formatCredits(balance))}`;
    this.#balance.backgroundColor = warn ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.#balance.accessibilityInformation = {
      label: balance === undefined ? vscode.l10n.t('Credit balance in {0} unknown', env.label)
        : low ? vscode.l10n.t('Credit balance in {0}: {1} credits, below the warning threshold', env.label, formatCredits(balance))
          : vscode.l10n.t('Credit balance in {0}: {1} credits', env.label, formatCredits(balance)),
    };

    // Trusted for its one command link, so nothing from outside goes in unescaped (and no theme icons: see markdownLiteral).
    const tooltip = new vscode.MarkdownString();
    tooltip.isTrusted = { enabledCommands: ['inference.showUsage'] };
    tooltip.appendMarkdown(`**${vscode.l10n.t('Inference: {0}', markdownLiteral(env.label))}**\n\n`);
    const balanceText = balance === undefined ? vscode.l10n.t('unknown until the first request')
      : [
        vscode.l10n.t('{0} credits', formatCredits(balance)),
        snapshot.balanceAt ? vscode.l10n.t('(as of {0})', describeAge(snapshot.balanceAt)) : '',
        low ? vscode.l10n.t('— below {0}', formatCredits(threshold)) : '',
      ].filter(Boolean).join(' ');
    const today = this.#services.usage.spendToday(env.name);
    // A spend, with a spend's digits: the limit's row beside it shows the same sum so.
    const spentToday = formatCredits(today.credits, SPEND_DIGITS);
    const todayText = today.unmeasured === 0 ? vscode.l10n.t('{0} credits', spentToday)
      : today.unmeasured === 1 ? vscode.l10n.t('{0} credits, and 1 request not measured', spentToday)
        : vscode.l10n.t('{0} credits, and {1} requests not measured', spentToday, today.unmeasured);
    const rows: Array<[string, string]> = [
      [vscode.l10n.t('Balance'), balanceText],
      [vscode.l10n.t('Today'), `${todayText} ([${vscode.l10n.t('details')}](command:inference.showUsage))`],
      ...(limit ? [[vscode.l10n.t('Spending limit'), markdownLiteral(limitSummary(limit, env.label))] as [string, string]] : []),
      [vscode.l10n.t('Model'), model ? markdownLiteral(model) : vscode.l10n.t('none chosen')],
      [vscode.l10n.t('Rate limit'), snapshot.rateLimitRequests === undefined ? vscode.l10n.t('unknown') : vscode.l10n.t('{0} requests/min', snapshot.rateLimitRequests)],
      [vscode.l10n.t('Last request'), snapshot.lastRequestId ? `${markdownLiteral(snapshot.lastRequestId)}${snapshot.lastRequestAt ? ` (${describeAge(snapshot.lastRequestAt)})` : ''}` : vscode.l10n.t('none yet')],
      ...(snapshot.lastHost ? [[vscode.l10n.t('Served by'), markdownLiteral(snapshot.lastHost)] as [string, string]] : []),
    ];
    tooltip.appendMarkdown(rows.map(([name, value]) => `${name}: ${value}`).join('  \n'));
    tooltip.appendMarkdown(`\n\n${vscode.l10n.t('Click for environment, key, model and logs.')}`);
    this.#balance.tooltip = tooltip;
    this.#items.changed(this.#model);
    this.#items.changed(this.#balance);
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
