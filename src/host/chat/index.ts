import * as vscode from 'vscode';
import { createConversation, type Conversation } from '../../core/chat/conversation';
import { parseChatWebviewState } from '../../core/chatMessageValidation';
import type { Services } from '../services';
import { ChatPanel, CHAT_VIEW_TYPE } from './chatPanel';
import { EditorTracker } from './editorContext';
import { ChatHistoryStore } from './historyStore';
import { pickConversation } from './pickers';
import { createRequestHandler } from './requestHandlers';

/** The chat feature: commands, the panel serializer (restores panels after a reload) and the history. */
export function registerChat(services: Services): vscode.Disposable {
  const store = new ChatHistoryStore(services.context.globalStorageUri, services.log);
  const editors = new EditorTracker();
  const panels = new Set<ChatPanel>();
  const deleteConversation = async (id: string) => {
    for (const panel of panels) if (panel.conversation.id === id) panel.panel.dispose();
    await store.delete(id);
  };
  const handler = createRequestHandler(services, store, editors, deleteConversation);

  const track = (panel: ChatPanel) => {
    panels.add(panel);
    panel.onDidDispose(() => panels.delete(panel));
    return panel;
  };
  const open = (conversation: Conversation) => {
    const webviewPanel = vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, conversation.title, vscode.ViewColumn.Active, {
      enableScripts: true,
      retainContextWhenHidden: false,
    });
    return track(new ChatPanel(webviewPanel, conversation, services, store, handler));
  };
  const latest = () => [...panels].at(-1);

  const serializer = vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, {
    async deserializeWebviewPanel(webviewPanel: vscode.WebviewPanel, raw: unknown) {
      const state = parseChatWebviewState(raw);
      const saved = state?.conversationId ? await store.load(state.conversationId) : undefined;
      track(new ChatPanel(webviewPanel, saved ?? createConversation(), services, store, handler));
    },
  });

  return vscode.Disposable.from(
    store,
    editors,
    serializer,
    vscode.commands.registerCommand('inference.openChat', () => {
      const existing = latest();
      if (existing) existing.panel.reveal();
      else open(createConversation());
    }),
    vscode.commands.registerCommand('inference.newChat', () => open(createConversation())),
    vscode.commands.registerCommand('inference.chatHistory', async () => {
      const id = await pickConversation(store, deleteConversation);
      if (!id) return;
      const shown = [...panels].find((p) => p.conversation.id === id);
      if (shown) return shown.panel.reveal();
      const conversation = await store.load(id);
      if (!conversation) throw new Error('That conversation could not be read.');
      open(conversation);
    }),
    { dispose: () => [...panels].forEach((p) => p.panel.dispose()) },
  );
}
