import type { ApiErrorKind } from './errors';

/** What a user can do about a failed call; shared by notifications and the chat panel's error cards. */
export type ErrorActionId = 'setApiKey' | 'pickModel' | 'retry' | 'copyRequestId' | 'openLogs' | 'openSettings';

export interface ErrorAction {
  id: ErrorActionId;
  label: string;
}

const LABELS: Record<ErrorActionId, string> = {
  setApiKey: 'Set API Key',
  pickModel: 'Pick Model',
  retry: 'Retry',
  copyRequestId: 'Copy Request ID',
  openLogs: 'Open Logs',
  openSettings: 'Open Settings',
};

const PRIMARY: Partial<Record<ApiErrorKind, ErrorActionId>> = {
  missingKey: 'setApiKey',
  invalidKey: 'setApiKey',
  unauthorized: 'setApiKey',
  missingScope: 'setApiKey',
  modelNotFound: 'pickModel',
  notConfigured: 'openSettings',
  notFound: 'openSettings',
};

/** Retry is offered where the same call can succeed later; never for 402 (the wallet needs credits first). */
const RETRYABLE: ReadonlySet<ApiErrorKind> = new Set<ApiErrorKind>(['rateLimited', 'server', 'timeout', 'network', 'streamError', 'malformedResponse', 'http']);

export function actionsForError(kind: ApiErrorKind, options: { requestId?: string; canRetry?: boolean } = {}): ErrorAction[] {
  const ids: ErrorActionId[] = [];
  const primary = PRIMARY[kind];
  if (primary) ids.push(primary);
  if (options.canRetry && RETRYABLE.has(kind)) ids.push('retry');
  if (options.requestId) ids.push('copyRequestId');
  if (kind !== 'cancelled' && !ids.includes('openLogs')) ids.push('openLogs');
  return ids.map((id) => ({ id, label: LABELS[id] }));
}
