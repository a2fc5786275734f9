import vscode = require('vscode');
import { LocalEndpoint, type EndpointState } from '../../core/localEndpoint/localEndpoint';
import { readSetting } from '../shared/config';
import { Disposable } from '../shared/disposable';
import type { Services } from '../shared/services';
import { openEndpointBilling, type EndpointBillingServices } from './endpointBilling';
import type { EndpointTokens } from '../shared/endpointTokens';

export type { EndpointState } from '../../core/localEndpoint/localEndpoint';

/** The client to forward with (api), the events that make a new one (keys, environments), and the billing. */
export type EndpointControllerServices = EndpointBillingServices & Pick<Services, 'api' | 'environments' | 'keys' | 'log'>;

/**
 * The local endpoint in the extension host (its runs are core/localEndpoint/localEndpoint.ts): it
 * forwards to the active environment with the key from SecretStorage (through services.api, so key
 * checks, balance and logging apply), accepts the named tokens (endpointTokens.ts) besides the
 * per-run one, makes a new client when the key, environment or settings change, and stops with the window.
 */
export class LocalEndpointController extends Disposable {
  readonly #onDidChange = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.#onDidChange.event;
  readonly #endpoint: LocalEndpoint;

  /** `tokens`: the named tokens accepted besides the per-run one. */
  constructor(services: EndpointControllerServices, readonly tokens: EndpointTokens) {
    super();
    this.#endpoint = new LocalEndpoint({
      client: () => services.api.client(),
      port: () => readSetting('inference.localEndpoint.port'),
      environmentLabel: () => services.environments.active().label,
      namedTokens: () => tokens.list(),
      openBillingWindow: (caller) => openEndpointBilling(services, caller),
      log: services.log,
      changed: () => this.#onDidChange.fire(),
    });
    const forget = () => this.#endpoint.forgetClient();
    this.register(services.keys.onDidChange(forget));
    this.register(services.environments.onDidChange(() => {
      forget();
      this.#onDidChange.fire();
    }));
    this.register(vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('inference') || event.affectsConfiguration('http')) forget();
    }));
    // Registered last, so released first: the server stops (and its connections close) with the window,
    // whose log channel may already be gone.
    this.register({ dispose: () => this.#endpoint.stop(true) });
  }

  get state(): EndpointState | undefined {
    return this.#endpoint.state;
  }

  /** For the extension's own tests only (TestApi): the token of the current run. */
  get tokenForTests(): string | undefined {
    return this.#endpoint.token;
  }

  start(): Promise<EndpointState & { token: string }> {
    return this.#endpoint.start();
  }

  stop(): Promise<boolean> {
    return this.#endpoint.stop();
  }
}
