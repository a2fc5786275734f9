import vscode = require('vscode');
import { createConversation, type Conversation } from '../../core/chat/conversation';
import { parseChatWebviewState } from '../../core/chat/protocol/chatMessageValidation';
import { CHAT_PROTOCOL_VERSION } from '../../core/chat/protocol/chatProtocol';
import type { ChatMethod, ChatRequestMessage, ChatRequests } from '../../core/chat/protocol/chatRequests';
import { Disposable } from '../shared/disposable';
import type { Services } from '../shared/services';
import type { ChatSurfacesServices } from './surfaces/chatSurfaces';
import type { RequestHandlerServices } from './requestHandlers';
import { panelFrame } from './surfaces/chatPanel';
import { registerSideViewCommands, resolveChatSideView } from './surfaces/chatSideView';
import { ChatSurfaces } from './surfaces/chatSurfaces';
import { registerEditorActions } from './context/editorActions';
import { registerSendImageToChat } from './context/chatImageFiles';
import { EditorTracker } from './context/editorContext';
import { openChatHistory } from './history/chatHistory';
import { searchChatHistory } from './history/historySearchPick';
import type { ComparisonSources } from '../../core/chat/comparison/comparisonReport';
import { exportComparison } from './exportComparison';
import { pickConversation } from './pickers';
import { Mentions } from './context/mentions';
import { createRequestHandler } from './requestHandlers';
import { proposeChange } from './apply/applyCode';
import { CodeProposals } from './apply/codeProposals';

/** What integration tests drive: the panels' requests, as their webviews send them, and what the host holds. */
export interface ChatTestApi {
  /** Runs a request through the same handler a surface's webview message reaches, and returns its reply. */
  request<M extends ChatMethod>(conversationId: string, method: M, params: ChatRequests[M]): Promise<unknown>;
  /** Ids of the conversations shown in open editor panels, oldest panel first. */
  openConversations(): string[];
  /** The conversation the side-bar view shows, once VS Code has created the view. */
  sideViewConversation(): string | undefined;
  /** Whether the surface showing the conversation has loaded its webview, which said `ready`, and is visible. */
  ready(conversationId: string): boolean;
  /** What a surface's own history pick does once `conversationId` is picked, in the surface showing `surfaceConversationId`. */
  showIn(surfaceConversationId: string, conversationId: string): Promise<void>;
  /** The conversation as its surface holds it, else as the history has it. */
  conversation(id: string): Promise<Conversation | undefined>;
}

/** The history's folder and log (context, log), the surfaces and the request handler. */
export type ChatFeatureServices = ChatSurfacesServices & RequestHandlerServices & Pick<Services, 'context' | 'log'>;

/**
 * The chat feature, loaded on first use (chatShell.ts): commands, restored panels, the side-bar
 * view and the history. Disposing it stops every answer in flight and resolves once each has been saved.
 */
export class ChatFeature extends Disposable {
  readonly testApi: ChatTestApi;
  /** A panel VS Code restores after a reload (its serializer is registered at activation: chatShell.ts). */
  readonly restorePanel: (webviewPanel: vscode.WebviewPanel, state: unknown) => Promise<void>;
  /** The side-bar view, once VS Code creates it (its provider is registered at activation: chatShell.ts). */
  readonly resolveView: (view: vscode.WebviewView, state: unknown) => Promise<void>;

  constructor(services: ChatFeatureServices) {
    super();
    const history = this.register(openChatHistory(services.context.globalStorageUri, services.log));
    const { store } = history;
    const editors = this.register(new EditorTracker());
    const surfaces = new ChatSurfaces(services, store);
    const deleteConversation = async (id: string) => {
      const shown = surfaces.holder(id);
      if (shown?.frame.kind === 'panel') shown.frame.close();
      // The side-bar view stays; it starts a new conversation instead.
      else if (shown) surfaces.released(shown.swap(surfaces.session(createConversation())));
      await store.delete(id);
    };
    const mentions = this.register(new Mentions(editors));
    // A proposal whose file changed before Accept is proposed again, with the editor showing the file.
    const proposals: CodeProposals = this.register(new CodeProposals((target, file) => proposeChange(target, file, undefined, proposals)));
    surfaces.useHandler(createRequestHandler(services, history, editors, mentions, deleteConversation, surfaces, proposals));
    const latest = () => surfaces.panels().at(-1);
    const conversationOf = async (id: string) => surfaces.holder(id)?.conversation ?? store.load(id);

    this.restorePanel = async (webviewPanel, state) => {
      surfaces.attach(panelFrame(webviewPanel), await surfaces.restore(parseChatWebviewState(state)?.conversationId));
    };
    this.resolveView = (view, state) => resolveChatSideView(surfaces, services.context.workspaceState, view, state);
    this.register(registerSideViewCommands(surfaces));
    this.register(vscode.commands.registerCommand('inference.openChat', () => {
      const existing = latest();
      if (existing) existing.frame.reveal();
      else surfaces.openPanel(surfaces.session(createConversation()));
    }));
    this.register(vscode.commands.registerCommand('inference.newChat', () => surfaces.openPanel(surfaces.session(createConversation()))));
    this.register(vscode.commands.registerCommand('inference.chatHistory', async () => {
      const id = await pickConversation(history, deleteConversation);
      if (id) await surfaces.openSaved(id);
    }));
    this.register(vscode.commands.registerCommand('inference.searchChatHistory', async () => {
      const choice = await searchChatHistory(store);
      if (!choice) return;
      const surface = await surfaces.openSaved(choice.id);
      if (choice.messageId) surface.revealMessage(choice.messageId);
    }));
    const comparisonSources: ComparisonSources = {
      shown: () => {
        const view = surfaces.view()?.conversationId;
        return [...surfaces.panels().map((panel) => panel.conversationId).reverse(), ...(view === undefined ? [] : [view])];
      },
      list: () => store.list(),
      conversation: conversationOf,
    };
    this.register(vscode.commands.registerCommand('inference.exportComparison', (args?: unknown) => exportComparison(comparisonSources, args)));
    // Editor actions use the newest panel, else the side-bar view when it shows, or open a panel beside the editor.
    const chatFor = (preserveFocus: boolean) => {
      const view = surfaces.view();
      const existing = latest() ?? (view?.frame.visible ? view : undefined);
      if (!existing) return surfaces.openPanel(surfaces.session(createConversation()), vscode.ViewColumn.Beside, preserveFocus);
      existing.frame.reveal(preserveFocus);
      return existing;
    };
    this.register(registerEditorActions(editors, chatFor));
    this.register(registerSendImageToChat(chatFor));
    this.register({ dispose: () => surfaces.closeAll() });
    let requestId = 0;
    this.testApi = {
      request: async (conversationId, method, params) => {
        const surface = surfaces.holder(conversationId);
        if (!surface) throw new Error(`No open chat surface shows conversation ${conversationId}`);
        return surface.request({ v: CHAT_PROTOCOL_VERSION, type: 'request', id: --requestId, method, params } as ChatRequestMessage);
      },
      showIn: async (surfaceConversationId, conversationId) => {
        const surface = surfaces.holder(surfaceConversationId);
        if (!surface) throw new Error(`No open chat surface shows conversation ${surfaceConversationId}`);
        await surfaces.show(surface.session, conversationId);
      },
      openConversations: () => surfaces.panels().map((p) => p.conversationId),
      sideViewConversation: () => surfaces.view()?.conversationId,
      ready: (conversationId) => surfaces.holder(conversationId)?.ready ?? false,
      conversation: conversationOf,
    };
  }
}
