import vscode = require('vscode');
import type { ResponseMeta } from '../../core/api/types';
import { replacesBalance } from '../../core/usage/answerSpend';
import { Disposable } from './disposable';

/** What the service last told us about an environment's account, kept across restarts. */
export interface AccountSnapshot {
  balanceCredits?: number;
  balanceAt?: number;
  rateLimitRequests?: number;
  lastRequestId?: string;
  lastRequestAt?: number;
  /** The origin that served the last response (one of the environment's hosts). */
  lastHost?: string;
  lastModelId?: string;
}

const STATE_KEY = (env: string) => `inference.account.${env}`;

/** Records the metadata of every response per environment, so the status bar and history can show it. */
export class AccountState extends Disposable {
  readonly #memento: vscode.Memento;
  readonly #onDidChange = this.register(new vscode.EventEmitter<string>());
  readonly onDidChange = this.#onDidChange.event;

  constructor(memento: vscode.Memento) {
    super();
    this.#memento = memento;
  }

  get(env: string): AccountSnapshot {
    return this.#memento.get<AccountSnapshot>(STATE_KEY(env)) ?? {};
  }

  record(env: string, meta: ResponseMeta): void {
    const next: AccountSnapshot = { ...this.get(env) };
    if (meta.balanceCredits !== undefined && replacesBalance(next.balanceAt, meta)) {
      next.balanceCredits = meta.balanceCredits;
      next.balanceAt = meta.receivedAt;
    }
    if (meta.rateLimitRequests !== undefined) next.rateLimitRequests = meta.rateLimitRequests;
    if (meta.requestId !== undefined) {
      next.lastRequestId = meta.requestId;
      next.lastRequestAt = meta.receivedAt;
    }
    if (meta.modelId !== undefined) next.lastModelId = meta.modelId;
    if (meta.host !== undefined) next.lastHost = meta.host;
    void this.#memento.update(STATE_KEY(env), next);
    this.#onDidChange.fire(env);
  }
}
