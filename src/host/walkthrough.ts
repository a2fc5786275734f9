import * as vscode from 'vscode';
import type { Services } from './services';

export const WALKTHROUGH_ID = 'gettingStarted';

/** `<publisher>.<name>#<walkthrough id>`, as `workbench.action.openWalkthrough` wants it. */
export function walkthroughRef(context: vscode.ExtensionContext): string {
  return `${context.extension.id}#${WALKTHROUGH_ID}`;
}

export async function openWalkthrough(context: vscode.ExtensionContext): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', walkthroughRef(context), false);
}

/**
 * The Getting Started walkthrough's steps complete on context keys that say what is really true
 * (a key is stored, a model is chosen), not on a command having been run, so a cancelled input does
 * not tick a step and a setup made before opening the walkthrough shows as done.
 */
export function registerWalkthrough(services: Services): vscode.Disposable {
  const update = async () => {
    const env = services.environments.active();
    const configured = Boolean(env.baseUrl);
    await vscode.commands.executeCommand('setContext', 'inference.environmentConfigured', configured);
    await vscode.commands.executeCommand('setContext', 'inference.hasApiKey', configured && (await services.keys.has(env.name)));
    await vscode.commands.executeCommand('setContext', 'inference.hasChatModel', Boolean(services.models.selectedChatModel(env.name)));
  };
  const refresh = () => void update().catch((error: unknown) => services.log.warn(`Walkthrough state not updated: ${String(error)}`));
  refresh();
  return vscode.Disposable.from(
    services.environments.onDidChange(refresh),
    services.keys.onDidChange(refresh),
    services.models.onDidChangeSelection(refresh),
    vscode.commands.registerCommand('inference.getStarted', () => openWalkthrough(services.context)),
  );
}
