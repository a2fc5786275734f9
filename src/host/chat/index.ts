import vscode = require('vscode');
import { createConversation, type Conversation } from '../../core/chat/conversation';
import { parseChatWebviewState } from '../../core/chat/chatMessageValidation';
import { CHAT_PROTOCOL_VERSION, type ChatMethod, type ChatRequestMessage, type ChatRequests } from '../../core/chat/chatProtocol';
import { Disposable, type Registered } from '../disposable';
import type { Services } from '../services';
import { ChatPanel, CHAT_VIEW_TYPE, CHAT_WEBVIEW_OPTIONS } from './chatPanel';
import { registerEditorActions } from './editorActions';
import { EditorTracker } from './editorContext';
import { openChatHistory } from './chatHistory';
import { searchChatHistory } from './historySearchPick';
import { pickConversation } from './pickers';
import { Mentions } from './mentions';
import { createRequestHandler } from './requestHandlers';

/** What integration tests drive: the panels' requests, as their webviews send them, and what the host holds. */
export interface ChatTestApi {
  /** Runs a request through the same handler a panel's webview message reaches, and returns its reply. */
  request<M extends ChatMethod>(conversationId: string, method: M, params: ChatRequests[M]): Promise<unknown>;
  /** Ids of the conversations shown in open panels, oldest panel first. */
  openConversations(): string[];
  /** The conversation as its panel holds it, else as the history has it. */
  conversation(id: string): Promise<Conversation | undefined>;
}

/**
 * The chat feature: commands, the panel serializer (restores panels after a reload) and the history.
 * Disposing it stops every answer in flight and resolves once each has been saved.
 */
export class ChatFeature extends Disposable {
  private readonly panels = new Set<ChatPanel>();
  readonly testApi: ChatTestApi;

  constructor(services: Services) {
    super();
    const history = this.register(openChatHistory(services.context.globalStorageUri, services.log));
    const { store } = history;
    const editors = this.register(new EditorTracker());
    const deleteConversation = async (id: string) => {
      for (const panel of this.panels) if (panel.conversation.id === id) panel.panel.dispose();
      await store.delete(id);
    };
    const mentions = this.register(new Mentions(editors));
    const handler = createRequestHandler(services, history, editors, mentions, deleteConversation);
    const track = (panel: ChatPanel) => {
      this.panels.add(panel);
      panel.onDidDispose(() => {
        this.panels.delete(panel);
        // Memory follows what is open: a closed conversation leaves nothing behind in the store.
        if (![...this.panels].some((p) => p.conversation.id === panel.conversation.id)) store.release(panel.conversation.id);
      });
      return panel;
    };
    const open = (conversation: Conversation, column: vscode.ViewColumn = vscode.ViewColumn.Active, preserveFocus = false) => {
      const webviewPanel = vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, conversation.title, { viewColumn: column, preserveFocus }, {
        ...CHAT_WEBVIEW_OPTIONS,
        retainContextWhenHidden: false,
        // Ctrl+F in the panel; it finds text in answers not rendered yet too (their placeholders hold it).
        enableFindWidget: true,
      });
      return track(new ChatPanel(webviewPanel, conversation, services, store, handler));
    };
    const latest = () => [...this.panels].at(-1);

    this.register(vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, {
      async deserializeWebviewPanel(webviewPanel: vscode.WebviewPanel, raw: unknown) {
        const state = parseChatWebviewState(raw);
        const saved = state?.conversationId ? await store.load(state.conversationId) : undefined;
        track(new ChatPanel(webviewPanel, saved ?? createConversation(), services, store, handler));
      },
    }));
    this.register(vscode.commands.registerCommand('inference.openChat', () => {
      const existing = latest();
      if (existing) existing.panel.reveal();
      else open(createConversation());
    }));
    this.register(vscode.commands.registerCommand('inference.newChat', () => open(createConversation())));
    const openSaved = async (id: string): Promise<ChatPanel> => {
      const shown = [...this.panels].find((p) => p.conversation.id === id);
      if (shown) {
        shown.panel.reveal();
        return shown;
      }
      const conversation = await store.load(id);
      if (!conversation) throw new Error(vscode.l10n.t('That conversation could not be read.'));
      return open(conversation);
    };
    this.register(vscode.commands.registerCommand('inference.chatHistory', async () => {
      const id = await pickConversation(history, deleteConversation);
      if (id) await openSaved(id);
    }));
    this.register(vscode.commands.registerCommand('inference.searchChatHistory', async () => {
      const choice = await searchChatHistory(store);
      if (!choice) return;
      const panel = await openSaved(choice.id);
      if (choice.messageId) panel.revealMessage(choice.messageId);
    }));
    // Editor actions use the newest panel, or open one beside the editor.
    this.register(registerEditorActions(editors, (preserveFocus) => {
      const existing = latest();
      if (!existing) return open(createConversation(), vscode.ViewColumn.Beside, preserveFocus);
      existing.panel.reveal(undefined, preserveFocus);
      return existing;
    }));
    this.register({ dispose: () => this.closePanels() });
    let requestId = 0;
    const panelOf = (conversationId: string) => [...this.panels].find((p) => p.conversation.id === conversationId);
    this.testApi = {
      request: async (conversationId, method, params) => {
        const panel = panelOf(conversationId);
        if (!panel) throw new Error(`No open panel shows conversation ${conversationId}`);
        return panel.request({ v: CHAT_PROTOCOL_VERSION, type: 'request', id: --requestId, method, params } as ChatRequestMessage);
      },
      openConversations: () => [...this.panels].map((p) => p.conversation.id),
      conversation: async (id) => panelOf(id)?.conversation ?? store.load(id),
    };
  }

  private closePanels(): Promise<unknown> {
    return Promise.all([...this.panels].map((panel) => {
      const saved = panel.dispose();
      panel.panel.dispose();
      return saved;
    }));
  }
}

export function registerChat(services: Services): Registered<Pick<ChatFeature, 'testApi'>> {
  return new ChatFeature(services);
}
