import * as l10n from '@vscode/l10n';
import { ApiError, isApiError, type ApiErrorDetails } from './errors';
import { AllHostsFailed } from './failoverTransport';
import { PROXY_REFUSED, TransportFailure, type HostFailure } from './transport';
import type { ResponseMeta } from './types';

/** Transport failures (undici, sockets, aborts, TLS) as ApiErrors: the codes along the cause chain decide the kind. */

interface ErrorWithCode {
  code?: unknown;
  name?: unknown;
  cause?: unknown;
}

function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { code, name, cause } = current as ErrorWithCode;
    if (typeof code === 'string') codes.push(code);
    if (typeof name === 'string') codes.push(name);
    current = cause;
  }
  return codes;
}

/** The first error along the cause chain (at most five deep) that `found` accepts. */
function inCauseChain<T extends object>(error: unknown, found: (candidate: object) => candidate is T): T | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    if (found(current)) return current;
    current = (current as ErrorWithCode).cause;
  }
  return undefined;
}

/** The proxy's status when a proxy refused to open the tunnel (see PROXY_REFUSED), anywhere along the cause chain. */
function proxyRefusalStatus(error: unknown): number | undefined {
  return inCauseChain(error, (candidate): candidate is { status: number } => {
    const { code, status } = candidate as ErrorWithCode & { status?: unknown };
    return code === PROXY_REFUSED && typeof status === 'number';
  })?.status;
}

/** The failover transport's verdict that a failed request may have reached the service (TransportFailure), anywhere along the cause chain. */
function mayHaveReachedService(error: unknown): boolean {
  return inCauseChain(error, (candidate) => candidate instanceof TransportFailure)?.mayHaveReachedService ?? false;
}

/** The hosts' failures when every host of an environment failed (failoverTransport.ts), anywhere along the cause chain. */
function allHostsFailed(error: unknown): AllHostsFailed | undefined {
  return inCauseChain(error, (candidate) => candidate instanceof AllHostsFailed);
}

/**
 * `error`, told as one of several hosts' failures when every host failed: each host is named with its
 * reason, so one message says why none answered. Unchanged when only one host was tried.
 */
export function withEveryHostFailed(error: ApiError, failures: readonly HostFailure[]): ApiError {
  if (failures.length < 2) return error;
  const hosts = failures.map(({ origin, reason, setAside }) => (setAside ? `${origin} (${reason}; ${l10n.t('set aside, not tried again yet')})` : `${origin} (${reason})`)).join(', ');
  return new ApiError(error.kind, `${l10n.t('No host of the environment answered: {0}.', hosts)} ${error.message}`, {
    cause: error,
    ...(error.status !== undefined && { status: error.status }),
    ...(error.serviceMessage !== undefined && { serviceMessage: error.serviceMessage }),
    ...(error.serviceCode !== undefined && { serviceCode: error.serviceCode }),
    ...(error.retryAfterSeconds !== undefined && { retryAfterSeconds: error.retryAfterSeconds }),
    ...(error.meta !== undefined && { meta: error.meta }),
    ...(error.endpoint !== undefined && { endpoint: error.endpoint }),
  });
}

/** Maps a transport failure (undici, socket, abort) to an ApiError, keeping any metadata already received. */
export function errorFromTransport(error: unknown, signal: AbortSignal | undefined, meta?: ResponseMeta): ApiError {
  if (isApiError(error)) return error;
  const everyHost = signal?.aborted ? undefined : allHostsFailed(error);
  if (everyHost) return withEveryHostFailed(errorFromTransport(everyHost.cause, signal, meta), everyHost.failures);
  const details: ApiErrorDetails = { cause: error, ...(meta && { meta, status: meta.status }) };
  if (signal?.aborted) return new ApiError('cancelled', l10n.t('The request was cancelled.'), details);
  // Before the abort check below: undici reports a refused tunnel as an abort, which the user did not ask for.
  const proxyStatus = proxyRefusalStatus(error);
  if (proxyStatus !== undefined) {
    return new ApiError('network', l10n.t('The proxy refused to connect to the service (HTTP {0}). Check the "http.proxy" setting or HTTPS_PROXY, and the proxy\'s credentials.', proxyStatus), details);
  }
  const codes = errorCodes(error);
  const has = (...names: string[]) => names.some((name) => codes.includes(name));
  if (has('AbortError', 'UND_ERR_ABORTED')) return new ApiError('cancelled', l10n.t('The request was cancelled.'), details);
  // No connection within the connect timeout: the service never saw the request, so it did not
  // "take too long to answer"; the way out is the network or the connect timeout, not patience.
  const connectTimeout = ['UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT'].find((code) => codes.includes(code));
  if (connectTimeout && !meta && !mayHaveReachedService(error)) {
    return new ApiError('timeout', l10n.t('Could not connect to the service in time ({0}): the request was not sent. Check the connection, proxy and base URL, or raise the "inference.timeouts.connectSeconds" setting, then retry.', connectTimeout), details);
  }
  if (has('UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT', 'TimeoutError')) {
    return new ApiError('timeout', l10n.t('The service took too long to answer. Long generations can take a while: try again, or raise the timeout settings.'), details);
  }
  const certificate = codes.find((code) => /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|^ERR_TLS/.test(code));
  if (certificate) {
    return new ApiError('network', l10n.t('The TLS certificate was not accepted ({0}). The service\'s certificate is always verified; "http.proxyStrictSSL" only relaxes the check of a proxy\'s own certificate.', certificate), details);
  }
  const reason = codes.find((code) => /^E[A-Z]+$/.test(code) || code.startsWith('UND_ERR')) ?? l10n.t('no error code');
  // What happened, not a guess: the service answered and the answer was cut; the request was sent
  // and the connection lost before an answer; or the service was never reached.
  if (meta) {
    return new ApiError('network', l10n.t('The connection dropped while the answer was arriving ({0}). The service was reached and may have billed the request; what arrived is kept. Retry asks again from the start.', reason), details);
  }
  if (mayHaveReachedService(error)) {
    return new ApiError('network', l10n.t('The connection was lost after the request was sent ({0}). It may have reached the service, so it was not sent to another host, which could bill it twice. Check the connection, then retry.', reason), details);
  }
  return new ApiError('network', l10n.t('Could not reach the service ({0}). Check the connection, proxy and base URL, then retry.', reason), details);
}
