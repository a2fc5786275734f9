import { describeLinkTarget } from '../core/chat/linkTarget';
import type { WebviewApi } from 'vscode-webview';
import {
  CHAT_PROTOCOL_VERSION,
  CHAT_STATE_VERSION,
  type ChatEnvironmentView,
  type ChatMethod,
  type ChatRequests,
  type ChatResponses,
  type ChatWebviewState,
  type ConversationView,
  type ErrorActionId,
  type HostToWebview,
  type MessagePatchMessage,
  type MessageView,
  type SnapshotMessage,
} from '../core/chatProtocol';
import { codeBlockOf } from './codeBlocks';
import { Composer } from './composer';
import { el } from './dom';
import { FrameScheduler } from './frames';
import { ConversationHeaderView } from './header';
import type { HostConnection } from './hostConnection';
import { LiveRegion } from './liveRegion';
import { createMarkdown } from './markdown';
import { MessageElement } from './messageView';

const STICK_TO_BOTTOM_PX = 48;

export class ChatApp {
  private readonly frames = new FrameScheduler();
  private readonly md = createMarkdown();
  private readonly live = new LiveRegion();
  private readonly header: ConversationHeaderView;
  private readonly composer: Composer;
  private readonly list: HTMLElement;
  private readonly empty: HTMLElement;
  private readonly messages = new Map<string, MessageElement>();
  private conversation: ConversationView | undefined;
  private streaming: { messageId: string; seq: number } | undefined;
  private awaitingSnapshot = false;
  private stickToBottom = true;
  /** Where the last automatic scroll to the bottom put the list. */
  private autoScrollTop = 0;
  private state: ChatWebviewState;

  constructor(
    root: HTMLElement,
    private readonly host: HostConnection,
    private readonly api: WebviewApi<ChatWebviewState>,
    state: ChatWebviewState | undefined,
  ) {
    this.state = state ?? { v: CHAT_STATE_VERSION };
    this.header = new ConversationHeaderView((params) => void this.call('setParams', { params }));
    this.composer = new Composer({
      send: (text, editing) => this.send(text, editing),
      stop: () => void this.call('stop', {}),
      draftChanged: (draft) => this.saveState({ draft }),
    });
    this.empty = el('div', { className: 'empty-state', text: 'Ask a question to start the conversation.' });
    this.list = el('main', { className: 'messages', attrs: { 'aria-label': 'Conversation', tabindex: '0' } }, [this.empty]);
    root.append(this.header.root, this.list, this.composer.root, this.live.element);
    this.composer.setDraft(this.state.draft ?? '');
    this.list.addEventListener('scroll', () => {
      const atBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < STICK_TO_BOTTOM_PX;
      // The scroll event of our own scroll can arrive after more content did: only scrolling up
      // (above where we put it) means the user left the bottom.
      this.stickToBottom = atBottom || (this.stickToBottom && this.list.scrollTop >= this.autoScrollTop);
    });
    this.frames.onAfterFrame(() => {
      if (!this.stickToBottom) return;
      this.list.scrollTop = this.list.scrollHeight;
      this.autoScrollTop = this.list.scrollTop;
    });
    root.addEventListener('click', (event) => this.onClick(event), true);
    // The real target of a link (punycode host, a user name before the host) shows on hover, before any click.
    root.addEventListener('mouseover', (event) => showLinkTarget(event.target));
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.streaming && event.target !== this.composer.input) void this.call('stop', {});
    });
  }

  handle(message: HostToWebview): void {
    if (message.v !== CHAT_PROTOCOL_VERSION || this.host.handleResponse(message)) return;
    switch (message.type) {
      case 'snapshot': return this.applySnapshot(message);
      case 'append': {
        if (this.awaitingSnapshot) return;
        if (!this.streaming || message.seq !== this.streaming.seq + 1) {
          // A lost or reordered delta: ask for the truth instead of rendering a wrong answer.
          this.awaitingSnapshot = true;
          void this.call('requestSnapshot', {});
          return;
        }
        this.streaming.seq = message.seq;
        const view = this.messages.get(this.streaming.messageId);
        if (message.reasoning) view?.appendReasoning(message.text);
        else view?.append(message.text);
        return;
      }
      case 'messageUpsert':
        if (message.conversationId === this.conversation?.id) this.upsert(message.message);
        return;
      case 'messagePatch':
        if (message.conversationId === this.conversation?.id) this.patch(message);
        return;
      case 'messageRemoved':
        if (message.conversationId !== this.conversation?.id) return;
        this.messages.get(message.messageId)?.root.remove();
        this.messages.delete(message.messageId);
        this.conversation.messages = this.conversation.messages.filter((m) => m.id !== message.messageId);
        return this.refreshChrome();
      case 'conversationChanged':
        if (!this.conversation || message.conversation.id !== this.conversation.id) return;
        Object.assign(this.conversation, message.conversation);
        return this.applyEnvironment(message.environment);
      case 'focusComposer':
        return this.composer.focus();
      case 'fillComposer':
        this.composer.setAttachments(message.attachments);
        if (message.text !== undefined) {
          this.composer.fill(message.text);
          this.saveState({ draft: message.text });
        }
        if (message.focus) this.composer.focus();
        return;
    }
  }

  private applySnapshot(snapshot: SnapshotMessage): void {
    this.awaitingSnapshot = false;
    this.conversation = { ...snapshot.conversation, messages: [...snapshot.conversation.messages] };
    this.streaming = snapshot.streaming ? { ...snapshot.streaming } : undefined;
    for (const element of this.messages.values()) element.root.remove();
    this.messages.clear();
    for (const view of this.conversation.messages) this.addMessage(view);
    this.composer.setAttachments(snapshot.attachments);
    this.applyEnvironment(snapshot.environment);
    this.saveState({ conversationId: this.conversation.id });
    this.stickToBottom = true;
    this.refreshChrome();
    this.frames.request({ renderFrame: () => undefined });
  }

  private applyEnvironment(environment: ChatEnvironmentView): void {
    if (!this.conversation) return;
    this.header.update(this.conversation, environment);
    this.composer.setModel(environment.effectiveModel);
  }

  /** The end of an answer: status, meta and error change; the text is what the appends built. */
  private patch(patch: MessagePatchMessage): void {
    const current = this.conversation?.messages.find((m) => m.id === patch.messageId);
    const element = this.messages.get(patch.messageId);
    if (!current || !element) return;
    const view: MessageView = { ...current, text: element.text };
    const reasoning = element.reasoning;
    if (reasoning) view.reasoning = reasoning;
    for (const key of ['status', 'meta', 'error'] as const) {
      if (patch[key] === undefined) delete view[key];
      else (view as unknown as Record<string, unknown>)[key] = patch[key];
    }
    this.upsert(view);
  }

  private upsert(view: MessageView): void {
    if (!this.conversation) return;
    const index = this.conversation.messages.findIndex((m) => m.id === view.id);
    if (index >= 0) this.conversation.messages[index] = view;
    else this.conversation.messages.push(view);
    if (view.status === 'streaming' && this.streaming?.messageId !== view.id) this.streaming = { messageId: view.id, seq: 0 };
    if (view.status !== 'streaming' && this.streaming?.messageId === view.id) {
      this.streaming = undefined;
      if (view.status === 'stopped') this.live.announceNow('Answer stopped. The partial answer is kept.');
      else if (view.error) this.live.announceNow(`Request failed: ${view.error.message}`);
      else this.live.announceNow('Answer complete.');
    }
    const existing = this.messages.get(view.id);
    if (existing) existing.update(view, false, this.busy);
    else this.addMessage(view);
    this.refreshChrome();
    // Cards and status lines change height outside markdown frames: keep following the bottom.
    this.frames.request({ renderFrame: () => undefined });
  }

  private addMessage(view: MessageView): void {
    const element = new MessageElement(view, { md: this.md, frames: this.frames, announce: (t) => this.live.announce(t) });
    this.messages.set(view.id, element);
    this.list.append(element.root);
  }

  private get busy(): boolean {
    return this.streaming !== undefined;
  }

  /** Action buttons depend on position (only the last turn can be regenerated or edited). */
  private refreshChrome(): void {
    const views = this.conversation?.messages ?? [];
    const lastAssistant = views.findLast((m) => m.role === 'assistant')?.id;
    const lastUser = views.findLast((m) => m.role === 'user')?.id;
    const lastIsUser = views.at(-1)?.role === 'user';
    for (const element of this.messages.values()) {
      const isLast = element.role === 'assistant' ? element.id === lastAssistant && !lastIsUser : element.id === lastUser;
      element.renderChrome(isLast, this.busy);
    }
    this.empty.hidden = views.length > 0;
    this.composer.setBusy(this.busy);
  }

  private async send(text: string, editing: boolean): Promise<boolean> {
    this.stickToBottom = true;
    const reply = await this.call(editing ? 'editLast' : 'send', { text });
    // The host took the pending attachments with the message: the chips left with it.
    if (reply) this.composer.setAttachments(reply.result.attachments);
    return reply !== undefined;
  }

  private async updateAttachments<M extends 'attach' | 'removeAttachment'>(method: M, params: ChatRequests[M]): Promise<void> {
    const reply = await this.call(method, params);
    if (reply) this.composer.setAttachments(reply.result.attachments);
  }

  /** Undefined when the host refused the request (announced to screen readers; the host shows why). */
  private async call<M extends ChatMethod>(method: M, params: ChatRequests[M]): Promise<{ result: ChatResponses[M] } | undefined> {
    try {
      return { result: await this.host.request(method, params) };
    } catch (error) {
      this.live.announceNow(error instanceof Error ? error.message : String(error));
      return undefined;
    }
  }

  private onClick(event: MouseEvent): void {
    const target = event.target instanceof Element ? event.target : null;
    const link = target?.closest('a');
    if (link) {
      // Never let the webview navigate, and keep the click from VS Code's webview shell too: it opens
      // any clicked link itself (a second open, and mailto without asking). The host decides, once.
      event.preventDefault();
      event.stopPropagation();
      const href = link.getAttribute('href');
      if (href) void this.call('openLink', { href });
      return;
    }
    const button = target?.closest<HTMLElement>('[data-action]');
    if (!button) return;
    const messageId = button.closest<HTMLElement>('[data-message-id]')?.dataset.messageId;
    this.runAction(button, messageId);
  }

  private runAction(button: HTMLElement, messageId: string | undefined): void {
    const action = button.dataset.action;
    const code = codeBlockOf(button);
    switch (action) {
      case 'send': return void this.composer.submit();
      case 'stop': return void this.call('stop', {});
      case 'pickModel': return void this.call('pickModel', {});
      case 'attachSelection': return void this.updateAttachments('attach', { kind: 'selection' });
      case 'attachFile': return void this.updateAttachments('attach', { kind: 'file' });
      case 'removeAttachment': return void this.updateAttachments('removeAttachment', { id: button.dataset.attachmentId ?? '' });
      case 'newConversation': case 'openHistory': case 'renameConversation': case 'exportMarkdown':
        return void this.call(action, {});
      case 'copyCode': return void (code && this.call('copyText', { text: code.code }));
      case 'insertCode': return void (code && this.call('insertCode', { code: code.code }));
      case 'openInNewFile': return void (code && this.call('openInNewFile', { code: code.code, language: code.language }));
      case 'copyAnswer': {
        const text = messageId ? this.messages.get(messageId)?.text : undefined;
        return void (text !== undefined && this.call('copyText', { text }));
      }
      case 'regenerate': return void this.call('regenerate', {});
      case 'editLast': {
        const text = messageId ? this.messages.get(messageId)?.text : undefined;
        if (text !== undefined) this.composer.startEditing(text);
        return;
      }
      case 'errorAction':
        if (messageId) void this.call('errorAction', { messageId, action: button.dataset.errorAction as ErrorActionId });
        return;
    }
  }

  private saveState(patch: Partial<ChatWebviewState>): void {
    this.state = { ...this.state, ...patch, v: CHAT_STATE_VERSION };
    this.api.setState(this.state);
  }
}

function showLinkTarget(target: EventTarget | null): void {
  const link = target instanceof Element ? target.closest('a') : null;
  const href = link?.getAttribute('href');
  if (link && href && !link.title) link.title = describeLinkTarget(href);
}
