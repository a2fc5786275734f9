import * as l10n from '@vscode/l10n';
import { ApiError } from './errors';
import { checkBaseUrl } from '../settings/baseUrl';

/**
 * The base URL as the client appends paths to it, or a `notConfigured` error that says how to fix the
 * setting. Checked before any request, because a key must never go over plain http to another machine;
 * by `checkBaseUrl`, the check Add Environment and the settings check (so Set API Key) use, so the
 * client never refuses an address the product accepted, nor accepts one it refused.
 */
export function normaliseBaseUrl(baseUrl: string): string {
  const checked = checkBaseUrl(baseUrl);
  if (!checked.ok) throw new ApiError('notConfigured', l10n.t('The base URL {0}. Change it in the "inference.environments" setting.', checked.problem));
  return checked.baseUrl;
}
