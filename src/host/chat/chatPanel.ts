import * as vscode from 'vscode';
import { chatHtml } from '../../core/chat/webviewHtml';
import type { Conversation } from '../../core/chat/conversation';
import {
  CHAT_PROTOCOL_VERSION, parseWebviewMessage, type ChatRequestMessage, type HostToWebview,
} from '../../core/chatProtocol';
import type { Services } from '../services';
import { ChatSession, type ChatSink } from './chatSession';
import type { ChatHistoryStore } from './historyStore';

export const CHAT_VIEW_TYPE = 'inference.chat';

export type RequestHandler = (panel: ChatPanel, request: ChatRequestMessage) => Promise<void>;

/**
 * One chat webview panel. The host posts nothing until the webview says `ready`; every `ready`
 * (first load, reload, becoming visible again) is answered with a full snapshot, and appends are only
 * posted while the webview is ready and visible. Each request is answered exactly once.
 */
export class ChatPanel implements ChatSink, vscode.Disposable {
  readonly session: ChatSession;
  private isReady = false;
  private disposed = false;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly onDisposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.onDisposeEmitter.event;

  constructor(
    readonly panel: vscode.WebviewPanel,
    conversation: Conversation,
    private readonly services: Services,
    store: ChatHistoryStore,
    private readonly handle: RequestHandler,
  ) {
    this.session = new ChatSession(conversation, services, store, this);
    const extensionUri = services.context.extensionUri;
    panel.webview.options = {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')],
    };
    panel.title = conversation.title;
    const asset = (...segments: string[]) => panel.webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...segments)).toString();
    panel.webview.html = chatHtml({
      cspSource: panel.webview.cspSource,
      scriptUri: asset('dist', 'webview', 'main.js'),
      styleUris: [asset('dist', 'webview', 'codicon.css'), asset('media', 'chat.css')],
    });
    this.disposables.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => this.onMessage(raw)),
      panel.onDidChangeViewState(() => {
        // Hidden webviews are torn down (no retainContextWhenHidden); the reloaded one sends `ready`.
        if (!panel.visible) this.isReady = false;
      }),
      panel.onDidDispose(() => this.dispose()),
      services.environments.onDidChange(() => this.refreshHeader()),
      services.models.onDidChangeSelection(() => this.refreshHeader()),
    );
  }

  get ready(): boolean {
    return !this.disposed && this.isReady && this.panel.visible;
  }

  get conversation(): Conversation {
    return this.session.conversation;
  }

  post(message: HostToWebview): void {
    if (message.type === 'conversationChanged') this.panel.title = message.conversation.title;
    if (!this.ready) return;
    void this.panel.webview.postMessage(message);
  }

  /** Shows another conversation in this panel. */
  load(conversation: Conversation): void {
    if (this.session.streaming) throw new Error('An answer is still streaming: stop it first.');
    this.session.conversation = conversation;
    this.session.pendingAttachments = [];
    this.panel.title = conversation.title;
    this.sendSnapshot();
  }

  sendSnapshot(): void {
    if (this.ready) void this.panel.webview.postMessage(this.session.snapshot());
  }

  private refreshHeader(): void {
    this.session.announceHeader();
  }

  private onMessage(raw: unknown): void {
    const message = parseWebviewMessage(raw);
    if (!message) {
      this.services.log.warn(`Chat: ignored a malformed message from the webview: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    if (message.type === 'ready') {
      this.isReady = true;
      this.sendSnapshot();
      return;
    }
    void this.handle(this, message).then(
      () => this.respond({ v: CHAT_PROTOCOL_VERSION, type: 'response', id: message.id, ok: true }),
      (error: unknown) => {
        const text = error instanceof Error ? error.message : String(error);
        this.services.log.warn(`Chat: ${message.method} failed: ${text}`);
        this.respond({ v: CHAT_PROTOCOL_VERSION, type: 'response', id: message.id, ok: false, error: text });
        void vscode.window.showWarningMessage(text);
      },
    );
  }

  private respond(message: HostToWebview): void {
    // A response for a webview that was hidden meanwhile is lost with it; the reloaded one starts afresh.
    if (!this.disposed) void this.panel.webview.postMessage(message);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.session.dispose();
    this.onDisposeEmitter.fire();
    this.onDisposeEmitter.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
