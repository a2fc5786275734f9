import vscode = require('vscode');
import { VENDOR } from '../languageModels/vendor';
import { CHAT_SIDE_VIEW_ID, CHAT_VIEW_TYPE } from '../chat/surfaces/chatViewIds';
import type { ChatSurfaceHandlers } from './handover';

/**
 * What the shell registers at activation in place of the extension, each of which loads it on first
 * use: every command of package.json and the language model provider (the chat's panel serializer
 * and side-bar view come as the extension loads: registerChatSurfaces). `load` is synchronous (the
 * bundle runs in the same task): it disposes the command stand-ins just before the extension
 * registers the real commands, so a command is never missing and never registered twice, and the
 * run goes on to the real command with the same arguments.
 */
export function registerCommandStandIns(commands: readonly string[], load: () => unknown): vscode.Disposable[] {
  return commands.map((command) => vscode.commands.registerCommand(command, (...args: unknown[]) => {
    load();
    return vscode.commands.executeCommand(command, ...args);
  }));
}

/** The commands package.json contributes, as VS Code read it (no file read here). */
export function contributedCommands(extension: vscode.Extension<unknown>): string[] {
  const manifest = extension.packageJSON as { contributes?: { commands?: Array<{ command?: unknown }> } };
  return (manifest.contributes?.commands ?? []).map((entry) => entry.command).filter((command): command is string => typeof command === 'string');
}

/** A restored panel or the side-bar view shown: the chat's own code takes it from there (registered as the extension loads). */
export function registerChatSurfaces(chat: () => ChatSurfaceHandlers | undefined): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state) => chat()?.restorePanel(panel, state),
    }),
    // Not retained when hidden, as the panels: the webview is rebuilt from a snapshot when shown again.
    vscode.window.registerWebviewViewProvider(CHAT_SIDE_VIEW_ID, {
      resolveWebviewView: async (view, context) => chat()?.resolveView(view, context.state),
    }, { webviewOptions: { retainContextWhenHidden: false } }),
  );
}

/**
 * The language model provider, registered where the setting leaves it on and VS Code has the API
 * (hosts without it, some web builds, get none: this never fails activation). VS Code's first
 * question loads the extension; its answers and change events are the extension's provider's.
 */
export function registerLanguageModelStandIn(provider: () => vscode.LanguageModelChatProvider | undefined): (vscode.Disposable & { connect(): void }) | undefined {
  if (vscode.workspace.getConfiguration('inference').get<unknown>('languageModels.enabled') === false) return undefined;
  const lm = (vscode as { lm?: Partial<typeof vscode.lm> }).lm;
  if (typeof lm?.registerLanguageModelChatProvider !== 'function') return undefined;
  const changed = new vscode.EventEmitter<void>();
  let forwarding: vscode.Disposable | undefined;
  const loaded = (): vscode.LanguageModelChatProvider | undefined => {
    const real = provider();
    forwarding ??= real?.onDidChangeLanguageModelChatInformation?.(() => changed.fire());
    return real;
  };
  const standIn: vscode.LanguageModelChatProvider = {
    onDidChangeLanguageModelChatInformation: changed.event,
    provideLanguageModelChatInformation: (options, token) => loaded()?.provideLanguageModelChatInformation(options, token) ?? [],
    provideLanguageModelChatResponse: (model, messages, options, progress, token) => {
      const real = loaded();
      if (!real) throw new Error('Inference Client could not start: see its log (Inference: Show Logs).');
      return real.provideLanguageModelChatResponse(model, messages, options, progress, token);
    },
    provideTokenCount: (model, text, token) => loaded()?.provideTokenCount(model, text, token) ?? Promise.resolve(0),
  };
  try {
    const registration = vscode.Disposable.from(lm.registerLanguageModelChatProvider(VENDOR, standIn), changed, { dispose: () => forwarding?.dispose() });
    // Once the extension has loaded (by any path): its provider's change events reach VS Code from then on.
    return Object.assign(registration, { connect: () => void loaded() });
  } catch {
    changed.dispose();
    return undefined;
  }
}
