import type vscode = require('vscode');

/**
 * What the shell (dist/extension.js, src/startup.ts) hands the extension (dist/main.js,
 * src/extension.ts) when it loads it, and what it gets back. Two bundles: only plain values and VS
 * Code's own objects cross between them, never a class of either (each bundle has its own copy).
 */
export interface ShellHandover {
  /** The status-bar items the shell drew from the last window's snapshot, by id. */
  readonly drawnStatusItems: ReadonlyMap<string, vscode.StatusBarItem>;
  /** Whether the shell registered the language model provider (the setting is on and VS Code has the API). */
  readonly languageModelsRegistered: boolean;
}

/** What the shell's stand-ins for the chat's panel serializer and side-bar view hand on to. */
export interface ChatSurfaceHandlers {
  restorePanel(panel: vscode.WebviewPanel, state: unknown): Promise<void>;
  resolveView(view: vscode.WebviewView, state: unknown): Promise<void>;
}

/** The extension once activated: what the shell's registrations delegate to. */
export interface OpenedExtension<TestApi = unknown> {
  readonly chat: ChatSurfaceHandlers;
  /** Present when the shell registered the provider and the extension made it. */
  readonly languageModels: vscode.LanguageModelChatProvider | undefined;
  /** Only when VS Code runs the extension's tests. */
  readonly testApi: TestApi | undefined;
}
