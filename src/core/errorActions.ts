import * as l10n from '@vscode/l10n';
import { RETRYABLE_KINDS, type ApiErrorKind } from './api/errors';

/** What a user can do about a failed call; shared by notifications and the chat panel's error cards. */
export const ERROR_ACTION_IDS = ['continue', 'setApiKey', 'pickModel', 'retry', 'copyRequestId', 'openLogs', 'openSettings', 'manageTrust', 'raiseLimit', 'sendAnyway'] as const;
export type ErrorActionId = (typeof ERROR_ACTION_IDS)[number];

export interface ErrorAction {
  id: ErrorActionId;
  label: string;
}

/** A function, not a table: labels are translated when asked for, after activation configured the bundle. */
function actionLabel(id: ErrorActionId): string {
  switch (id) {
    case 'setApiKey': return l10n.t('Set API Key');
    case 'pickModel': return l10n.t('Pick Model');
    case 'continue': return l10n.t('Continue');
    case 'retry': return l10n.t('Retry');
    case 'copyRequestId': return l10n.t('Copy Request ID');
    case 'openLogs': return l10n.t('Open Logs');
    case 'openSettings': return l10n.t('Open Settings');
    case 'manageTrust': return l10n.t('Manage Workspace Trust');
    case 'raiseLimit': return l10n.t('Raise Limit');
    case 'sendAnyway': return l10n.t('Send Anyway');
  }
}

/**
 * Failures that are not the service's: the image could not be saved, or saving was refused before
 * anything was requested (untrusted workspace, image folder setting); an answer that ended before
 * the model finished it without an error to say why (VS Code closed mid-answer, or the stream ended
 * without its finish).
 */
export type LocalFailureKind = 'saveFailed' | 'untrustedWorkspace' | 'imageFolder' | 'workspaceRefused' | 'answerCut';

const PRIMARY: Partial<Record<ApiErrorKind | LocalFailureKind, ErrorActionId>> = {
  missingKey: 'setApiKey',
  invalidKey: 'setApiKey',
  unauthorized: 'setApiKey',
  missingScope: 'setApiKey',
  modelNotFound: 'pickModel',
  notConfigured: 'openSettings',
  notFound: 'openSettings',
  untrustedWorkspace: 'manageTrust',
  imageFolder: 'openSettings',
  redirected: 'openSettings',
  spendingLimit: 'raiseLimit',
};

/** Retry is also offered (not done automatically) for answers that were malformed or had an unexpected status. */
const OFFER_RETRY: ReadonlySet<string> = new Set<string>([...RETRYABLE_KINDS, 'malformedResponse', 'http', 'answerCut']);

/**
 * `canContinue`: an answer cut short after some of its text arrived, which the model can be asked to
 * finish from where it stopped (one request, billed on its own) instead of from the start.
 */
export function actionsForError(kind: string, options: { requestId?: string; canRetry?: boolean; canContinue?: boolean } = {}): ErrorAction[] {
  const ids: ErrorActionId[] = [];
  if (options.canContinue) ids.push('continue');
  const primary = PRIMARY[kind as ApiErrorKind | LocalFailureKind];
  if (primary) ids.push(primary);
  if (options.canRetry && OFFER_RETRY.has(kind)) ids.push('retry');
  // Past a spending limit, sending again is the user's explicit consent for this one request.
  if (options.canRetry && kind === 'spendingLimit') ids.push('sendAnyway');
  if (options.requestId) ids.push('copyRequestId');
  if (kind !== 'cancelled' && !ids.includes('openLogs')) ids.push('openLogs');
  return ids.map((id) => ({ id, label: actionLabel(id) }));
}
