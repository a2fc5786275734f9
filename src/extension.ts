import * as vscode from 'vscode';
import { importKeysFromEnvironment, offerFirstRunSetup, registerAccountCommands } from './host/accountCommands';
import { registerImages } from './host/images';
import { registerChat } from './host/chat';
import { createServices, type Services } from './host/services';
import { AccountStatusBar } from './host/statusBar';

/** Returned from activate() only when VS Code runs the extension's tests: never exposes secrets to other extensions. */
export interface TestApi {
  services: Services;
  statusBar: AccountStatusBar;
}

export async function activate(context: vscode.ExtensionContext): Promise<TestApi | undefined> {
  const log = vscode.window.createOutputChannel('Inference Client', { log: true });
  context.subscriptions.push(log);
  try {
    const services = createServices(context, log);
    const statusBar = new AccountStatusBar(services);
    context.subscriptions.push(registerAccountCommands(services), statusBar);
    context.subscriptions.push(registerChat(services));
    context.subscriptions.push(registerImages(services));
    await importKeysFromEnvironment(services);
    void offerFirstRunSetup(services);
    log.info(`Activated; active environment: ${services.environments.active().name}`);
    return context.extensionMode === vscode.ExtensionMode.Test ? { services, statusBar } : undefined;
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

export function deactivate(): void {
  // Every registration is owned by context.subscriptions.
}
