import vscode = require('vscode');
import type { Registered } from '../shared/disposable';
import type { Services } from '../shared/services';

export const WALKTHROUGH_ID = 'gettingStarted';

/** `<publisher>.<name>#<walkthrough id>`, as `workbench.action.openWalkthrough` wants it. */
export function walkthroughRef(context: vscode.ExtensionContext): string {
  return `${context.extension.id}#${WALKTHROUGH_ID}`;
}

export async function openWalkthrough(context: vscode.ExtensionContext): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', walkthroughRef(context), false);
}

/** The steps' truths (environment, key, model), the walkthrough's id (context) and the log. */
export type WalkthroughServices = Pick<Services, 'environments' | 'keys' | 'models' | 'context' | 'log'>;

/**
 * The Getting Started walkthrough's steps complete on context keys that say what is really true
 * (a key is stored, a model is chosen), not on a command having been run, so a cancelled input does
 * not tick a step and a setup made before opening the walkthrough shows as done.
 */
export function registerWalkthrough(services: WalkthroughServices): Registered {
  const update = async () => {
    const env = services.environments.active();
    const configured = Boolean(env.baseUrl);
    const states: [step: string, contextKey: string, done: boolean][] = [
      ['addEnvironment', 'inference.environmentConfigured', configured],
      ['setApiKey', 'inference.hasApiKey', configured && (await services.keys.has(env.name))],
      ['pickModel', 'inference.hasChatModel', Boolean(services.models.selectedChatModel(env.name))],
    ];
    for (const [step, contextKey, done] of states) {
      await vscode.commands.executeCommand('setContext', contextKey, done);
      // VS Code ticks an onContext step only when its key changes after the walkthrough registered: a key
      // already true by then (the extension activated first, or the setup was done in an earlier session)
      // never ticks. Marking the step directly shows the truth either way; an unticked step follows a
      // cleared key. The command is the workbench's own (Welcome: Mark Step Complete); a host without it
      // still has the context keys.
      await vscode.commands.executeCommand(done ? 'welcome.markStepComplete' : 'welcome.markStepIncomplete', `${walkthroughRef(services.context)}#${step}`)
        .then(undefined, (error: unknown) => services.log.info(`Walkthrough step ${step} not marked: ${String(error)}`));
    }
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
