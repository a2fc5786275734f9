import * as l10n from '@vscode/l10n';
import { ApiError } from './errors';
import { isLoopbackHost } from './loopback';

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

/** Every path of the service contract is relative to a base URL ending in this version prefix. */
export const API_PREFIX = '/api/v1';

export type BaseUrlCheck =
  | { ok: true; baseUrl: string; origin: string }
  | { ok: false; problem: string };

/**
 * Checks a base URL before anything is sent to it: a valid https URL (http only for this machine),
 * without credentials, query or fragment, ending in /api/v1. `problem` completes a sentence that
 * names the setting, e.g. `The base URL of "production" ${problem}`.
 */
export function checkBaseUrl(raw: unknown): BaseUrlCheck {
  if (typeof raw !== 'string' || raw.trim() === '') return { ok: false, problem: l10n.t('is empty: it should look like {0}', `https://host${API_PREFIX}`) };
  const trimmed = raw.trim().replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, problem: l10n.t('("{0}") is not a valid URL: it should look like {1}', trimmed, `https://host${API_PREFIX}`) };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, problem: l10n.t('("{0}") uses "{1}": only https (or http to this machine) is allowed', trimmed, url.protocol) };
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return { ok: false, problem: l10n.t('("{0}") uses plain http to another machine, which would send the key unencrypted: use https (http is allowed only for localhost, 127.0.0.0/8 and ::1)', trimmed) };
  }
  if (url.username || url.password) return { ok: false, problem: l10n.t('contains a user name or password: remove them (the API key is sent separately)') };
  if (url.search || url.hash) return { ok: false, problem: l10n.t('("{0}") has a query or fragment: remove everything after {1}', trimmed, API_PREFIX) };
  if (!url.pathname.replace(/\/+$/, '').endsWith(API_PREFIX)) {
    return { ok: false, problem: l10n.t('("{0}") does not end in {1}: every path of the service is under it, e.g. {2}', trimmed, API_PREFIX, `${url.origin}${API_PREFIX}`) };
  }
  return { ok: true, baseUrl: trimmed, origin: url.origin };
}

/**
 * An alternate base URL of an environment: checked as the primary is (checkBaseUrl), and it must have
 * the same path (the hosts are equivalent, so only the origin differs) and an origin of its own.
 */
export function checkAlternateBaseUrl(raw: unknown, primary: string, taken: readonly string[]): BaseUrlCheck {
  const checked = checkBaseUrl(raw);
  if (!checked.ok) return checked;
  const path = (url: string) => new URL(url).pathname.replace(/\/+$/, '');
  if (path(checked.baseUrl) !== path(primary)) {
    return { ok: false, problem: l10n.t('("{0}") has another path than the primary base URL ({1}): equivalent hosts serve the same paths', checked.baseUrl, path(primary)) };
  }
  if (taken.includes(checked.origin)) return { ok: false, problem: l10n.t('("{0}") repeats a host of the environment', checked.baseUrl) };
  return checked;
}

/** scheme://host[:port] of a URL, the unit a key is bound to; undefined for an invalid URL. */
export function originOf(baseUrl: string): string | undefined {
  try {
    const url = new URL(baseUrl.trim());
    return url.origin === 'null' ? undefined : url.origin;
  } catch {
    return undefined;
  }
}
