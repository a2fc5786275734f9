import vscode = require('vscode');
import { webviewHtml } from '../../core/webviewHtml';
import { buildUsageReport, lastDays, REPORT_DAYS, usageCsvStreamed } from '../../core/usage/report';
import { suggestionsBudget } from '../../core/usage/spendBudget';
import { readSetting } from '../shared/config';
import { parseShowUsageArgs, parseUsageWebviewMessage, USAGE_PROTOCOL_VERSION, type LimitRow, type ShowUsageArgs, type UsageHostMessage, type UsageWebviewMessage } from '../../core/usage/protocol';
import { LIMIT_PERIODS, stateOf, type PeriodSpend } from '../../core/usage/spendingLimits';
import { Disposable, type Registered } from '../shared/disposable';
import type { Services } from '../shared/services';

export const USAGE_VIEW_TYPE = 'inference.usage';

/** The assets (context), the ledger, and the limits' rows (environments, billing, endpoint tokens). */
export type UsageServices = Pick<Services, 'context' | 'usage' | 'endpointTokens' | 'environments' | 'billing' | 'log' | 'suggestionCounts'>;

/**
 * "Inference: Show Usage": one panel that draws the local ledger (spend per day, the most expensive
 * requests, totals per environment) and exports it as CSV. It follows new records while open.
 */
export class UsagePanel extends Disposable {
  static #current: UsagePanel | undefined;
  #ready = false;
  /** The endpoint token the view is narrowed to (its id); undefined: every request. */
  #tokenFilter: string | undefined;
  /** The comparison the view is narrowed to (its id, or ALL_COMPARISONS); undefined: every request. */
  #comparisonFilter: string | undefined;

  /** Shows the view; `args` (Show Usage's, from the chat or a link) may narrow it to a comparison. */
  static async show(services: UsageServices, args: ShowUsageArgs = {}): Promise<UsagePanel> {
    const existing = UsagePanel.#current;
    if (existing) {
      if (args.comparison !== undefined) existing.#comparisonFilter = args.comparison;
      existing.panel.reveal();
      await existing.refresh(true);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(USAGE_VIEW_TYPE, vscode.l10n.t('Inference Usage'), vscode.ViewColumn.Active, { enableScripts: true, enableForms: false });
    const created = new UsagePanel(panel, services);
    created.#comparisonFilter = args.comparison;
    UsagePanel.#current = created;
    return created;
  }

  readonly #services: UsageServices;

  private constructor(readonly panel: vscode.WebviewPanel, services: UsageServices) {
    super();
    this.#services = services;
    const extensionUri = services.context.extensionUri;
    // Like the chat: its own script runs, no forms, no command: links.
    panel.webview.options = {
      enableScripts: true,
      enableForms: false,
      enableCommandUris: false,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')],
    };
    const asset = (...segments: string[]) => panel.webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...segments)).toString();
    panel.webview.html = webviewHtml({
      cspSource: panel.webview.cspSource,
      scriptUri: asset('dist', 'webview', 'usage.js'),
      styleUris: [asset('dist', 'webview', 'codicon.css'), asset('media', 'usage.css')],
      rootId: 'usage-root',
      title: vscode.l10n.t('Usage'),
      ...(vscode.l10n.bundle && { l10nBundle: vscode.l10n.bundle }),
      language: vscode.env.language,
    });
    this.register(panel.webview.onDidReceiveMessage((raw: unknown) => void this.#onMessage(raw)));
    this.register(panel.onDidChangeViewState(() => {
      if (!panel.visible) this.#ready = false;
    }));
    this.register(panel.onDidDispose(() => void this.dispose()));
    this.register(services.usage.onDidChange(() => void this.refresh(false)));
    this.register(services.endpointTokens.onDidChange(() => void this.refresh(false)));
  }

  /** Posts a fresh report; `reread` first reads what other windows recorded. */
  async refresh(reread: boolean): Promise<void> {
    if (reread) await this.#services.usage.reload(REPORT_DAYS);
    if (!this.#ready) return;
    const now = this.#services.usage.clock();
    const suggestionCounts = this.#services.suggestionCounts.totals(lastDays(now, REPORT_DAYS));
    const report = buildUsageReport(this.#services.usage.entries(), now, {
      suggestionCounts,
      ...(this.#tokenFilter !== undefined && { token: this.#tokenFilter }),
      ...(this.#comparisonFilter !== undefined && { comparison: this.#comparisonFilter }),
    });
    const message: UsageHostMessage = { v: USAGE_PROTOCOL_VERSION, type: 'report', report, limits: await this.#limits() };
    void this.panel.webview.postMessage(message);
  }

  /** Each environment's spend (every window's) against each of its limits, then each endpoint token's and the suggestions' against their daily limits. */
  async #limits(): Promise<LimitRow[]> {
    const rows: LimitRow[] = [];
    const row = (spend: PeriodSpend, environment: string, token?: string, suggestions?: true): LimitRow => ({
      environment, ...(token !== undefined && { token }), ...(suggestions && { suggestions }), period: spend.period, periodLabel: LIMIT_PERIODS[spend.period].label(), limit: spend.limit, counted: spend.counted, unmeasured: spend.unmeasured, state: stateOf(spend), resetsAt: spend.resetsAt,
    });
    for (const environment of this.#services.environments.all()) {
      const limit = this.#services.billing.limitOf(environment.name);
      if (!limit) continue;
      for (const spend of await this.#services.billing.spend(environment.name, limit, 0)) rows.push(row(spend, environment.label));
    }
    for (const token of this.#services.endpointTokens.list()) {
      if (token.dailyLimit !== undefined) rows.push(row(await this.#services.billing.tokenSpend(token.id, token.dailyLimit), '', token.name));
    }
    const suggestions = suggestionsBudget(readSetting('inference.suggestions.dailyBudgetCredits'));
    if (suggestions) rows.push(row(await this.#services.billing.budgetSpend(suggestions), '', undefined, true));
    return rows;
  }

  async #onMessage(raw: unknown): Promise<void> {
    const message = parseUsageWebviewMessage(raw);
    if (!message) {
      this.#services.log.warn(`Usage view: ignored a malformed message: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    try {
      await this.#handle(message);
    } catch (error) {
      void vscode.window.showErrorMessage(error instanceof Error ? error.message : String(error));
    }
  }

  async #handle(message: UsageWebviewMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.#ready = true;
        return this.refresh(true);
      case 'refresh':
        return this.refresh(true);
      case 'copyRequestId':
        await vscode.env.clipboard.writeText(message.requestId);
        vscode.window.setStatusBarMessage(`$(copy) ${vscode.l10n.t('Copied request ID {0}', message.requestId)}`, 4000);
        return;
      case 'exportCsv':
        await exportUsageCsv(this.#services);
        return;
      case 'filterToken':
        this.#tokenFilter = message.token ?? undefined;
        return this.refresh(false);
      case 'filterComparison':
        this.#comparisonFilter = message.comparison ?? undefined;
        return this.refresh(false);
    }
  }

  override dispose(): Promise<void> {
    if (UsagePanel.#current === this) UsagePanel.#current = undefined;
    return super.dispose();
  }
}

/** The whole ledger (not just the 30 days shown, streamed from the file) as CSV in a new untitled document, for the user to save or paste. */
export async function exportUsageCsv(services: Pick<Services, 'usage'>): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument({ content: await usageCsvStreamed(services.usage.all()) });
  await vscode.window.showTextDocument(document, { preview: false });
  return document;
}

export function registerUsage(services: UsageServices): Registered {
  return vscode.Disposable.from(
    vscode.commands.registerCommand('inference.showUsage', async (args?: unknown) => {
      await UsagePanel.show(services, parseShowUsageArgs(args));
    }),
  );
}
