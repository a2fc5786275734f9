import vscode = require('vscode');
import type { ErrorAction, ErrorActionId } from '../../core/errorActions';
import { toApiError, type ApiError } from '../../core/api/errors';
import { errorFacts, errorView, type ErrorFacts } from '../../core/errorView';
import { redactSecrets } from '../../core/api/redact';
import type { AccountState } from './accountState';
import type { Environments } from './environments';
import type { ModelService } from './modelService';
import type { SettingsProblems } from './settingsProblems';
import { formatCredits } from '../../core/credits';
import { describeAge } from './format';

export interface PresentOptions {
  /** Offered as "Retry" where retrying can help. */
  retry?: () => unknown;
  /** Past a spending limit: sends the request once more, past the limit (offered as "Send Anyway"). */
  sendAnyway?: () => unknown;
  /** What the user was doing, for the log ("chat", "image generation"). */
  source?: string;
  /** The environment the call went to; defaults to the active one. */
  env?: string;
  /**
   * Whether a 404 for the model forgets the environment's selected model (default yes); no when
   * the call named a model of its own (a conversation's).
   */
  forgetsModel?: boolean;
  /** A sentence added to the notification (what happened to the user's input, for example). */
  detail?: string;
}

/** A notification as shown, with a way to pick one of its actions as the user would (tests read these). */
export interface PresentedError {
  kind: string;
  source: string;
  env: string;
  text: string;
  actions: ErrorAction[];
  choose(actionId: ErrorActionId): Promise<void>;
}

/**
 * The one place that handles a failure: it logs it, does what its kind implies (a 404 for the model
 * forgets the stale model list), and shows it — as a notification here, or as the chat card built
 * from the same errorView.
 */
export class ErrorPresenter {
  readonly #onDidPresent = new vscode.EventEmitter<PresentedError>();
  readonly onDidPresent = this.#onDidPresent.event;

  readonly #log: vscode.LogOutputChannel;
  readonly #environments: Environments;
  readonly #models: ModelService;
  readonly #account: AccountState;
  readonly #settings: SettingsProblems;

  constructor(
    log: vscode.LogOutputChannel,
    environments: Environments,
    models: ModelService,
    account: AccountState,
    settings: SettingsProblems,
  ) {
    this.#log = log;
    this.#environments = environments;
    this.#models = models;
    this.#account = account;
    this.#settings = settings;
  }

  /** The actions an error's view offers, in order. */
  actionsFor(error: unknown, canRetry = false): ErrorAction[] {
    return errorView(errorFacts(toApiError(error)), { canRetry }).actions;
  }

  /** Logs the failure and applies its side effects; the caller shows it (a card) or `present` does. */
  async record(error: unknown, options: PresentOptions = {}): Promise<ApiError> {
    const apiError = toApiError(error);
    if (apiError.kind === 'cancelled') return apiError;
    const env = options.env ?? this.#environments.active().name;
    const requestId = apiError.requestId;
    // The client already removed its key; this catches bearer tokens in errors that did not come through it.
    this.#log.error(redactSecrets(`${options.source ?? 'request'} failed in ${env}: ${apiError.message}${requestId ? ` (request ${requestId})` : ''}`));
    // Forget only the kind of model the failed call named: an image 404 says nothing about the chat model.
    const kind = apiError.endpoint === 'images' ? 'image' : apiError.endpoint === 'chat' ? 'chat' : undefined;
    if (apiError.kind === 'modelNotFound' && apiError.status === 404 && kind && options.forgetsModel !== false) await this.#models.onModelNotFound(env, kind);
    return apiError;
  }

  /**
   * Records the error and notifies. Resolves once the side effects are done; the notification's
   * action runs whenever the user picks it. Called for what the user did (a command, a panel's
   * button), so a settings problem is stated again in full, as its start-up warning was.
   */
  async present(error: unknown, options: PresentOptions = {}): Promise<void> {
    const apiError = await this.record(error, options);
    if (apiError.kind === 'cancelled') return;
    const problem = this.#settings.problemOf(apiError);
    if (problem) {
      this.#settings.tell(problem);
      return;
    }
    const env = options.env ?? this.#environments.active().name;
    this.show(errorFacts(apiError), { ...options, detail: [this.#lastKnownBalance(apiError, env), options.detail].filter(Boolean).join(' ') });
  }

  /** The notification of a failure's view: its message, request id and actions, as a card shows them. */
  show(facts: ErrorFacts, options: PresentOptions = {}): void {
    const view = errorView(facts, { canRetry: (facts.kind === 'spendingLimit' ? options.sendAnyway : options.retry) !== undefined });
    const text = redactSecrets([view.message, options.detail, view.requestId && `(request ${view.requestId})`].filter(Boolean).join(' '));
    this.#onDidPresent.fire({
      kind: facts.kind, source: options.source ?? 'request', env: options.env ?? this.#environments.active().name, text, actions: view.actions,
      choose: (id) => this.run(id, view, options),
    });
    void vscode.window.showErrorMessage(text, ...view.actions.map((action) => action.label)).then(async (chosen) => {
      const action = view.actions.find((candidate) => candidate.label === chosen);
      if (action) await this.run(action.id, view, options);
    });
  }

  /** A 402 without a balance header still tells the user what they had, and since when. */
  #lastKnownBalance(error: ApiError, env: string): string | undefined {
    if (error.kind !== 'insufficientCredits' || error.meta?.balanceCredits !== undefined) return undefined;
    const { balanceCredits, balanceAt } = this.#account.get(env);
    if (balanceCredits === undefined) return undefined;
    return balanceAt
      ? vscode.l10n.t('Last known balance: {0} credits ({1}).', formatCredits(balanceCredits), describeAge(balanceAt))
      : vscode.l10n.t('Last known balance: {0} credits.', formatCredits(balanceCredits));
  }

  /** Runs an action of an error's view; `error` is what the view was built from (its request id). */
  async run(actionId: ErrorActionId, error: { kind: string; message?: string; requestId?: string }, options: Pick<PresentOptions, 'retry' | 'sendAnyway'> = {}): Promise<void> {
    switch (actionId) {
      case 'setApiKey':
        await vscode.commands.executeCommand('inference.setApiKey');
        return;
      case 'pickModel':
        await vscode.commands.executeCommand('inference.pickModel');
        return;
      case 'retry':
        await options.retry?.();
        return;
      case 'copyRequestId':
        if (error.requestId) await vscode.env.clipboard.writeText(error.requestId);
        return;
      case 'openLogs':
        this.#log.show(true);
        return;
      case 'openSettings':
        await vscode.commands.executeCommand('workbench.action.openSettings', this.#settings.problemOf(error)?.setting
          ?? (error.kind === 'imageFolder' ? 'inference.images.folder' : 'inference.environments'));
        return;
      case 'manageTrust':
        await vscode.commands.executeCommand('workbench.trust.manage');
        return;
      case 'raiseLimit':
        await vscode.commands.executeCommand('workbench.action.openSettings', 'inference.spendingLimits');
        return;
      case 'sendAnyway':
        await options.sendAnyway?.();
        return;
      case 'continue':
        // Offered only on a chat answer's card, whose panel continues it (chat/requestHandlers.ts).
        return;
    }
  }
}
