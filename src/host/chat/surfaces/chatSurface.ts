import vscode = require('vscode');
import type { Attachment, Conversation } from '../../../core/chat/conversation';
import { snapshotParts } from '../../../core/chat/protocol/snapshotParts';
import { chatHtml } from '../../../core/webviewHtml';
import { parseWebviewMessage } from '../../../core/chat/protocol/chatMessageValidation';
import { CHAT_PROTOCOL_VERSION, type AttachmentView, type ChatResponseMessage, type HostToWebview } from '../../../core/chat/protocol/chatProtocol';
import type { ChatRequestMessage } from '../../../core/chat/protocol/chatRequests';
import { Disposable } from '../../shared/disposable';
import type { Services } from '../../shared/services';
import type { ChatSession, SessionDisplay } from './chatSession';

/** How long a search result asked to be shown is shown again when the webview loads again. */
const REVEAL_AGAIN_MS = 10_000;

/**
 * What the chat page may do: run its own script, nothing else. No forms (the page never submits
 * anything; requests go through the typed protocol) and no command: links in model output.
 */
export const CHAT_WEBVIEW_OPTIONS = { enableScripts: true, enableForms: false, enableCommandUris: false } as const;

/** The webview's assets (context), the header's sources (environments, models), and where a failed request is told. */
export type ChatSurfaceServices = Pick<Services, 'context' | 'environments' | 'models' | 'log' | 'errors'>;

/** Runs one webview request on a surface's session; its result is the request's typed response. */
export type RequestHandler = (session: ChatSession, request: ChatRequestMessage) => Promise<unknown>;

/** Where a chat surface lives: an editor tab (`chatPanel.ts`) or the side-bar view (`chatSideView.ts`). */
export interface ChatFrame {
  readonly kind: 'panel' | 'view';
  readonly webview: vscode.Webview;
  readonly visible: boolean;
  /** The tab is the active editor (the view: it is shown). */
  readonly active: boolean;
  readonly onDidChangeVisibility: vscode.Event<unknown>;
  readonly onDidDispose: vscode.Event<void>;
  showTitle(title: string): void;
  reveal(preserveFocus?: boolean): void;
  /** Closes the tab; the side-bar view stays where the user put it. */
  close(): void;
}

/**
 * One chat webview, in a panel or the side-bar view: the VS Code side of the session it shows. The
 * host posts nothing until the webview says `ready`; every `ready` (first load, reload, becoming
 * visible again) is answered with a full snapshot, and other messages are only posted while the
 * webview is ready and visible. Each request is answered exactly once.
 */
export class ChatSurface extends Disposable implements SessionDisplay {
  #current: ChatSession;
  #isReady = false;
  /** What an editor action put in the composer, kept until the webview is ready to take it. */
  #composerUpdate: { attachments: AttachmentView[]; text?: string; focus: boolean } | undefined;
  /** A message to scroll to (a search result), kept until the webview has shown the snapshot. */
  /**
   * The message to show (a search result) and until when: posted on every `ready` until then, since a
   * webview that loads again (hidden and shown while opening) would otherwise open at the bottom.
   */
  #pendingReveal: { messageId: string; until: number } | undefined;
  readonly #onDisposeEmitter = this.register(new vscode.EventEmitter<void>());
  readonly onDidDispose = this.#onDisposeEmitter.event;
  readonly #onConversationEmitter = this.register(new vscode.EventEmitter<Conversation>());
  /** The surface shows another conversation (loaded in it, or a session moved in). */
  readonly onDidChangeConversation = this.#onConversationEmitter.event;

  readonly #services: ChatSurfaceServices;
  readonly #handle: RequestHandler;

  constructor(
    readonly frame: ChatFrame,
    session: ChatSession,
    services: ChatSurfaceServices,
    handle: RequestHandler,
  ) {
    super();
    this.#services = services;
    this.#handle = handle;
    this.#current = session;
    session.attach(this);
    const extensionUri = services.context.extensionUri;
    const webview = frame.webview;
    webview.options = {
      ...CHAT_WEBVIEW_OPTIONS,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')],
    };
    frame.showTitle(session.conversation.title);
    const asset = (...segments: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...segments)).toString();
    webview.html = chatHtml({
      cspSource: webview.cspSource,
      scriptUri: asset('dist', 'webview', 'main.js'),
      styleUris: [asset('dist', 'webview', 'codicon.css'), asset('media', 'chat.css')],
      ...(vscode.l10n.bundle && { l10nBundle: vscode.l10n.bundle }),
      language: vscode.env.language,
    });
    this.register(webview.onDidReceiveMessage((raw: unknown) => this.#onMessage(raw)));
    this.register(frame.onDidChangeVisibility(() => {
      // Hidden webviews are torn down (no retainContextWhenHidden); the reloaded one sends `ready`.
      if (!frame.visible) this.#isReady = false;
    }));
    this.register(frame.onDidDispose(() => void this.dispose()));
    this.register(services.environments.onDidChange(() => this.#current.engine.announceHeader()));
    this.register(services.models.onDidChangeSelection(() => this.#current.engine.announceHeader()));
  }

  get ready(): boolean {
    return !this.isDisposed && this.#isReady && this.frame.visible;
  }

  get session(): ChatSession {
    return this.#current;
  }

  get conversation(): Conversation {
    return this.#current.conversation;
  }

  get conversationId(): string {
    return this.#current.conversation.id;
  }

  /**
   * Shows `session` here instead of the current one, which is returned detached (to move to another
   * surface, or to dispose). Pending composer fills belong to the conversation that leaves.
   */
  swap(session: ChatSession): ChatSession {
    const previous = this.#current;
    previous.attach(undefined);
    this.#current = session;
    session.attach(this);
    this.#composerUpdate = undefined;
    this.#pendingReveal = undefined;
    this.frame.showTitle(session.conversation.title);
    session.engine.showSnapshot();
    this.conversationChanged();
    return previous;
  }

  conversationChanged(): void {
    this.#onConversationEmitter.fire(this.#current.conversation);
  }

  post(message: HostToWebview): void {
    if (!this.ready) return;
    const parts = !Array.isArray(message) && message.type === 'snapshot' ? snapshotParts(message) : [message];
    for (const part of parts) void this.frame.webview.postMessage(part);
  }

  showTitle(title: string): void {
    this.frame.showTitle(title);
  }

  /** Runs a request as if this surface's webview had sent it; its result is the reply. */
  request(message: ChatRequestMessage): Promise<unknown> {
    return this.#handle(this.#current, message);
  }

  /**
   * An editor action: adds the chip through the engine like the surface's own attach buttons, and with
   * `focus` puts the cursor in the composer, filled with `text` when given. Nothing is sent.
   */
  addContext(attachment: Attachment, options: { text?: string; focus: boolean }): void {
    const attachments = this.#current.engine.attach(attachment);
    const previous = this.#composerUpdate;
    const text = options.text ?? previous?.text;
    this.#composerUpdate = { attachments, focus: options.focus || (previous?.focus ?? false), ...(text !== undefined && { text }) };
    this.#flushComposerUpdate();
  }

  /** Scrolls the surface to a message once its webview shows the conversation. */
  revealMessage(messageId: string): void {
    this.#pendingReveal = { messageId, until: Date.now() + REVEAL_AGAIN_MS };
    this.#flushReveal();
  }

  #flushReveal(): void {
    if (!this.#pendingReveal || !this.ready) return;
    if (Date.now() > this.#pendingReveal.until) {
      this.#pendingReveal = undefined;
      return;
    }
    this.post({ v: CHAT_PROTOCOL_VERSION, type: 'revealMessage', messageId: this.#pendingReveal.messageId });
  }

  #flushComposerUpdate(): void {
    if (!this.#composerUpdate || !this.ready) return;
    this.post({ v: CHAT_PROTOCOL_VERSION, type: 'fillComposer', ...this.#composerUpdate });
    this.#composerUpdate = undefined;
  }

  #onMessage(raw: unknown): void {
    const message = parseWebviewMessage(raw);
    if (!message) {
      this.#services.log.warn(`Chat: ignored a malformed message from the webview: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    if (message.type === 'ready') {
      this.#isReady = true;
      this.#current.engine.showSnapshot();
      this.#flushComposerUpdate();
      this.#flushReveal();
      return;
    }
    void this.request(message).then(
      (result) => this.#respond({ v: CHAT_PROTOCOL_VERSION, type: 'response', id: message.id, ok: true, result: result ?? null }),
      (error: unknown) => {
        this.#respond({ v: CHAT_PROTOCOL_VERSION, type: 'response', id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) });
        // Shown (and logged) like every other failure: with the action that fixes it.
        void this.#services.errors.present(error, { source: `chat ${message.method}` });
      },
    );
  }

  #respond(message: ChatResponseMessage): void {
    // A response for a webview that was hidden meanwhile is lost with it; the reloaded one starts afresh.
    if (!this.isDisposed) void this.frame.webview.postMessage(message);
  }

  /** Resolves when the answer that was streaming in the session it shows last (if any) is saved. */
  override async dispose(): Promise<void> {
    if (this.isDisposed) return super.dispose();
    this.#onDisposeEmitter.fire();
    await super.dispose();
    await this.#current.dispose();
  }
}
