import * as l10n from '@vscode/l10n';
import type { WebviewApi } from 'vscode-webview';
import { conversationSpend } from '../core/chat/conversationSpend';
import { eagerFrom } from '../core/chat/snapshotParts';
import { parseAppend } from '../core/chat/chatMessageValidation';
import {
  CHAT_PROTOCOL_VERSION,
  CHAT_STATE_VERSION,
  type AppendMessage,
  type ChatEnvironmentView,
  type ChatMethod,
  type ChatRequests,
  type ChatResponses,
  type ChatWebviewState,
  type ConversationView,
  type EarlierMessagesMessage,
  type HostToWebview,
  type MessagePatchMessage,
  type MentionTarget,
  type MessageView,
  type SnapshotMessage,
} from '../core/chat/chatProtocol';
import { BottomFollower } from './bottomFollower';
import { routeClick, showLinkTarget, type AttachmentMethod, type ClickContext } from './clickActions';
import { bytesBase64, ImageThumbnails } from './imageThumbnails';
import { Composer } from './composer';
import { el } from './dom';
import { FrameScheduler } from './frames';
import { ConversationHeaderView } from './header';
import type { HostConnection } from './hostConnection';
import { LazyMessages } from './lazyMessages';
import { LiveRegion } from './liveRegion';
import { createMarkdown } from './markdown/markdown';
import { MessageElement } from './messageView';

/** How long a revealed message (a search result) stays outlined. */
const REVEAL_HIGHLIGHT_MS = 2000;

export class ChatApp {
  private readonly frames = new FrameScheduler();
  private readonly md = createMarkdown();
  private readonly live = new LiveRegion();
  private readonly header: ConversationHeaderView;
  private readonly composer: Composer;
  private readonly thumbnails: ImageThumbnails;
  private readonly list: HTMLElement;
  private readonly empty: HTMLElement;
  private readonly messages = new Map<string, MessageElement>();
  private conversation: ConversationView | undefined;
  private streaming: { messageId: string; seq: number } | undefined;
  private awaitingSnapshot = false;
  private readonly bottom: BottomFollower;
  private readonly lazy: LazyMessages;
  /** The messages whose chrome was last rendered as the last turn's (refreshChrome). */
  private lastTurn = new Set<string>();
  private state: ChatWebviewState;

  constructor(
    root: HTMLElement,
    private readonly host: HostConnection,
    private readonly api: WebviewApi<ChatWebviewState>,
    state: ChatWebviewState | undefined,
  ) {
    this.state = state ?? { v: CHAT_STATE_VERSION };
    this.header = new ConversationHeaderView((params) => void this.call('setParams', { params }));
    this.thumbnails = new ImageThumbnails(async (id) => (await this.call('imageData', { id }))?.result);
    this.composer = new Composer({
      send: (text, editing) => this.send(text, editing),
      stop: () => void this.call('stop', {}),
      draftChanged: (draft) => this.saveState({ draft }),
      mentions: {
        query: async (query) => (await this.call('mentionQuery', { query }))?.result.items,
        pick: (target) => void this.mention(target),
      },
      attachFiles: (files) => void this.attachFiles(files),
    }, this.thumbnails);
    this.empty = el('div', { className: 'empty-state', text: l10n.t('Ask a question to start the conversation.') });
    this.list = el('main', { className: 'messages', attrs: { 'aria-label': l10n.t('Conversation'), tabindex: '0' } }, [this.empty]);
    root.append(this.header.root, this.list, this.composer.root, this.live.element);
    this.composer.setDraft(this.state.draft ?? '');
    this.bottom = new BottomFollower(this.list);
    this.lazy = new LazyMessages(this.list);
    const clicks: ClickContext = {
      call: (method, params) => this.call(method, params),
      updateAttachments: (method, params) => this.updateAttachments(method, params),
      composer: this.composer,
      messageText: (id) => this.messages.get(id)?.text,
    };
    root.addEventListener('click', (event) => routeClick(event, clicks), true);
    // The real target of a link (punycode host, a user name before the host) shows on hover, before any click.
    root.addEventListener('mouseover', (event) => showLinkTarget(event.target));
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.streaming && event.target !== this.composer.input) void this.call('stop', {});
    });
  }

  handle(message: HostToWebview): void {
    if (Array.isArray(message)) {
      const append = parseAppend(message);
      if (append) this.append(append);
      return;
    }
    if (message.v !== CHAT_PROTOCOL_VERSION || this.host.handleResponse(message)) return;
    switch (message.type) {
      case 'snapshot': return this.applySnapshot(message);
      case 'earlierMessages': return this.prependEarlier(message);
      case 'messageUpsert':
        if (message.conversationId === this.conversation?.id) this.upsert(message.message);
        return;
      case 'messagePatch':
        if (message.conversationId === this.conversation?.id) this.patch(message);
        return;
      case 'messageRemoved':
        if (message.conversationId !== this.conversation?.id) return;
        this.removeMessage(message.messageId);
        this.conversation.messages = this.conversation.messages.filter((m) => m.id !== message.messageId);
        return this.refreshChrome();
      case 'conversationChanged':
        if (!this.conversation || message.conversation.id !== this.conversation.id) return;
        Object.assign(this.conversation, message.conversation);
        return this.applyEnvironment(message.environment);
      case 'focusComposer':
        return this.composer.focus();
      case 'revealMessage':
        return this.reveal(message.messageId);
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

  /** Shows a message (a search result): the list stops following the bottom and scrolls it into view. */
  private reveal(messageId: string): void {
    const element = this.messages.get(messageId);
    if (!element) return;
    // Shown as it will look, not as the placeholder of an answer not rendered yet.
    this.lazy.renderNow(element);
    this.bottom.release();
    requestAnimationFrame(() => element.root.scrollIntoView({ block: 'start' }));
    element.root.classList.add('revealed');
    setTimeout(() => element.root.classList.remove('revealed'), REVEAL_HIGHLIGHT_MS);
  }

  private append(append: AppendMessage): void {
    if (this.awaitingSnapshot) return;
    if (!this.streaming || append.seq !== this.streaming.seq + 1) {
      // A lost or reordered delta: ask for the truth instead of rendering a wrong answer.
      this.awaitingSnapshot = true;
      void this.call('requestSnapshot', {});
      return;
    }
    this.streaming.seq = append.seq;
    const view = this.messages.get(this.streaming.messageId);
    if (append.reasoning) view?.appendReasoning(append.text);
    else view?.append(append.text);
  }

  private applySnapshot(snapshot: SnapshotMessage): void {
    this.awaitingSnapshot = false;
    this.conversation = { ...snapshot.conversation, messages: [...snapshot.conversation.messages] };
    this.streaming = snapshot.streaming ? { ...snapshot.streaming } : undefined;
    for (const id of [...this.messages.keys()]) this.removeMessage(id);
    const eager = eagerFrom(this.conversation.messages.map((m) => m.text));
    this.conversation.messages.forEach((view, index) => this.addMessage(view, index < eager));
    this.composer.setAttachments(snapshot.attachments);
    this.applyEnvironment(snapshot.environment);
    this.saveState({ conversationId: this.conversation.id });
    this.bottom.follow();
    this.refreshChrome();
  }

  /** The older part of a long conversation, after its snapshot: shown deferred above what is there. */
  private prependEarlier(earlier: EarlierMessagesMessage): void {
    const first = this.conversation?.messages[0];
    if (!this.conversation || earlier.conversationId !== this.conversation.id || first?.id !== earlier.before) return;
    this.conversation.messages.unshift(...earlier.messages);
    const before = this.messages.get(first.id)?.root ?? null;
    for (const view of earlier.messages) this.addMessage(view, true, before);
  }

  private applyEnvironment(environment: ChatEnvironmentView): void {
    if (!this.conversation) return;
    this.header.update(this.conversation, environment);
    this.composer.setModel(environment.effectiveModel);
    this.composer.setEstimate(environment.estimate);
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
      if (view.status === 'stopped') this.live.announceNow(l10n.t('Answer stopped. The partial answer is kept.'));
      else if (view.error) this.live.announceNow(l10n.t('Request failed: {0}', view.error.message));
      else this.live.announceNow(l10n.t('Answer complete.'));
    }
    const existing = this.messages.get(view.id);
    if (existing) existing.update(view, false, this.busy);
    else this.addMessage(view);
    this.refreshChrome();
  }

  /** `deferred`: rendered when scrolled near (lazyMessages.ts); `before`: where it goes, the end by default. */
  private addMessage(view: MessageView, deferred = false, before: Element | null = null): void {
    const element = new MessageElement(view, { md: this.md, thumbnails: this.thumbnails, frames: this.frames, announce: (t) => this.live.announce(t) }, deferred);
    this.messages.set(view.id, element);
    this.list.insertBefore(element.root, before);
    this.bottom.watch(element.root);
    this.lazy.watch(element);
  }

  private removeMessage(id: string): void {
    const element = this.messages.get(id);
    if (!element) return;
    this.bottom.unwatch(element.root);
    this.lazy.unwatch(element);
    element.root.remove();
    this.messages.delete(id);
  }

  private get busy(): boolean {
    return this.streaming !== undefined;
  }

  /**
   * Action buttons depend on position (only the last turn can be regenerated or edited) and, for
   * the last turn, on whether an answer streams. Only the messages that are last, or were, change:
   * a long conversation's thousand others keep their chrome.
   */
  private refreshChrome(): void {
    const views = this.conversation?.messages ?? [];
    const lastUser = views.findLast((m) => m.role === 'user')?.id;
    const lastIsUser = views.at(-1)?.role === 'user';
    const lastAssistant = lastIsUser ? undefined : views.findLast((m) => m.role === 'assistant')?.id;
    const last = new Set([lastAssistant, lastUser].filter((id) => id !== undefined));
    for (const id of new Set([...this.lastTurn, ...last])) this.messages.get(id)?.renderChrome(last.has(id), this.busy);
    this.lastTurn = last;
    this.empty.hidden = views.length > 0;
    this.composer.setBusy(this.busy);
    this.header.showSpend(conversationSpend(views));
  }

  private async send(text: string, editing: boolean): Promise<boolean> {
    this.bottom.follow();
    const reply = await this.call(editing ? 'editLast' : 'send', { text });
    // The host took the pending attachments with the message: the chips left with it.
    if (reply) this.composer.setAttachments(reply.result.attachments);
    return reply !== undefined;
  }

  private async mention(target: MentionTarget): Promise<void> {
    const reply = await this.call('mention', target);
    if (!reply) return;
    this.composer.setAttachments(reply.result.attachments);
    if (reply.result.refused) {
      this.composer.addRefusal(reply.result.refused);
      this.live.announceNow(reply.result.refused.message);
    }
  }

  private async updateAttachments<M extends AttachmentMethod>(method: M, params: ChatRequests[M]): Promise<void> {
    const reply = await this.call(method, params);
    if (reply) this.composer.setAttachments(reply.result.attachments);
  }

  /** Pasted or dropped files, one request each, in order: the host checks each one's bytes and size. */
  private async attachFiles(files: File[]): Promise<void> {
    for (const file of files) {
      await this.updateAttachments('attachImage', { name: file.name, data: bytesBase64(new Uint8Array(await file.arrayBuffer())) });
    }
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

  private saveState(patch: Partial<ChatWebviewState>): void {
    this.state = { ...this.state, ...patch, v: CHAT_STATE_VERSION };
    this.api.setState(this.state);
  }
}
