import * as vscode from 'vscode';
import { AccountState } from './accountState';
import { ApiAccess } from './apiAccess';
import { ApiKeyStore } from './apiKeyStore';
import { Environments } from './environments';
import { ErrorPresenter } from './errorPresenter';
import { ModelService } from './modelService';

/** Everything a feature needs, built once at activation and owned by the extension context. */
export interface Services {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly environments: Environments;
  readonly keys: ApiKeyStore;
  readonly account: AccountState;
  readonly api: ApiAccess;
  readonly models: ModelService;
  readonly errors: ErrorPresenter;
}

export function createServices(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Services {
  const environments = new Environments();
  const keys = new ApiKeyStore(context.secrets);
  const account = new AccountState(context.globalState);
  const api = new ApiAccess(environments, keys, account, log);
  const models = new ModelService(context.globalState, environments, api);
  const errors = new ErrorPresenter(log, environments, models, account);
  context.subscriptions.push(environments, keys, account, api, models);
  return { context, log, environments, keys, account, api, models, errors };
}
