import vscode = require('vscode');
import { InferenceClient } from '../../core/api/client';
import { ApiError } from '../../core/api/errors';
import { FailoverTransport } from '../../core/api/failoverTransport';
import { HostHealth, type HostState } from '../../core/api/hostHealth';
import { withRateLimitRetry, type RetryWait, type Wait } from '../../core/api/rateLimitRetry';
import { probeBaseUrl, type Reachability } from '../../core/settings/reachability';
import type { Transport } from '../../core/api/transport';
import { createUndiciTransport, type ConnectionSettings } from '../../core/api/undiciTransport';
import type { ResponseMeta } from '../../core/api/types';
import type { AccountState } from './accountState';
import type { ApiKeyStore } from './apiKeyStore';
import { affectsSetting, readSetting } from './config';
import { Disposable } from './disposable';
import type { Environment, Environments } from './environments';
import type { RequestPurpose, SettingsProblems } from './settingsProblems';

function connectionSettings(): ConnectionSettings {
  const http = vscode.workspace.getConfiguration('http');
  const noProxy = http.get<string[]>('noProxy', []);
  return {
    timeouts: {
      connectMs: readSetting('inference.timeouts.connectSeconds') * 1000,
      responseMs: readSetting('inference.timeouts.responseSeconds') * 1000,
      idleMs: readSetting('inference.timeouts.idleSeconds') * 1000,
    },
    proxy: http.get<string>('proxy', '') || '',
    strictSSL: http.get<boolean>('proxyStrictSSL', true),
    ...(noProxy.length > 0 && { noProxy: noProxy.join(',') }),
  };
}

/** Asks the user, in a modal dialog, whether a key verified with `from` may now be sent to `to`. */
export type OriginConfirmation = (env: Environment, from: string, to: string) => Promise<boolean>;

export const confirmNewOriginModal: OriginConfirmation = async (env, from, to) => {
  const send = vscode.l10n.t('Send Key to New Address');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('The "{0}" environment now points at {1}, but its API key was verified with {2}.', env.label, to, from),
    {
      modal: true,
      detail: vscode.l10n.t('The key has not been sent to {0}. Send it there only if you changed this address yourself in your user settings and trust it. Otherwise cancel and check "inference.environments".', to),
    },
    send,
  );
  return choice === send;
};

/**
 * Hands out clients for an environment, wired so that every response updates the account state and the log.
 * A client is refused (before anything is sent) when a setting it depends on is bad, and a stored key
 * goes only to the origin it was verified against unless the user confirms the new one.
 */
export class ApiAccess extends Disposable {
  /** One transport (and pool) for every client; undici loads on its first request. */
  #transport: Transport | undefined;
  /** One dialog per environment and new origin, however many requests wait for it. */
  readonly #pendingConfirmations = new Map<string, Promise<boolean>>();
  /** Origins the user refused in this session: not asked again until the environments change. */
  readonly #declined = new Set<string>();
  /** Per environment: which of its hosts are set aside, kept across clients and connection resets (this window only). */
  readonly #health = new Map<string, HostHealth>();
  /** Replaceable so that tests can answer the modal dialog. */
  confirmNewOrigin: OriginConfirmation = confirmNewOriginModal;

  readonly #environments: Environments;
  readonly #keys: ApiKeyStore;
  readonly #account: AccountState;
  readonly #log: vscode.LogOutputChannel;
  readonly #settings: SettingsProblems;

  constructor(
    environments: Environments,
    keys: ApiKeyStore,
    account: AccountState,
    log: vscode.LogOutputChannel,
    settings: SettingsProblems,
  ) {
    super();
    this.#environments = environments;
    this.#keys = keys;
    this.#account = account;
    this.#log = log;
    this.#settings = settings;
    this.register(vscode.workspace.onDidChangeConfiguration((event) => {
      if (affectsSetting(event, 'inference.environments')) this.#declined.clear();
      if (affectsSetting(event, 'inference.timeouts.connectSeconds', 'inference.timeouts.responseSeconds', 'inference.timeouts.idleSeconds')
        || event.affectsConfiguration('http')) {
        this.#resetConnections();
      }
    }));
    this.register({ dispose: () => this.#resetConnections() });
  }

  /**
   * A client for the named (default: active) environment. `keyOverride` is a key being verified (Set API
   * Key): it goes to the environment's address from the user's settings. Throws ApiError notConfigured
   * (a bad setting, or a new origin the user did not confirm) / missingKey / invalidKey.
   */
  async client(envName?: string, keyOverride?: string, purpose: RequestPurpose = 'other'): Promise<InferenceClient> {
    const env = envName ? this.#environments.get(envName) : this.#environments.active();
    if (!env) throw new ApiError('notConfigured', vscode.l10n.t('There is no environment named "{0}" in the "inference.environments" setting.', envName ?? ''));
    this.#settings.assertCanSend(purpose, env.name);
    if (env.problem) throw new ApiError('notConfigured', env.problem.message);
    const apiKey = keyOverride ?? (await this.#keys.get(env.name));
    if (!apiKey) {
      throw new ApiError('missingKey', vscode.l10n.t('No API key is set for the "{0}" environment. Run "Inference: Set API Key".', env.label));
    }
    if (keyOverride === undefined) await this.#checkOrigins(env);
    const settings = connectionSettings();
    this.#transport ??= createUndiciTransport(settings);
    return new InferenceClient({
      baseUrl: env.baseUrl,
      apiKey,
      keyPrefix: env.keyPrefix,
      transport: this.#transportFor(env, this.#transport),
      ...(settings.timeouts && { timeouts: settings.timeouts }),
      userAgent: `inference-client-vscode/${vscode.version}`,
      onResponse: (meta, endpoint) => this.#onResponse(env.name, endpoint, meta),
      onWarning: (text) => this.#log.warn(`${env.name}: ${text}`),
    });
  }

  /** Whether an address answers, through the user's proxy settings, without any key. */
  async probe(baseUrl: string): Promise<Reachability> {
    this.#transport ??= createUndiciTransport(connectionSettings());
    return probeBaseUrl(baseUrl, this.#transport);
  }

  /**
   * A stored key goes only to the hosts it was verified with; a key stored before origins were recorded
   * is bound to the environment's current hosts. A host added since (a new base URL or alternate) is asked about.
   */
  async #checkOrigins(env: Environment): Promise<void> {
    const targets = env.origins ?? [];
    if (targets.length === 0) throw new ApiError('notConfigured', vscode.l10n.t('The base URL of "{0}" in "inference.environments" is not valid.', env.name));
    const verified = await this.#keys.origins(env.name);
    if (verified === undefined) {
      await this.#keys.setOrigins(env.name, targets);
      this.#log.info(`The key of ${env.name} is now bound to ${targets.join(', ')}`);
      return;
    }
    const added = targets.filter((origin) => !verified.includes(origin));
    if (added.length === 0) return;
    const [from, to] = [verified.join(', '), added.join(', ')];
    const id = `${env.name} ${to}`;
    let pending = this.#declined.has(id) ? Promise.resolve(false) : this.#pendingConfirmations.get(id);
    if (!pending) {
      this.#log.warn(`The hosts of ${env.name} now include ${to}, not among ${from}: asking before the key is sent there`);
      pending = this.confirmNewOrigin(env, from, to).finally(() => this.#pendingConfirmations.delete(id));
      this.#pendingConfirmations.set(id, pending);
    }
    if (!(await pending)) {
      this.#declined.add(id);
      throw new ApiError('notConfigured', vscode.l10n.t('The API key of "{0}" was verified with {1}; it was not sent to {2}, the environment\'s new address in "inference.environments". Confirm the new address when asked, or set the key again.', env.label, from, to));
    }
    const now = await this.#keys.origins(env.name);
    if (!targets.every((origin) => now?.includes(origin))) await this.#keys.setOrigins(env.name, targets);
    this.#log.info(`The user confirmed ${to} for the key of ${env.name}`);
  }

  /** The environment's hosts as one transport that fails over between them (core/api/failoverTransport.ts), or `shared` for one host. */
  #transportFor(env: Environment, shared: Transport): Transport {
    const origins = env.origins ?? [];
    if (origins.length < 2) return shared;
    let health = this.#health.get(env.name);
    if (health?.origins.join(' ') !== origins.join(' ')) {
      health = new HostHealth(origins);
      this.#health.set(env.name, health);
    }
    return new FailoverTransport(shared, {
      health,
      onFailover: ({ from, to, reason }) => this.#log.warn(`${env.name}: ${from} failed before anything could be billed (${reason}); trying ${to}`),
    });
  }

  /** Each host's health in this window, for an environment with alternates that has sent a request. */
  hostStates(envName: string): HostState[] | undefined {
    return this.#health.get(envName)?.states();
  }

  /**
   * Runs a call, and when the service answers 429 tries again as core/api/rateLimitRetry.ts decides, at most
   * `inference.rateLimit.maxRetries` times, each wait a visible, cancellable countdown.
   */
  withRateLimitRetry<T>(label: string, attempt: (attemptNumber: number) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return withRateLimitRetry(attempt, { label, ...this.rateLimitRetry(), signal });
  }

  /** How a 429 is waited out: the retries the settings allow, each wait the countdown (for callers that run the policy themselves). */
  rateLimitRetry(): { maxRetries: number; wait: Wait } {
    return { maxRetries: readSetting('inference.rateLimit.maxRetries'), wait: (wait, waitSignal) => this.#countdown(wait, waitSignal) };
  }

  #countdown({ label, seconds, retry, maxRetries, error }: RetryWait, signal: AbortSignal | undefined): Promise<boolean> {
    this.#log.warn(`${label}: rate limited (request ${error.requestId ?? 'without id'}); retry ${retry} of ${maxRetries} in ${seconds} s`);
    return Promise.resolve(vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Rate limited (HTTP 429): {0}', label), cancellable: true },
      (progress, token) => new Promise<boolean>((resolve) => {
        let remaining = Math.max(0, Math.ceil(seconds));
        const step = 100 / Math.max(1, remaining);
        const report = () => progress.report({ message: vscode.l10n.t('retrying in {0} s (retry {1} of {2})', remaining, retry, maxRetries), increment: step });
        report();
        const finish = (value: boolean) => {
          clearInterval(timer);
          cancel.dispose();
          signal?.removeEventListener('abort', onAbort);
          resolve(value);
        };
        const onAbort = () => finish(false);
        const timer = setInterval(() => {
          remaining -= 1;
          if (remaining <= 0) finish(true);
          else report();
        }, 1000);
        if (remaining <= 0) finish(true);
        const cancel = token.onCancellationRequested(() => finish(false));
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ));
  }

  #onResponse(env: string, endpoint: string, meta: ResponseMeta): void {
    this.#account.record(env, meta);
    const parts = [
      `${env} ${endpoint}: HTTP ${meta.status}`,
      meta.requestId && `request ${meta.requestId}`,
      meta.modelId && `model ${meta.modelId}`,
      meta.balanceCredits !== undefined && `balance ${meta.balanceCredits}`,
      meta.rateLimitRequests !== undefined && `rpm ${meta.rateLimitRequests}`,
    ].filter(Boolean);
    if (meta.status >= 400) this.#log.warn(parts.join(', '));
    else this.#log.info(parts.join(', '));
  }

  #resetConnections(): void {
    const old = this.#transport;
    this.#transport = undefined;
    // Requests in flight finish on the old pool.
    void old?.close().catch(() => undefined);
  }
}
