import * as l10n from '@vscode/l10n';
import { responseHeader, TransportFailure, type Transport } from '../api/transport';

export type Reachability =
  | { reachable: true; status: number; looksLikeService: boolean; note: string }
  | { reachable: false; note: string };

/**
 * Whether a base URL answers, checked with one GET /models WITHOUT any key (the address is not trusted
 * with a key before the user has finished adding it). Any HTTP answer means the host is reachable;
 * a JSON model list or a 401 looks like the service, a 404 or a redirect suggests a wrong base URL.
 */
export async function probeBaseUrl(baseUrl: string, transport: Transport, timeoutMs = 10_000): Promise<Reachability> {
  try {
    const response = await transport.send({
      url: `${baseUrl}/models?type=chat`,
      method: 'GET',
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
      timeouts: { responseMs: timeoutMs, idleMs: timeoutMs },
    });
    const { status } = response;
    const type = responseHeader(response.headers, 'content-type');
    await response.body.drain(64 * 1024);
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
  } catch (failure) {
    const error = failure instanceof TransportFailure ? failure.cause : failure;
    const code = (error as { code?: string }).code;
    const reason = error instanceof Error && error.name === 'TimeoutError' ? l10n.t('no answer within {0} s', Math.round(timeoutMs / 1000)) : code ?? (error instanceof Error ? error.message : String(error));
    return { reachable: false, note: l10n.t('it cannot be reached ({0})', reason) };
  }
}
