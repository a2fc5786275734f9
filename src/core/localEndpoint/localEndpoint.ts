import type { InferenceClient } from '../api/client';
import { createEndpointToken } from './auth';
import type { EndpointCaller, NamedToken } from './namedTokens';
import { ReusedValue } from './reusedValue';
import { describeRequest, LocalEndpointServer, type RequestSummary } from './server';

export interface EndpointState {
  port: number;
  /** http://127.0.0.1:PORT — the Anthropic clients' base URL; OpenAI-protocol clients add /v1. */
  origin: string;
  served: number;
  lastRequestId?: string;
}

/** What the endpoint needs from the extension: the service's client, settings, billing and a log. */
export interface LocalEndpointPorts {
  /** A client of the active environment with its key (reused until `forgetClient`). */
  client(): Promise<Pick<InferenceClient, 'forward'>>;
  /** The configured port; 0: a free one. */
  port(): number;
  /** The active environment's label, for the log. */
  environmentLabel(): string;
  /** The named tokens accepted besides the per-run one, read per request (a revoked one is refused at once). */
  namedTokens(): readonly NamedToken[];
  /** Opened before a billed request is sent (the spending limits hold there), closed with its outcome. */
  openBillingWindow(caller: EndpointCaller): Promise<{ close(answered: RequestSummary): void }>;
  log: { info(message: string): void; warn(message: string): void };
  /** The state changed: started, stopped, a request answered. */
  changed(): void;
}

/**
 * The local endpoint's runs: each start listens with a new per-run token (a running endpoint is
 * restarted), requests are forwarded through the active environment's client, and a stop closes the
 * port and every connection. Counting requests and keeping the last request id for the status bar.
 */
export class LocalEndpoint {
  #server: LocalEndpointServer | undefined;
  #token: string | undefined;
  #state: EndpointState | undefined;
  readonly #client: ReusedValue<Pick<InferenceClient, 'forward'>>;

  readonly #ports: LocalEndpointPorts;

  constructor(ports: LocalEndpointPorts) {
    this.#ports = ports;
    this.#client = new ReusedValue(() => ports.client());
  }

  get state(): EndpointState | undefined {
    return this.#state;
  }

  /** The token of the current run (the extension's own tests read it; it is shown to the user once, at start). */
  get token(): string | undefined {
    return this.#token;
  }

  /** What the client is made from changed (key, environment, settings): the next request makes a new one. */
  forgetClient(): void {
    this.#client.forget();
  }

  /** Starts on the configured port with a new token; a running endpoint is stopped first. */
  async start(): Promise<EndpointState & { token: string }> {
    await this.stop();
    const token = createEndpointToken();
    const port = this.#ports.port();
    const server = new LocalEndpointServer({
      port, token, namedTokens: () => this.#ports.namedTokens(),
      forward: async (request, signal) => (await this.#client.get()).forward(request, { signal }),
      onRequest: (summary) => this.#record(summary),
      openBillingWindow: (caller) => this.#ports.openBillingWindow(caller),
    });
    try {
      await server.listen();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new Error(code === 'EADDRINUSE'
        ? `Port ${port} is already in use. Choose another in the "inference.localEndpoint.port" setting, or 0 for a free port.`
        : `The local endpoint could not listen on 127.0.0.1:${port}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    this.#server = server;
    this.#token = token;
    this.#state = { port: server.port, origin: server.baseUrl, served: 0 };
    this.#ports.log.info(`local endpoint: listening on ${server.baseUrl}, forwarding to the active environment (${this.#ports.environmentLabel()})`);
    this.#ports.changed();
    return { ...this.#state, token };
  }

  /** Stops the running endpoint; false when none ran. `quietly`: the log may be gone (the window closes). */
  async stop(quietly = false): Promise<boolean> {
    const server = this.#server;
    if (!server) return false;
    this.#server = undefined;
    this.#token = undefined;
    this.#state = undefined;
    this.#client.forget();
    await server.close();
    if (!quietly) this.#ports.log.info('local endpoint: stopped');
    this.#ports.changed();
    return true;
  }

  #record(summary: RequestSummary): void {
    if (summary.status >= 400 || summary.cancelled) this.#ports.log.warn(describeRequest(summary));
    else this.#ports.log.info(describeRequest(summary));
    if (!this.#state) return;
    this.#state.served += 1;
    if (summary.requestId) this.#state.lastRequestId = summary.requestId;
    this.#ports.changed();
  }
}
