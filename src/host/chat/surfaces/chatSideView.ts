import vscode = require('vscode');
import { createConversation } from '../../../core/chat/conversation';
import { parseChatWebviewState } from '../../../core/chat/protocol/chatMessageValidation';
import type { Registered } from '../../shared/disposable';
import type { ChatFrame } from './chatSurface';
import type { ChatSurfaces } from './chatSurfaces';

/** workspaceState key of the conversation the side-bar view showed last (an id, nothing else). */
const LAST_CONVERSATION_KEY = 'inference.chatView.conversationId';
/** Context key: VS Code has created the side-bar view (package.json's commandPalette `when`). */
const VIEW_OPEN_CONTEXT = 'inference.chatViewOpen';

/**
 * The side-bar view as a chat surface: the view keeps its name ("Chat"), the conversation's title is
 * its description. Shaped like panelFrame (chatPanel.ts) on purpose: each adapts its own VS Code
 * object, whose members differ in name and meaning, to the one ChatFrame.
 */
function viewFrame(view: vscode.WebviewView): ChatFrame {
  return {
    kind: 'view',
    webview: view.webview,
    get visible() {
      return view.visible;
    },
    get active() {
      return view.visible;
    },
    onDidChangeVisibility: view.onDidChangeVisibility,
    onDidDispose: view.onDidDispose,
    showTitle: (title) => {
      view.description = title;
    },
    reveal: (preserveFocus) => view.show(preserveFocus),
    // The user decides where the view is and whether it shows; the extension never closes it.
    close: () => undefined,
  };
}

/**
 * The chat in the side bar: a webview view running the same surface as the editor panels. It shows
 * the conversation it showed last (kept in workspaceState, or else its webview's saved state) after
 * a reload, or when the user opens it again after closing it. The view's provider is registered at
 * activation (chatShell.ts) and hands the view here once the chat has loaded.
 */
export async function resolveChatSideView(surfaces: ChatSurfaces, workspaceState: vscode.Memento, view: vscode.WebviewView, state: unknown): Promise<void> {
  const remembered = workspaceState.get<string>(LAST_CONVERSATION_KEY) ?? parseChatWebviewState(state)?.conversationId;
  const surface = surfaces.attach(viewFrame(view), await surfaces.restore(remembered));
  const remember = (id: string) => void workspaceState.update(LAST_CONVERSATION_KEY, id);
  remember(surface.conversationId);
  surface.onDidChangeConversation((conversation) => remember(conversation.id));
  // Open Chat in Editor is offered in the command palette while there is a view to move from.
  void vscode.commands.executeCommand('setContext', VIEW_OPEN_CONTEXT, true);
  surface.onDidDispose(() => void vscode.commands.executeCommand('setContext', VIEW_OPEN_CONTEXT, false));
}

/** Moving a conversation between the side-bar view and an editor tab, both ways. */
export function registerSideViewCommands(surfaces: ChatSurfaces): Registered {
  return vscode.Disposable.from(
    vscode.commands.registerCommand('inference.openChatInEditor', () => openViewChatInEditor(surfaces)),
    vscode.commands.registerCommand('inference.moveChatToSideBar', () => movePanelChatToSideBar(surfaces)),
  );
}

/** The view's conversation moves to a new editor tab (its answer keeps streaming there); the view starts a new one. */
function openViewChatInEditor(surfaces: ChatSurfaces): void {
  const view = surfaces.view();
  if (!view) return;
  const moving = view.swap(surfaces.session(createConversation()));
  surfaces.openPanel(moving);
}

/**
 * The active chat tab's conversation moves to the side-bar view (its answer keeps streaming there)
 * and the tab closes. What the view showed stays in the history; a view still answering is not
 * interrupted: the move is refused with the reason.
 */
async function movePanelChatToSideBar(surfaces: ChatSurfaces): Promise<void> {
  const panels = surfaces.panels();
  const panel = panels.find((surface) => surface.frame.active) ?? panels.at(-1);
  if (!panel) {
    await surfaces.revealView();
    return;
  }
  const view = await surfaces.revealView();
  if (view.session.engine.streaming) {
    void vscode.window.showWarningMessage(vscode.l10n.t('The chat in the side bar is still answering: stop it, or open it in an editor, first.'));
    return;
  }
  const moving = panel.swap(surfaces.session(createConversation()));
  const replaced = view.swap(moving);
  surfaces.released(replaced);
  panel.frame.close();
}
