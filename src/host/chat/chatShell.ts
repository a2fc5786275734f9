import type { Registered } from '../shared/disposable';
import { LazyFeature } from '../shared/lazyFeature';
import type { ChatSurfaceHandlers } from '../shell/handover';
import type { ChatFeature, ChatFeatureServices, ChatTestApi } from '.';

/**
 * The chat as activation leaves it: its commands as stand-ins, and what the shell's panel serializer
 * and side-bar view provider (host/shell/standIns.ts) hand on to. The chat itself (engine, history,
 * surfaces) loads when one of them is first used: a command, a panel VS Code restores after a reload,
 * or the view when it is first shown.
 */
export function registerChatShell(services: ChatFeatureServices): Registered<{ chat: LazyFeature<ChatFeature>; surfaces: ChatSurfaceHandlers; testApi: ChatTestApi }> {
  const chat = new LazyFeature('chat', async () => {
    const { ChatFeature } = await import('.');
    return () => new ChatFeature(services);
  });
  const surfaces: ChatSurfaceHandlers = {
    restorePanel: async (panel, state) => (await chat.get()).restorePanel(panel, state),
    resolveView: async (view, state) => (await chat.get()).resolveView(view, state),
  };
  const testApi: ChatTestApi = {
    request: async (conversationId, method, params) => (await chat.get()).testApi.request(conversationId, method, params),
    showIn: async (surfaceConversationId, conversationId) => (await chat.get()).testApi.showIn(surfaceConversationId, conversationId),
    conversation: async (id) => (await chat.get()).testApi.conversation(id),
    openConversations: () => chat.loaded?.testApi.openConversations() ?? [],
    sideViewConversation: () => chat.loaded?.testApi.sideViewConversation(),
    ready: (conversationId) => chat.loaded?.testApi.ready(conversationId) ?? false,
  };
  return { chat, surfaces, testApi, dispose: () => chat.dispose() };
}
