import vscode = require('vscode');
import { ChatEngine } from '../../core/chat/chatEngine';
import type { Attachment, Conversation } from '../../core/chat/conversation';
import type { ChatView, ConversationSaver } from '../../core/chat/ports';
import { snapshotParts } from '../../core/chat/snapshotParts';
import { chatHtml } from '../../core/webviewHtml';
import { parseWebviewMessage } from '../../core/chat/chatMessageValidation';
import { CHAT_PROTOCOL_VERSION, type AttachmentView, type ChatRequestMessage, type ChatResponseMessage, type HostToWebview } from '../../core/chat/chatProtocol';
import { Disposable } from '../disposable';
import type { Services } from '../services';
import { createChatBackend } from './chatBackend';

export const CHAT_VIEW_TYPE = 'inference.chat';

/**
 * What the chat page may do: run its own script, nothing else. No forms (the page never submits
 * anything; requests go through the typed protocol) and no command: links in model output.
 */
export const CHAT_WEBVIEW_OPTIONS = { enableScripts: true, enableForms: false, enableCommandUris: false } as const;

/** Runs one webview request on the panel's engine; its result is the request's typed response. */
export type RequestHandler = (engine: ChatEngine, request: ChatRequestMessage) => Promise<unknown>;

/**
 * One chat webview panel: the VS Code side of a ChatEngine. The host posts nothing until the webview
 * says `ready`; every `ready` (first load, reload, becoming visible again) is answered with a full
 * snapshot, and other messages are only posted while the webview is ready and visible. Each request
 * is answered exactly once.
 */
export class ChatPanel extends Disposable implements ChatView {
  private readonly engine: ChatEngine;
  private isReady = false;
  /** What an editor action put in the composer, kept until the webview is ready to take it. */
  private composerUpdate: { attachments: AttachmentView[]; text?: string; focus: boolean } | undefined;
  /** A message to scroll to (a search result), kept until the webview has shown the snapshot. */
  private pendingReveal: string | undefined;
  private readonly onDisposeEmitter = this.register(new vscode.EventEmitter<void>());
  readonly onDidDispose = this.onDisposeEmitter.event;

  constructor(
    readonly panel: vscode.WebviewPanel,
    conversation: Conversation,
    private readonly services: Services,
    saver: ConversationSaver,
    private readonly handle: RequestHandler,
  ) {
    super();
    // Disposing the engine stops an answer in flight and waits until it is saved.
    this.engine = this.register(new ChatEngine(conversation, this, saver, createChatBackend(services)));
    const extensionUri = services.context.extensionUri;
    panel.webview.options = {
      ...CHAT_WEBVIEW_OPTIONS,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')],
    };
    panel.title = conversation.title;
    const asset = (...segments: string[]) => panel.webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...segments)).toString();
    panel.webview.html = chatHtml({
      cspSource: panel.webview.cspSource,
      scriptUri: asset('dist', 'webview', 'main.js'),
      styleUris: [asset('dist', 'webview', 'codicon.css'), asset('media', 'chat.css')],
      ...(vscode.l10n.bundle && { l10nBundle: vscode.l10n.bundle }),
      language: vscode.env.language,
    });
    this.register(panel.webview.onDidReceiveMessage((raw: unknown) => this.onMessage(raw)));
    this.register(panel.onDidChangeViewState(() => {
      // Hidden webviews are torn down (no retainContextWhenHidden); the reloaded one sends `ready`.
      if (!panel.visible) this.isReady = false;
    }));
    this.register(panel.onDidDispose(() => void this.dispose()));
    this.register(services.environments.onDidChange(() => this.engine.announceHeader()));
    this.register(services.models.onDidChangeSelection(() => this.engine.announceHeader()));
  }

  get ready(): boolean {
    return !this.isDisposed && this.isReady && this.panel.visible;
  }

  get conversation(): Conversation {
    return this.engine.conversation;
  }

  post(message: HostToWebview): void {
    if (!this.ready) return;
    const parts = !Array.isArray(message) && message.type === 'snapshot' ? snapshotParts(message) : [message];
    for (const part of parts) void this.panel.webview.postMessage(part);
  }

  showTitle(title: string): void {
    this.panel.title = title;
  }

  /** Runs a request as if this panel's webview had sent it; its result is the reply. */
  request(message: ChatRequestMessage): Promise<unknown> {
    return this.handle(this.engine, message);
  }

  /**
   * An editor action: adds the chip through the engine like the panel's own attach buttons, and with
   * `focus` puts the cursor in the composer, filled with `text` when given. Nothing is sent.
   */
  addContext(attachment: Attachment, options: { text?: string; focus: boolean }): void {
    const attachments = this.engine.attach(attachment);
    const previous = this.composerUpdate;
    const text = options.text ?? previous?.text;
    this.composerUpdate = { attachments, focus: options.focus || (previous?.focus ?? false), ...(text !== undefined && { text }) };
    this.flushComposerUpdate();
  }

  /** Scrolls the panel to a message once its webview shows the conversation. */
  revealMessage(messageId: string): void {
    this.pendingReveal = messageId;
    this.flushReveal();
  }

  private flushReveal(): void {
    if (!this.pendingReveal || !this.ready) return;
    this.post({ v: CHAT_PROTOCOL_VERSION, type: 'revealMessage', messageId: this.pendingReveal });
    this.pendingReveal = undefined;
  }

  private flushComposerUpdate(): void {
    if (!this.composerUpdate || !this.ready) return;
    this.post({ v: CHAT_PROTOCOL_VERSION, type: 'fillComposer', ...this.composerUpdate });
    this.composerUpdate = undefined;
  }

  private onMessage(raw: unknown): void {
    const message = parseWebviewMessage(raw);
    if (!message) {
      this.services.log.warn(`Chat: ignored a malformed message from the webview: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    if (message.type === 'ready') {
      this.isReady = true;
      this.engine.showSnapshot();
      this.flushComposerUpdate();
      this.flushReveal();
      return;
    }
    void this.request(message).then(
      (result) => this.respond({ v: CHAT_PROTOCOL_VERSION, type: 'response', id: message.id, ok: true, result: result ?? null }),
      (error: unknown) => {
        this.respond({ v: CHAT_PROTOCOL_VERSION, type: 'response', id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) });
        // Shown (and logged) like every other failure: with the action that fixes it.
        void this.services.errors.present(error, { source: `chat ${message.method}` });
      },
    );
  }

  private respond(message: ChatResponseMessage): void {
    // A response for a webview that was hidden meanwhile is lost with it; the reloaded one starts afresh.
    if (!this.isDisposed) void this.panel.webview.postMessage(message);
  }

  /** Resolves when the answer that was streaming (if any) is saved. */
  override dispose(): Promise<void> {
    if (!this.isDisposed) this.onDisposeEmitter.fire();
    return super.dispose();
  }
}
