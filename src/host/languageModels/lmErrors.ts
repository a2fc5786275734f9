import vscode = require('vscode');
import type { ApiError, ApiErrorKind } from '../../core/api/errors';

type Factory = (message?: string) => vscode.LanguageModelError;

/** Which documented LanguageModelError code a failure maps to; the rest are errors of the model itself. */
const CODES: Partial<Record<ApiErrorKind, Factory>> = {
  missingKey: (m) => vscode.LanguageModelError.NoPermissions(m),
  invalidKey: (m) => vscode.LanguageModelError.NoPermissions(m),
  unauthorized: (m) => vscode.LanguageModelError.NoPermissions(m),
  missingScope: (m) => vscode.LanguageModelError.NoPermissions(m),
  forbidden: (m) => vscode.LanguageModelError.NoPermissions(m),
  // The wallet (402) and the key's rate (429, once the automatic retries are used up) block the caller.
  insufficientCredits: (m) => vscode.LanguageModelError.Blocked(m),
  rateLimited: (m) => vscode.LanguageModelError.Blocked(m),
  // The user's own spending limit: blocked until it resets or is raised.
  spendingLimit: (m) => vscode.LanguageModelError.Blocked(m),
  modelNotFound: (m) => vscode.LanguageModelError.NotFound(m),
};

/**
 * A LanguageModelError with the same text the extension shows everywhere else (plus the request id,
 * for support). Its `cause` is a plain error named "ApiError" whose `code` is the failure kind
 * (`insufficientCredits`, `rateLimited`, ...), so callers can tell a 402 from a 429: VS Code passes
 * name, message and code of a cause across processes.
 */
export function toLanguageModelError(error: ApiError): vscode.LanguageModelError {
  const text = error.requestId ? `${error.message} (request ${error.requestId})` : error.message;
  const factory = CODES[error.kind];
  const result = factory ? factory(text) : new vscode.LanguageModelError(text);
  const cause = Object.assign(new Error(error.message), { code: error.kind, ...(error.status !== undefined && { status: error.status }) });
  cause.name = 'ApiError';
  (result as { cause?: unknown }).cause = cause;
  return result;
}
