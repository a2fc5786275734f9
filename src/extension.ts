import * as l10n from '@vscode/l10n';
import vscode = require('vscode');
import { registerAccountCommands } from './host/account/accountCommands';
import { importKeysFromEnvironment } from './host/account/apiKeyCommands';
import type { Releasable } from './host/shared/disposable';
import { offerFirstRunSetup } from './host/account/firstRunSetup';
import { registerImages } from './host/images';
import { registerChat, type ChatTestApi } from './host/chat';
import { registerLocalEndpoint, type LocalEndpointController, type LocalEndpointStatusItem } from './host/localEndpoint';
import { registerLanguageModels } from './host/languageModels';
import type { InferenceChatModelProvider } from './host/languageModels/provider';
import { createServices, type Services } from './host/shared/services';
import { AccountStatusBar } from './host/account/statusBar';
import { registerUsage } from './host/usage/usagePanel';
import { registerWalkthrough } from './host/account/walkthrough';

/** Returned from activate() only when VS Code runs the extension's tests: never exposes secrets to other extensions. */
export interface TestApi {
  services: Services;
  statusBar: AccountStatusBar;
  localEndpoint: LocalEndpointController;
  localEndpointStatus: LocalEndpointStatusItem;
  chat: ChatTestApi;
  /** Absent where VS Code has no language model provider API. */
  languageModels: InferenceChatModelProvider | undefined;
}

/**
 * Owners whose disposal saves data, in order: deactivate() waits for them (VS Code does not wait for
 * subscriptions). The chat first, since an answer it stops may still record its spend; then the
 * usage ledger, whose disposal waits for the appends still pending.
 */
let savingOnExit: Releasable[] = [];

export function activate(context: vscode.ExtensionContext): TestApi | undefined {
  // The vscode-free core translates through @vscode/l10n: hand it the bundle VS Code loaded for this
  // display language (none for English), before any core text is built.
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
  const log = vscode.window.createOutputChannel('Inference Client', { log: true });
  context.subscriptions.push(log);
  try {
    const services = createServices(context, log);
    const statusBar = new AccountStatusBar(services);
    context.subscriptions.push(registerAccountCommands(services), statusBar);
    const chat = registerChat(services);
    savingOnExit = [chat, services.usage];
    context.subscriptions.push(chat);
    context.subscriptions.push(registerImages(services));
    void services.workspaceGuard.check();
    const localEndpoint = registerLocalEndpoint(services);
    const languageModels = registerLanguageModels(services);
    context.subscriptions.push(localEndpoint, languageModels, registerUsage(services), registerWalkthrough(services));
    // Not awaited: activate() never waits on IPC (VS Code runs other extensions' work meanwhile, and
    // it counted as ours). Key reads wait for the import instead; the first-run offer knows its outcome.
    void services.keys.importAtStartup((read) => importKeysFromEnvironment(services, process.env, read)).then(() => offerFirstRunSetup(services))
      .catch((error: unknown) => log.warn(`Key import or first-run offer failed: ${String(error)}`));
    log.info(`Activated; active environment: ${services.environments.active().name}`);
    return context.extensionMode === vscode.ExtensionMode.Test
      ? {
        services, statusBar, localEndpoint: localEndpoint.controller, localEndpointStatus: localEndpoint.statusItem,
        chat: chat.testApi, languageModels: languageModels.provider,
      }
      : undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.error(`Activation failed: ${message}`);
    void vscode.window.showErrorMessage(`Inference Client could not start: ${message}`, 'View Logs', 'Reload Window').then((choice) => {
      if (choice === 'View Logs') log.show();
      if (choice === 'Reload Window') void vscode.commands.executeCommand('workbench.action.reloadWindow');
    });
    return undefined;
  }
}

export async function deactivate(): Promise<void> {
  // Every registration is owned by context.subscriptions; these are disposed first and awaited.
  for (const owner of savingOnExit.splice(0)) await owner.dispose();
}
