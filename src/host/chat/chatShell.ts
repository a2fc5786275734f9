import vscode = require('vscode');
import type { Registered } from '../shared/disposable';
import { LazyFeature } from '../shared/lazyFeature';
import type { ChatFeature, ChatFeatureServices, ChatTestApi } from '.';
import { CHAT_SIDE_VIEW_ID, CHAT_VIEW_TYPE } from './surfaces/chatViewIds';

/**
 * What activation registers for the chat: its commands, the panel serializer and the side-bar view's
 * provider. The chat itself (engine, history, surfaces) loads when one of them is first used: a
 * command, a panel VS Code restores after a reload, or the view when it is first shown.
 */
export function registerChatShell(services: ChatFeatureServices): Registered<{ chat: LazyFeature<ChatFeature>; testApi: ChatTestApi }> {
  const chat = new LazyFeature('chat', async () => {
    const { ChatFeature } = await import('.');
    return () => new ChatFeature(services);
  });
  const registrations = vscode.Disposable.from(
    vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, {
      deserializeWebviewPanel: async (webviewPanel, state) => (await chat.get()).restorePanel(webviewPanel, state),
    }),
    // Not retained when hidden, as the panels: the webview is rebuilt from a snapshot when shown again.
    vscode.window.registerWebviewViewProvider(CHAT_SIDE_VIEW_ID, {
      resolveWebviewView: async (view, context) => (await chat.get()).resolveView(view, context.state),
    }, { webviewOptions: { retainContextWhenHidden: false } }),
  );
  const testApi: ChatTestApi = {
    request: async (conversationId, method, params) => (await chat.get()).testApi.request(conversationId, method, params),
    showIn: async (surfaceConversationId, conversationId) => (await chat.get()).testApi.showIn(surfaceConversationId, conversationId),
    conversation: async (id) => (await chat.get()).testApi.conversation(id),
    openConversations: () => chat.loaded?.testApi.openConversations() ?? [],
    sideViewConversation: () => chat.loaded?.testApi.sideViewConversation(),
    ready: (conversationId) => chat.loaded?.testApi.ready(conversationId) ?? false,
  };
  return {
    chat, testApi,
    dispose: async () => {
      registrations.dispose();
      await chat.dispose();
    },
  };
}
