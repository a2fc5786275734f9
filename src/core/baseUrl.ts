import * as l10n from '@vscode/l10n';
import { ApiError } from './errors';
import { isAllowedProtocol } from './loopback';

/**
 * The base URL as the client appends paths to it, or a `notConfigured` error that says how to fix the
 * setting. Checked before any request, because a key must never go over plain http to another machine.
 */
export function normaliseBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.trim().replace(/\/+$/, '');
  if (!trimmed) {
    throw new ApiError('notConfigured', l10n.t('No base URL is configured for this environment. Set it in the "inference.environments" setting (it ends in /api/v1).'));
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new ApiError('notConfigured', l10n.t('The base URL "{0}" is not a valid URL. It should look like https://host/api/v1.', trimmed));
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ApiError('notConfigured', l10n.t('The base URL must use http or https, not "{0}".', url.protocol));
  }
  if (!isAllowedProtocol(url)) {
    throw new ApiError('notConfigured', l10n.t('The base URL "{0}" uses plain http to {1}, which would send the API key unencrypted. Use https in the "inference.environments" setting; http is allowed only for this machine (localhost, 127.0.0.0/8, ::1).', trimmed, url.hostname));
  }
  return trimmed;
}
