import type { Dispatcher } from 'undici';

type Undici = typeof import('undici');
let undici: Promise<Undici> | undefined;

/**
 * undici is most of the extension's bundle, and its CommonJS index defeats tree-shaking: it is
 * loaded on the first request, so that activation (on every window) never parses or runs it.
 */
export function loadUndici(): Promise<Undici> {
  return (undici ??= import('undici'));
}

export interface Timeouts {
  /** TCP + TLS connection set-up. */
  connectMs: number;
  /** Until the response headers arrive: long generations are normal, so this is generous. */
  responseMs: number;
  /** Longest silence between two pieces of a response body (streams included). */
  idleMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = {
  connectMs: 30_000,
  responseMs: 600_000,
  idleMs: 300_000,
};

export interface ConnectionSettings {
  timeouts?: Partial<Timeouts>;
  /** Explicit proxy URL (VS Code's `http.proxy`); empty means use HTTP(S)_PROXY from the environment. */
  proxy?: string;
  /** Comma-separated hosts that bypass the proxy; defaults to NO_PROXY from the environment. */
  noProxy?: string;
  /**
   * Verify the proxy's own certificate (VS Code's `http.proxyStrictSSL`). As in VS Code it concerns the
   * connection to the proxy only: the service's certificate is always verified, direct or tunnelled.
   */
  strictSSL?: boolean;
}

export function resolveTimeouts(partial: Partial<Timeouts> = {}): Timeouts {
  return { ...DEFAULT_TIMEOUTS, ...partial };
}

/**
 * One keep-alive connection pool per settings. With no proxy configured or in the environment this is a
 * plain Agent; otherwise undici's EnvHttpProxyAgent, which also honours NO_PROXY. Certificates of the
 * service are always verified (`connect`, `requestTls`); `strictSSL: false` relaxes only `proxyTls`.
 */
export async function createDispatcher(settings: ConnectionSettings = {}, env: NodeJS.ProcessEnv = process.env): Promise<Dispatcher> {
  const { Agent, EnvHttpProxyAgent } = await loadUndici();
  const timeouts = resolveTimeouts(settings.timeouts);
  const serviceTls = { timeout: timeouts.connectMs, rejectUnauthorized: true };
  const agentOptions = {
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 600_000,
    connect: serviceTls,
  };
  const envProxy = env.HTTPS_PROXY ?? env.https_proxy ?? env.HTTP_PROXY ?? env.http_proxy;
  if (!settings.proxy && !envProxy) return new Agent(agentOptions);
  const noProxy = settings.noProxy ?? env.NO_PROXY ?? env.no_proxy;
  return new EnvHttpProxyAgent({
    ...agentOptions,
    requestTls: serviceTls,
    proxyTls: { timeout: timeouts.connectMs, rejectUnauthorized: settings.strictSSL !== false },
    ...(settings.proxy ? { httpProxy: settings.proxy, httpsProxy: settings.proxy } : {}),
    ...(noProxy !== undefined ? { noProxy } : {}),
  });
}
