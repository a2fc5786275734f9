import * as vscode from 'vscode';
import { ChatEngine } from '../../core/chat/chatEngine';
import type { Conversation } from '../../core/chat/conversation';
import type { ChatView } from '../../core/chat/ports';
import { chatHtml } from '../../core/chat/webviewHtml';
import { parseWebviewMessage } from '../../core/chatMessageValidation';
import { CHAT_PROTOCOL_VERSION, type ChatRequestMessage, type ChatResponseMessage, type HostToWebview } from '../../core/chatProtocol';
import type { Services } from '../services';
import { createChatBackend } from './chatBackend';
import type { ChatHistoryStore } from './historyStore';

export const CHAT_VIEW_TYPE = 'inference.chat';

/** Runs one webview request; its result is the request's typed response. */
export type RequestHandler = (panel: ChatPanel, request: ChatRequestMessage) => Promise<unknown>;

/**
 * One chat webview panel: the VS Code side of a ChatEngine. The host posts nothing until the webview
 * says `ready`; every `ready` (first load, reload, becoming visible again) is answered with a full
 * snapshot, and other messages are only posted while the webview is ready and visible. Each request
 * is answered exactly once.
 */
export class ChatPanel implements ChatView, vscode.Disposable {
  readonly engine: ChatEngine;
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
    this.engine = new ChatEngine(conversation, this, store, createChatBackend(services));
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
      services.environments.onDidChange(() => this.engine.announceHeader()),
      services.models.onDidChangeSelection(() => this.engine.announceHeader()),
    );
  }

  get ready(): boolean {
    return !this.disposed && this.isReady && this.panel.visible;
  }

  get conversation(): Conversation {
    return this.engine.conversation;
  }

  post(message: HostToWebview): void {
    if (message.type === 'conversationChanged' || message.type === 'snapshot') this.panel.title = message.conversation.title;
    if (!this.ready) return;
    void this.panel.webview.postMessage(message);
  }

  sendSnapshot(): void {
    if (this.ready) this.post(this.engine.snapshot());
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
      (result) => this.respond({ v: CHAT_PROTOCOL_VERSION, type: 'response', id: message.id, ok: true, result: result ?? null }),
      (error: unknown) => {
        const text = error instanceof Error ? error.message : String(error);
        this.services.log.warn(`Chat: ${message.method} failed: ${text}`);
        this.respond({ v: CHAT_PROTOCOL_VERSION, type: 'response', id: message.id, ok: false, error: text });
        void vscode.window.showWarningMessage(text);
      },
    );
  }

  private respond(message: ChatResponseMessage): void {
    // A response for a webview that was hidden meanwhile is lost with it; the reloaded one starts afresh.
    if (!this.disposed) void this.panel.webview.postMessage(message);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    void this.engine.dispose();
    this.onDisposeEmitter.fire();
    this.onDisposeEmitter.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
