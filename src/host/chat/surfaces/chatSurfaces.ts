import vscode = require('vscode');
import { createConversation, type Conversation } from '../../../core/chat/conversation';
import { ConversationOwners } from '../../../core/chat/conversationOwners';
import type { HistoryStore } from '../../../core/chat/history/historyStore';
import { CHAT_SIDE_VIEW_ID, CHAT_VIEW_TYPE } from './chatViewIds';
import { panelFrame } from './chatPanel';
import { ChatSession, type ChatSessionServices } from './chatSession';
import { CHAT_WEBVIEW_OPTIONS, ChatSurface, type ChatFrame, type ChatSurfaceServices, type RequestHandler } from './chatSurface';

/** The surfaces' and their sessions' services together. */
export type ChatSurfacesServices = ChatSurfaceServices & ChatSessionServices;

/** What the request handlers may do to the surface a request came from. */
export interface SurfaceConversations {
  /** Shows a saved conversation in the session's surface, or reveals the surface that already shows it. */
  show(session: ChatSession, conversationId: string): Promise<void>;
  /** Starts a new conversation in the session's surface (nothing happens in an empty one). */
  showNew(session: ChatSession): Promise<void>;
}

/**
 * Every open chat surface — editor panels and the side-bar view — and the one way a conversation
 * gets into one, which keeps the history's single-writer rule (`ConversationOwners`): a
 * conversation another surface shows is revealed there, never loaded twice; moving one between
 * surfaces moves its session.
 */
export class ChatSurfaces implements SurfaceConversations {
  readonly #owners = new ConversationOwners<ChatSurface>();
  #handler: RequestHandler | undefined;
  #sideView: ChatSurface | undefined;
  readonly #onSideViewEmitter = new vscode.EventEmitter<ChatSurface>();

  readonly #services: ChatSurfacesServices;
  readonly #store: HistoryStore;

  constructor(services: ChatSurfacesServices, store: HistoryStore) {
    this.#services = services;
    this.#store = store;
  }

  /** The handler is built with this registry (its new-conversation and history requests come back here). */
  useHandler(handler: RequestHandler): void {
    this.#handler = handler;
  }

  all(): ChatSurface[] {
    return this.#owners.all();
  }

  panels(): ChatSurface[] {
    return this.all().filter((surface) => surface.frame.kind === 'panel');
  }

  view(): ChatSurface | undefined {
    return this.#sideView;
  }

  holder(conversationId: string): ChatSurface | undefined {
    return this.#owners.holder(conversationId);
  }

  /** A new surface in `frame`, showing `session`. */
  attach(frame: ChatFrame, session: ChatSession): ChatSurface {
    if (!this.#handler) throw new Error('The chat request handler is not set');
    const surface = new ChatSurface(frame, session, this.#services, this.#handler);
    this.#owners.add(surface);
    if (frame.kind === 'view') {
      this.#sideView = surface;
      this.#onSideViewEmitter.fire(surface);
    }
    surface.onDidDispose(() => {
      if (this.#sideView === surface) this.#sideView = undefined;
      // Memory follows what is open: a closed conversation leaves nothing behind in the store.
      if (this.#owners.delete(surface)) this.#store.release(surface.conversationId);
    });
    return surface;
  }

  session(conversation: Conversation): ChatSession {
    return new ChatSession(conversation, this.#services, this.#store);
  }

  openPanel(session: ChatSession, column: vscode.ViewColumn = vscode.ViewColumn.Active, preserveFocus = false): ChatSurface {
    const webviewPanel = vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, session.conversation.title, { viewColumn: column, preserveFocus }, {
      ...CHAT_WEBVIEW_OPTIONS,
      retainContextWhenHidden: false,
      // Ctrl+F in the panel; it finds text in answers not rendered yet too (their placeholders hold it).
      enableFindWidget: true,
    });
    return this.attach(panelFrame(webviewPanel), session);
  }

  /**
   * What a restored surface (a panel after a reload, the side-bar view) shows: its saved conversation,
   * unless another surface restored it first (a second writer is never made; it starts afresh).
   */
  async restore(conversationId: string | undefined): Promise<ChatSession> {
    const saved = conversationId && !this.#owners.holder(conversationId) ? await this.#read(conversationId).catch(() => undefined) : undefined;
    return this.session(saved && !this.#owners.holder(saved.id) ? saved : createConversation());
  }

  /** Shows a saved conversation: the surface that shows it, revealed, or a new panel. */
  async openSaved(conversationId: string): Promise<ChatSurface> {
    const shown = this.#owners.holder(conversationId);
    if (shown) return this.#revealed(shown);
    const conversation = await this.#read(conversationId);
    // Another surface may have opened it while it was read.
    return this.#owners.holder(conversationId) ? this.#revealed(this.#owners.holder(conversationId)!) : this.openPanel(this.session(conversation));
  }

  async show(session: ChatSession, conversationId: string): Promise<void> {
    const target = this.#surfaceOf(session);
    let placement = this.#owners.place(conversationId, target);
    if (placement.kind === 'free') {
      const conversation = await this.#read(conversationId);
      placement = this.#owners.place(conversationId, target);
      if (placement.kind === 'free') return this.#switchTo(session, conversation);
    }
    if (placement.kind === 'elsewhere') this.#revealed(placement.holder);
  }

  async showNew(session: ChatSession): Promise<void> {
    if (session.conversation.messages.length === 0) return;
    await session.engine.persist();
    this.#switchTo(session, createConversation());
  }

  /** A session no surface shows any more: its answer is stopped and saved, and only then may another surface read it. */
  released(session: ChatSession): void {
    const id = session.conversation.id;
    this.#owners.leaving(id, session.dispose().then(() => {
      if (!this.#owners.holder(id)) this.#store.release(id);
    }));
  }

  /** Resolves with the side-bar view's surface, showing the view (VS Code creates it on first show). */
  async revealView(): Promise<ChatSurface> {
    const created = this.#sideView ? Promise.resolve(this.#sideView) : new Promise<ChatSurface>((resolve, reject) => {
      // A view that VS Code never creates (its container removed from the layout) fails the move, not hangs it.
      const timer = setTimeout(() => {
        listener.dispose();
        reject(new Error(vscode.l10n.t('The chat view in the side bar did not open.')));
      }, VIEW_CREATION_TIMEOUT_MS);
      const listener = this.#onSideViewEmitter.event((surface) => {
        clearTimeout(timer);
        listener.dispose();
        resolve(surface);
      });
    });
    await vscode.commands.executeCommand(`${CHAT_SIDE_VIEW_ID}.focus`);
    return created;
  }

  /** Hands the other surfaces' sessions nothing: closes panels, saves what the view shows. Resolves once saved. */
  closeAll(): Promise<unknown> {
    this.#onSideViewEmitter.dispose();
    return Promise.all(this.all().map((surface) => {
      const saved = surface.dispose();
      if (surface.frame.kind === 'panel') surface.frame.close();
      return saved;
    }));
  }

  #surfaceOf(session: ChatSession): ChatSurface | undefined {
    return this.all().find((surface) => surface.session === session);
  }

  #revealed(surface: ChatSurface): ChatSurface {
    surface.frame.reveal();
    return surface;
  }

  /** Reads a conversation once no engine that showed it before can still write it. */
  async #read(conversationId: string): Promise<Conversation> {
    await this.#owners.settled(conversationId);
    const conversation = await this.#store.load(conversationId);
    if (!conversation) throw new Error(vscode.l10n.t('That conversation could not be read.'));
    return conversation;
  }

  #switchTo(session: ChatSession, conversation: Conversation): void {
    const leaving = session.conversation.id;
    session.load(conversation);
    // The answer that just ended may still patch its spend into the conversation it leaves.
    this.#owners.leaving(leaving, session.engine.whenIdle());
  }
}

/** How long Move Chat to Side Bar waits for VS Code to create the view it asked to show. */
const VIEW_CREATION_TIMEOUT_MS = 15_000;

