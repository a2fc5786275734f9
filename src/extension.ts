import * as l10n from '@vscode/l10n';
import vscode = require('vscode');
import { registerAccountCommands } from './host/account/accountCommands';
import { importKeysFromEnvironment } from './host/account/apiKeyCommands';
import type { Releasable } from './host/shared/disposable';
import { offerFirstRunSetup } from './host/account/firstRunSetup';
import type { ChatTestApi } from './host/chat';
import { registerChatShell } from './host/chat/chatShell';
import type { EndpointState } from './host/localEndpoint/controller';
import { registerLanguageModels } from './host/languageModels';
import type { InferenceChatModelProvider } from './host/languageModels/provider';
import { createServices, type Services } from './host/shared/services';
import { AccountStatusBar } from './host/account/statusBar';
import { registerWalkthrough } from './host/account/walkthrough';
import { featuresLoaded, LazyFeature } from './host/shared/lazyFeature';
import { StatusItems } from './host/shared/statusItems';
import type { OpenedExtension, ShellHandover } from './host/shell/handover';
import { SuggestionsShell } from './host/suggestions/suggestionsShell';

/** Returned from activate() only when VS Code runs the extension's tests: never exposes secrets to other extensions. */
export interface TestApi {
  services: Services;
  statusBar: AccountStatusBar;
  /** The local endpoint as it runs; nothing before its first start loads it. */
  localEndpoint: { readonly state: EndpointState | undefined; readonly tokenForTests: string | undefined };
  localEndpointStatus: { snapshot(): { visible: boolean; text: string; tooltip: string } };
  chat: ChatTestApi;
  suggestions: SuggestionsShell;
  /** Absent where VS Code has no language model provider API. */
  languageModels: InferenceChatModelProvider | undefined;
  /** The lazily loaded features activate() loaded itself (none, unless a restored panel or view asked during it). */
  featuresLoadedByActivation: readonly string[];
  /** The lazily loaded features loaded so far, in load order. */
  featuresLoaded(): readonly string[];
}

/**
 * Owners whose disposal saves data, in order: deactivate() waits for them (VS Code does not wait for
 * subscriptions). The chat first, since an answer it stops may still record its spend; the
 * suggestions (their counts not yet written); then the usage ledger, whose disposal waits for the
 * appends still pending.
 */
let savingOnExit: Releasable[] = [];

/** Nothing to delegate to when activation failed (its error message says so and offers the log). */
const FAILED: OpenedExtension<TestApi> = {
  chat: { restorePanel: async () => undefined, resolveView: async () => undefined },
  languageModels: undefined,
  testApi: undefined,
};

/** Called by the shell (src/startup.ts) once activation has returned, or on the first use of one of its stand-ins. */
export function activate(context: vscode.ExtensionContext, shell: ShellHandover): OpenedExtension<TestApi> {
  // The vscode-free core translates through @vscode/l10n: hand it the bundle VS Code loaded for this
  // display language (none for English), before any core text is built.
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
  const log = vscode.window.createOutputChannel('Inference Client', { log: true });
  context.subscriptions.push(log);
  try {
    const services = createServices(context, log);
    const statusItems = new StatusItems(services.globalState, shell.drawnStatusItems);
    const statusBar = new AccountStatusBar(services, statusItems);
    context.subscriptions.push(registerAccountCommands(services), statusBar);
    const chat = registerChatShell(services);
    context.subscriptions.push(chat);
    // Each loads on its first command (a dynamic import: the bundle's module runs then, not now).
    const images = new LazyFeature('images', async () => {
      const { registerImages } = await import('./host/images');
      return () => registerImages(services);
    });
    const localEndpoint = new LazyFeature('localEndpoint', async () => {
      const { registerLocalEndpoint } = await import('./host/localEndpoint');
      return () => registerLocalEndpoint(services);
    });
    const usage = new LazyFeature('usage', async () => {
      const { registerUsage } = await import('./host/usage/usagePanel');
      return () => registerUsage(services);
    });
    const suggestions = new SuggestionsShell(services, statusItems, async (suggestionsShell) => {
      const { registerSuggestions } = await import('./host/suggestions');
      return () => registerSuggestions(services, suggestionsShell);
    });
    statusItems.releaseUnadopted();
    savingOnExit = [chat, suggestions, services.usage, statusItems];
    void services.workspaceGuard.check();
    const languageModels = registerLanguageModels(services, shell.languageModelsRegistered);
    context.subscriptions.push(images, localEndpoint, usage, suggestions, languageModels, registerWalkthrough(services));
    // Not awaited: activate() never waits on IPC (VS Code runs other extensions' work meanwhile, and
    // it counted as ours). Key reads wait for the import instead; the first-run offer knows its outcome.
    void services.keys.importAtStartup((read) => importKeysFromEnvironment(services, process.env, read)).then(() => offerFirstRunSetup(services))
      .catch((error: unknown) => log.warn(`Key import or first-run offer failed: ${String(error)}`));
    // After activate() returns: the channel's first write can take milliseconds that nothing waits for.
    setImmediate(() => log.info(`Activated; active environment: ${services.environments.active().name}`));
    const testApi: TestApi | undefined = context.extensionMode === vscode.ExtensionMode.Test
      ? {
        services, statusBar, chat: chat.testApi, suggestions, languageModels: languageModels.provider,
        localEndpoint: {
          get state() { return localEndpoint.loaded?.controller.state; },
          get tokenForTests() { return localEndpoint.loaded?.controller.tokenForTests; },
        },
        localEndpointStatus: { snapshot: () => localEndpoint.loaded?.statusItem.snapshot() ?? { visible: false, text: '', tooltip: '' } },
        featuresLoadedByActivation: featuresLoaded(), featuresLoaded,
      }
      : undefined;
    return { chat: chat.surfaces, languageModels: languageModels.provider, testApi };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.error(`Activation failed: ${message}`);
    void vscode.window.showErrorMessage(`Inference Client could not start: ${message}`, 'View Logs', 'Reload Window').then((choice) => {
      if (choice === 'View Logs') log.show();
      if (choice === 'Reload Window') void vscode.commands.executeCommand('workbench.action.reloadWindow');
    });
    return FAILED;
  }
}

export async function deactivate(): Promise<void> {
  // Every registration is owned by context.subscriptions; these are disposed first and awaited.
  for (const owner of savingOnExit.splice(0)) await owner.dispose();
}
