import * as vscode from 'vscode';
import { actionsForError, type ErrorAction, type ErrorActionId } from '../core/errorActions';
import { ApiError, isApiError } from '../core/errors';
import type { AccountState } from './accountState';
import type { Environments } from './environments';
import type { ModelService } from './modelService';
import { describeAge, formatCredits } from './format';

export interface PresentOptions {
  /** Offered as "Retry" where retrying can help. */
  retry?: () => unknown;
  /** What the user was doing, for the log ("chat", "image generation"). */
  source?: string;
  /** The environment the call went to; defaults to the active one. */
  env?: string;
}

export function toApiError(error: unknown): ApiError {
  if (isApiError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError('http', message, { cause: error });
}

/** One place that turns any failure into a log line and a notification with the action that fixes it. */
export class ErrorPresenter {
  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly environments: Environments,
    private readonly models: ModelService,
    private readonly account: AccountState,
  ) {}

  actionsFor(error: unknown, canRetry = false): ErrorAction[] {
    const apiError = toApiError(error);
    return actionsForError(apiError.kind, { ...(apiError.requestId && { requestId: apiError.requestId }), canRetry });
  }

  /**
   * Logs the error, does what its kind implies (a 404 forgets the stale model list), and notifies.
   * Resolves once the side effects are done; the notification's action runs whenever the user picks it.
   */
  async present(error: unknown, options: PresentOptions = {}): Promise<void> {
    const apiError = toApiError(error);
    if (apiError.kind === 'cancelled') return;
    const env = options.env ?? this.environments.active().name;
    const requestId = apiError.requestId;
    this.log.error(`${options.source ?? 'request'} failed in ${env}: ${apiError.message}${requestId ? ` (request ${requestId})` : ''}`);
    if (apiError.kind === 'modelNotFound') await this.models.onModelNotFound(env);
    const actions = this.actionsFor(apiError, options.retry !== undefined);
    const text = [apiError.message, this.#lastKnownBalance(apiError, env), requestId && `(request ${requestId})`].filter(Boolean).join(' ');
    void vscode.window.showErrorMessage(text, ...actions.map((action) => action.label)).then(async (chosen) => {
      const action = actions.find((candidate) => candidate.label === chosen);
      if (action) await this.run(action.id, apiError, options);
    });
  }

  /** A 402 without a balance header still tells the user what they had, and since when. */
  #lastKnownBalance(error: ApiError, env: string): string | undefined {
    if (error.kind !== 'insufficientCredits' || error.meta?.balanceCredits !== undefined) return undefined;
    const { balanceCredits, balanceAt } = this.account.get(env);
    if (balanceCredits === undefined) return undefined;
    return `Last known balance: ${formatCredits(balanceCredits)} credits${balanceAt ? ` (${describeAge(balanceAt)})` : ''}.`;
  }

  async run(actionId: ErrorActionId, error: unknown, options: PresentOptions = {}): Promise<void> {
    const apiError = toApiError(error);
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
        if (apiError.requestId) await vscode.env.clipboard.writeText(apiError.requestId);
        return;
      case 'openLogs':
        this.log.show(true);
        return;
      case 'openSettings':
        await vscode.commands.executeCommand('workbench.action.openSettings', 'inference.environments');
        return;
    }
  }
}
