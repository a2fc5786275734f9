import * as path from 'node:path';
import vscode = require('vscode');
import { BillingWindows, SETTLE_WAIT_MS } from '../../core/usage/billingWindows';
import { FileBillingActivity } from '../../core/usage/sharedBillingActivity';
import { SpendingGuard } from '../../core/usage/spendingGuard';
import { AccountState } from './accountState';
import { ApiAccess } from './apiAccess';
import { readSetting } from './config';
import { ApiKeyStore } from './apiKeyStore';
import { Environments } from './environments';
import { ErrorPresenter } from './errorPresenter';
import { EndpointTokens } from './endpointTokens';
import { ModelService } from './modelService';
import { SettingsProblems } from './settingsProblems';
import { SpendingWatch } from './spendingWatch';
import { createSuggestionCounts } from './suggestionCounts';
import type { SuggestionCounts } from '../../core/suggestions/suggestionCounts';
import { holdingUpdates } from '../../core/heldUpdates';
import { ledgerClock, UsageLedger } from './usageLedger';
import { WorkspaceSettingsGuard } from './workspaceSettingsGuard';

/** Everything a feature needs, built once at activation and owned by the extension context. */
export interface Services {
  readonly context: vscode.ExtensionContext;
  /** The context's global state, whose updates hold (core/heldUpdates.ts): every feature's, instead of `context.globalState`. */
  readonly globalState: vscode.Memento;
  readonly log: vscode.LogOutputChannel;
  readonly environments: Environments;
  readonly keys: ApiKeyStore;
  readonly account: AccountState;
  readonly api: ApiAccess;
  readonly models: ModelService;
  readonly errors: ErrorPresenter;
  /** Bad settings, each shown once; requests they concern are refused. */
  readonly settings: SettingsProblems;
  /** Reports workspace values of the user-level settings, which are ignored. */
  readonly workspaceGuard: WorkspaceSettingsGuard;
  /** The local record of what each request cost (no key, no prompt). */
  readonly usage: UsageLedger;
  /**
   * Billed calls in flight per environment (a call that overlapped another has no measurable spend),
   * opened before anything is sent: where the user's spending limits hold.
   */
  readonly billing: SpendingGuard;
  /** The active environment against its spending limits, for the status bar; warns once per period. */
  readonly spendingWatch: SpendingWatch;
  /**
   * The local endpoint's named tokens (SecretStorage): the endpoint accepts them, the usage view shows
   * their limits. Read on first use (both load lazily), so that activation never reads them.
   */
  readonly endpointTokens: EndpointTokens;
  /**
   * Inline suggestions requested, shown, accepted and cancelled per day and environment (global
   * state): the suggestions feature records, the usage view reads. Made on first use.
   */
  readonly suggestionCounts: SuggestionCounts;
}

export function createServices(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Services {
  const environments = new Environments();
  const keys = new ApiKeyStore(context.secrets);
  // Every service's global state through one view whose updates hold (core/heldUpdates.ts).
  const globalState = holdingUpdates(context.globalState);
  const account = new AccountState(globalState);
  const settings = new SettingsProblems(log);
  const workspaceGuard = new WorkspaceSettingsGuard(log, context.workspaceState);
  const api = new ApiAccess(environments, keys, account, log, settings);
  const models = new ModelService(globalState, environments, api, keys, log);
  const errors = new ErrorPresenter(log, environments, models, account, settings);
  const usage = new UsageLedger(context.globalStorageUri, log, ledgerClock(context.extensionMode));
  const limitSettings = { spendingLimits: () => readSetting('inference.spendingLimits'), unmeasuredRequestCredits: () => readSetting('inference.unmeasuredRequestCredits') };
  // Every window of this user shares the global storage: its billed calls are seen by the others.
  const billingWindows = new BillingWindows(SETTLE_WAIT_MS, new FileBillingActivity(path.join(context.globalStorageUri.fsPath, 'usage', 'billing')));
  const billing = new SpendingGuard(billingWindows, usage, log, limitSettings, context.globalStorageUri.fsPath);
  const spendingWatch = new SpendingWatch(billing, environments, usage, globalState);
  context.subscriptions.push(environments, keys, account, settings, workspaceGuard, api, models, usage, spendingWatch);
  let endpointTokens: EndpointTokens | undefined;
  let suggestionCounts: SuggestionCounts | undefined;
  return {
    context, globalState, log, environments, keys, account, api, models, errors, settings, workspaceGuard, usage, billing, spendingWatch,
    get endpointTokens() {
      if (!endpointTokens) {
        endpointTokens = new EndpointTokens(context.secrets, log);
        context.subscriptions.push(endpointTokens);
      }
      return endpointTokens;
    },
    get suggestionCounts() {
      if (!suggestionCounts) {
        suggestionCounts = createSuggestionCounts(globalState, log);
        // Disposal writes what is pending (VS Code does not wait for it: at most the last batch is lost).
        context.subscriptions.push(suggestionCounts);
      }
      return suggestionCounts;
    },
  };
}
