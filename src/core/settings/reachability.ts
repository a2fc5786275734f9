import * as l10n from '@vscode/l10n';
import type { Dispatcher } from 'undici';
import { loadUndici } from '../http';

export type Reachability =
  | { reachable: true; status: number; looksLikeService: boolean; note: string }
  | { reachable: false; note: string };

/**
 * Whether a base URL answers, checked with one GET /models WITHOUT any key (the address is not trusted
 * with a key before the user has finished adding it). Any HTTP answer means the host is reachable;
 * a JSON model list or a 401 looks like the service, a 404 or a redirect suggests a wrong base URL.
 */
export async function probeBaseUrl(baseUrl: string, options: { dispatcher?: Dispatcher; timeoutMs?: number } = {}): Promise<Reachability> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  try {
    // Loaded here, not imported at the top: a top-level import put all of undici into activation.
    const { request } = await loadUndici();
    const response = await request(`${baseUrl}/models?type=chat`, {
      method: 'GET',
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      ...(options.dispatcher && { dispatcher: options.dispatcher }),
    });
    const status = response.statusCode;
    const type = String(response.headers['content-type'] ?? '');
    await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    if (status >= 300 && status < 400) {
      return { reachable: true, status, looksLikeService: false, note: l10n.t('it redirects (HTTP {0}); keys are never forwarded to another address, so use the final address', status) };
    }
    if (status === 404) return { reachable: true, status, looksLikeService: false, note: l10n.t('it answers 404 for /models: the base URL may be wrong (it should end in /api/v1)') };
    const looksLikeService = status === 401 || (status === 200 && type.includes('json'));
    const mediaType = type.split(';')[0];
    const note = looksLikeService ? l10n.t('it answers (HTTP {0})', status)
      : mediaType ? l10n.t('it answers HTTP {0} ({1}), which does not look like the service', status, mediaType)
        : l10n.t('it answers HTTP {0}, which does not look like the service', status);
    return { reachable: true, status, looksLikeService, note };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const reason = error instanceof Error && error.name === 'TimeoutError' ? l10n.t('no answer within {0} s', Math.round(timeoutMs / 1000)) : code ?? (error instanceof Error ? error.message : String(error));
    return { reachable: false, note: l10n.t('it cannot be reached ({0})', reason) };
  }
}
