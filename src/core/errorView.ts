import type { ErrorCardView } from './chat/protocol/chatProtocol';
import { actionsForError } from './errorActions';

/** What any failure shows the user: the facts an error keeps, from a live ApiError or a saved answer. */
export interface ErrorFacts {
  kind: string;
  message: string;
  status?: number;
  requestId?: string;
}

/**
 * The one view of a failure, for a notification and for a chat card alike: its message, status,
 * request id and the ordered actions that can fix it. `canRetry`: the caller can run the call again.
 */
export function errorView(error: ErrorFacts, options: { canRetry: boolean; canContinue?: boolean }): ErrorCardView {
  const view: ErrorCardView = {
    kind: error.kind,
    message: error.message,
    actions: actionsForError(error.kind, { ...(error.requestId && { requestId: error.requestId }), canRetry: options.canRetry, ...(options.canContinue && { canContinue: true }) }),
  };
  if (error.status !== undefined) view.status = error.status;
  if (error.requestId) view.requestId = error.requestId;
  return view;
}

/** The facts of an ApiError-like failure, as a chat answer keeps them. */
export function errorFacts(error: { kind: string; message: string; status?: number; requestId?: string | undefined }): ErrorFacts {
  const facts: ErrorFacts = { kind: error.kind, message: error.message };
  if (error.status !== undefined) facts.status = error.status;
  if (error.requestId) facts.requestId = error.requestId;
  return facts;
}
