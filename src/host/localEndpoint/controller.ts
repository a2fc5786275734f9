import vscode = require('vscode');
import type { InferenceClient } from '../../core/api/client';
import { createEndpointToken } from '../../core/localEndpoint/auth';
import { ReusedValue } from '../../core/localEndpoint/reusedValue';
import { describeRequest, LocalEndpointServer, type Forward, type RequestSummary } from '../../core/localEndpoint/server';
import { readSetting } from '../shared/config';
import { Disposable } from '../shared/disposable';
import type { Services } from '../shared/services';
import { openEndpointBilling } from './endpointBilling';
import type { EndpointTokens } from '../shared/endpointTokens';

export interface EndpointState {
  port: number;
  /** http://127.0.0.1:PORT — the Anthropic clients' base URL; OpenAI-protocol clients add /v1. */
  origin: string;
  served: number;
  lastRequestId?: string;
}

/**
 * Runs the local endpoint inside the extension host: forwards to the active environment with the key
 * from SecretStorage (through services.api, so key checks, balance and logging apply), with a fresh
 * per-run token per start; named tokens (endpointTokens.ts) are accepted besides it. Stopped by the Stop command or when the window closes.
 */
export class LocalEndpointController extends Disposable {
  readonly #onDidChange = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.#onDidChange.event;
  #server: LocalEndpointServer | undefined;
  #token: string | undefined;
  #state: EndpointState | undefined;
  /** The active environment's client, reused across requests until its key, environment or settings change. */
  readonly #client: ReusedValue<InferenceClient>;

  /** `tokens`: the named tokens accepted besides the per-run one. */
  constructor(private readonly services: Services, readonly tokens: EndpointTokens) {
    super();
    this.#client = new ReusedValue(() => services.api.client());
    const forget = () => this.#client.forget();
    this.register(services.keys.onDidChange(forget));
    this.register(services.environments.onDidChange(() => {
      forget();
      this.#onDidChange.fire();
    }));
    this.register(vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('inference') || event.affectsConfiguration('http')) forget();
    }));
    // Registered last, so released first: the server stops (and its connections close) with the window.
    this.register({ dispose: () => this.stop() });
  }

  get state(): EndpointState | undefined {
    return this.#state;
  }

  /** For the extension's own tests only (TestApi): the token of the current run. */
  get tokenForTests(): string | undefined {
    return this.#token;
  }

  /** Starts on the configured port (0: a free one) with a new token; a running endpoint is restarted. */
  async start(): Promise<EndpointState & { token: string }> {
    await this.stop();
    const token = createEndpointToken();
    const server = new LocalEndpointServer({
      port: readSetting('inference.localEndpoint.port'), token, namedTokens: () => this.tokens.list(), forward: this.#forward, onRequest: (s) => this.#record(s),
      openBillingWindow: (caller) => openEndpointBilling(this.services, caller),
    });
    try {
      await server.listen();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const port = readSetting('inference.localEndpoint.port');
      throw new Error(code === 'EADDRINUSE'
        ? `Port ${port} is already in use. Choose another in the "inference.localEndpoint.port" setting, or 0 for a free port.`
        : `The local endpoint could not listen on 127.0.0.1:${port}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    this.#server = server;
    this.#token = token;
    this.#state = { port: server.port, origin: server.baseUrl, served: 0 };
    this.services.log.info(`local endpoint: listening on ${server.baseUrl}, forwarding to the active environment (${this.services.environments.active().label})`);
    this.#onDidChange.fire();
    return { ...this.#state, token };
  }

  async stop(): Promise<boolean> {
    const server = this.#server;
    if (!server) return false;
    this.#server = undefined;
    this.#token = undefined;
    this.#state = undefined;
    this.#client.forget();
    await server.close();
    // When the window closes, the log channel may already be gone.
    if (!this.isDisposed) this.services.log.info('local endpoint: stopped');
    this.#onDidChange.fire();
    return true;
  }

  readonly #forward: Forward = async (request, signal) => (await this.#client.get()).forward(request, { signal });

  #record(summary: RequestSummary): void {
    if (summary.status >= 400 || summary.cancelled) this.services.log.warn(describeRequest(summary));
    else this.services.log.info(describeRequest(summary));
    if (!this.#state) return;
    this.#state.served += 1;
    if (summary.requestId) this.#state.lastRequestId = summary.requestId;
    this.#onDidChange.fire();
  }
}
