import * as l10n from '@vscode/l10n';
import type { WebviewApi } from 'vscode-webview';
import { conversationSpend } from '../../core/chat/protocol/conversationSpend';
import { parseAppend } from '../../core/chat/protocol/chatMessageValidation';
import {
  CHAT_PROTOCOL_VERSION,
  CHAT_STATE_VERSION,
  type AppendMessage,
  type ChatEnvironmentView,
  type ChatWebviewState,
  type ConversationHeader,
  type EarlierMessagesMessage,
  type HostToWebview,
  type MessagePatch,
  type MessagePatchMessage,
  type ColumnPatchMessage,
  type MentionTarget,
  type MessageView,
  type SnapshotMessage,
} from '../../core/chat/protocol/chatProtocol';
import type { ChatMethod, ChatRequests, ChatResponses } from '../../core/chat/protocol/chatRequests';
import { routeClick, showLinkTarget, type AttachmentMethod, type ClickContext } from './clickActions';
import { bytesBase64, ImageThumbnails } from './imageThumbnails';
import { Composer } from './composer';
import { FrameScheduler } from './frames';
import { ConversationHeaderView } from './header';
import type { HostConnection } from './hostConnection';
import { LiveRegion } from './liveRegion';
import { createMarkdown } from './markdown/markdown';
import { MessageList } from './messageList';
import { StreamFollower } from './streamFollower';

export class ChatApp {
  readonly #frames = new FrameScheduler();
  readonly #md = createMarkdown();
  readonly #live = new LiveRegion();
  readonly #header: ConversationHeaderView;
  readonly #composer: Composer;
  readonly #thumbnails: ImageThumbnails;
  readonly #messages: MessageList;
  /** The conversation shown, without its messages: those are `messages`, which hold their text. */
  #conversation: ConversationHeader | undefined;
  readonly #streams = new StreamFollower();
  #awaitingSnapshot = false;
  #state: ChatWebviewState;

  readonly #host: HostConnection;
  readonly #api: WebviewApi<ChatWebviewState>;

  constructor(
    root: HTMLElement,
    host: HostConnection,
    api: WebviewApi<ChatWebviewState>,
    state: ChatWebviewState | undefined,
  ) {
    this.#host = host;
    this.#api = api;
    this.#state = state ?? { v: CHAT_STATE_VERSION };
    this.#header = new ConversationHeaderView((params) => void this.#call('setParams', { params }));
    this.#thumbnails = new ImageThumbnails(async (id) => (await this.#call('imageData', { id }))?.result);
    this.#composer = new Composer({
      send: (text, editing) => this.#send(text, editing),
      compare: (text, models) => this.#compareModels(text, models),
      estimateComparison: async (models, text) => (await this.#call('compareEstimate', { models, text }))?.result,
      stop: () => void this.#call('stop', {}),
      draftChanged: (draft) => this.#saveState({ draft }),
      mentions: {
        query: async (query) => (await this.#call('mentionQuery', { query }))?.result.items,
        pick: (target) => void this.#mention(target),
      },
      models: {
        list: async () => (await this.#call('chatModels', {}))?.result,
        pick: (model, answerAgain) => void this.#call('setChatModel', { ...(model !== undefined && { model }), ...(answerAgain !== undefined && { answerAgain }) }),
      },
      attachFiles: (files) => void this.#attachFiles(files),
    }, this.#thumbnails);
    this.#messages = new MessageList({ md: this.#md, thumbnails: this.#thumbnails, frames: this.#frames, announce: (t) => this.#live.announce(t) });
    root.append(this.#header.root, this.#messages.root, this.#composer.root, this.#live.element);
    this.#composer.setDraft(this.#state.draft ?? '');
    const clicks: ClickContext = {
      call: (method, params) => this.#call(method, params),
      updateAttachments: (method, params) => this.#updateAttachments(method, params),
      composer: this.#composer,
      messageText: (id) => this.#messages.get(id)?.text ?? this.#messages.columnText(id),
    };
    root.addEventListener('click', (event) => routeClick(event, clicks), true);
    // The real target of a link (punycode host, a user name before the host) shows on hover, before any click.
    root.addEventListener('mouseover', (event) => showLinkTarget(event.target));
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.#streams.busy && event.target !== this.#composer.input) void this.#call('stop', {});
    });
  }

  handle(message: HostToWebview): void {
    if (Array.isArray(message)) {
      const append = parseAppend(message);
      if (append) this.#append(append);
      return;
    }
    if (message.v !== CHAT_PROTOCOL_VERSION || this.#host.handleResponse(message)) return;
    switch (message.type) {
      case 'snapshot': return this.#applySnapshot(message);
      case 'earlierMessages': return this.#prependEarlier(message);
      case 'messageUpsert':
        if (message.conversationId === this.#conversation?.id) this.#upsert(message.message);
        return;
      case 'messagePatch':
        if (message.conversationId === this.#conversation?.id) this.#patch(message);
        return;
      case 'columnPatch':
        if (message.conversationId === this.#conversation?.id) this.#patchColumn(message);
        return;
      case 'messageRemoved':
        if (message.conversationId !== this.#conversation?.id) return;
        this.#messages.remove(message.messageId);
        return this.#refreshChrome();
      case 'conversationChanged':
        if (!this.#conversation || message.conversation.id !== this.#conversation.id) return;
        Object.assign(this.#conversation, message.conversation);
        return this.#applyEnvironment(message.environment);
      case 'revealMessage':
        return this.#messages.reveal(message.messageId);
      case 'fillComposer':
        this.#composer.setAttachments(message.attachments);
        if (message.text !== undefined) {
          this.#composer.fill(message.text);
          this.#saveState({ draft: message.text });
        }
        if (message.focus) this.#composer.focus();
        return;
    }
  }

  #append(append: AppendMessage): void {
    if (this.#awaitingSnapshot) return;
    const target = this.#streams.take(append);
    if (!target) return this.#askForSnapshot();
    const view = this.#messages.get(target.messageId);
    if (target.column !== undefined) view?.appendColumn(target.column, append.text, append.reasoning === true);
    else if (append.reasoning) view?.appendReasoning(append.text);
    else view?.append(append.text);
  }

  /** A lost or reordered delta: ask for the truth instead of rendering a wrong answer. */
  #askForSnapshot(): void {
    this.#awaitingSnapshot = true;
    void this.#call('requestSnapshot', {});
  }

  #patchColumn(patch: ColumnPatchMessage): void {
    const ended = this.#messages.get(patch.turnId)?.patchColumn(patch.columnId, patch);
    if (ended === undefined) return;
    if (patch.status === 'stopped') this.#live.announce(l10n.t('{0} stopped.', ended));
    else if (patch.error) this.#live.announce(l10n.t('{0} failed: {1}', ended, patch.error.message));
    else this.#live.announce(l10n.t('{0} finished.', ended));
  }

  /** Whether a comparison turn streams (its columns' appends are taken), and the announcement when it ends. */
  #followComparison(turnId: string, status: MessageView['status']): void {
    if (this.#streams.comparisonStatus(turnId, status)) this.#live.announceNow(l10n.t('Comparison complete.'));
  }

  #applySnapshot(snapshot: SnapshotMessage): void {
    this.#awaitingSnapshot = false;
    const { messages, ...conversation } = snapshot.conversation;
    this.#conversation = conversation;
    this.#streams.restart(snapshot);
    this.#messages.show(messages);
    this.#composer.setAttachments(snapshot.attachments);
    this.#applyEnvironment(snapshot.environment);
    this.#saveState({ conversationId: this.#conversation.id });
    this.#refreshChrome();
  }

  /** The older part of a long conversation, after its snapshot: shown deferred above what is there. */
  #prependEarlier(earlier: EarlierMessagesMessage): void {
    if (earlier.conversationId !== this.#conversation?.id || this.#messages.all[0]?.id !== earlier.before) return;
    this.#messages.prepend(earlier.messages);
  }

  #applyEnvironment(environment: ChatEnvironmentView): void {
    if (!this.#conversation) return;
    this.#header.update(this.#conversation, environment);
    this.#composer.setModel(environment.effectiveModel);
    this.#composer.setEstimate(environment.estimate);
  }

  /** The end of an answer: status, meta and error change; the text is what the appends built. */
  #patch(patch: MessagePatchMessage): void {
    const element = this.#messages.get(patch.messageId);
    if (!element) return;
    if (element.comparison) this.#followComparison(patch.messageId, patch.status);
    else this.#followStatus(patch.messageId, patch);
    element.patch(patch, false, this.#streams.busy);
    this.#refreshChrome();
  }

  #upsert(view: MessageView): void {
    if (!this.#conversation) return;
    if (view.comparison) this.#followComparison(view.id, view.status);
    else this.#followStatus(view.id, view);
    const existing = this.#messages.get(view.id);
    if (existing) existing.update(view, false, this.#streams.busy);
    else this.#messages.add(view);
    this.#refreshChrome();
  }

  /** Which answer streams (the next appends are its), and the announcement when it ends. */
  #followStatus(messageId: string, { status, error }: MessagePatch): void {
    if (!this.#streams.answerStatus(messageId, status)) return;
    if (status === 'stopped') this.#live.announceNow(l10n.t('Answer stopped. The partial answer is kept.'));
    else if (error) this.#live.announceNow(l10n.t('Request failed: {0}', error.message));
    else this.#live.announceNow(l10n.t('Answer complete.'));
  }

  /** The chrome that depends on the whole conversation: the last turn's buttons, the composer, the spend. */
  #refreshChrome(): void {
    this.#messages.refreshChrome(this.#streams.busy);
    this.#composer.setBusy(this.#streams.busy);
    this.#header.showSpend(conversationSpend(this.#messages.all));
  }

  #send(text: string, editing: boolean): Promise<boolean> {
    return editing ? this.#submit('editLast', { text }) : this.#submit('send', { text });
  }

  #compareModels(text: string, models: string[]): Promise<boolean> {
    return this.#submit('compare', { text, models });
  }

  /** A question sent (to one model or several): true when the host took it. */
  async #submit<M extends 'send' | 'editLast' | 'compare'>(method: M, params: ChatRequests[M]): Promise<boolean> {
    this.#messages.followBottom();
    const reply = await this.#call(method, params);
    // The host took the pending attachments with the message: the chips left with it.
    if (reply) this.#composer.setAttachments((reply.result as ChatResponses['send']).attachments);
    return reply !== undefined;
  }

  async #mention(target: MentionTarget): Promise<void> {
    const reply = await this.#call('mention', target);
    if (!reply) return;
    this.#composer.setAttachments(reply.result.attachments);
    if (reply.result.refused) {
      this.#composer.addRefusal(reply.result.refused);
      this.#live.announceNow(reply.result.refused.message);
    }
  }

  async #updateAttachments<M extends AttachmentMethod>(method: M, params: ChatRequests[M]): Promise<void> {
    const reply = await this.#call(method, params);
    if (reply) this.#composer.setAttachments(reply.result.attachments);
  }

  /** Pasted or dropped files, one request each, in order: the host checks each one's bytes and size. */
  async #attachFiles(files: File[]): Promise<void> {
    for (const file of files) {
      await this.#updateAttachments('attachImage', { name: file.name, data: bytesBase64(new Uint8Array(await file.arrayBuffer())) });
    }
  }

  /** Undefined when the host refused the request (announced to screen readers; the host shows why). */
  async #call<M extends ChatMethod>(method: M, params: ChatRequests[M]): Promise<{ result: ChatResponses[M] } | undefined> {
    try {
      return { result: await this.#host.request(method, params) };
    } catch (error) {
      this.#live.announceNow(error instanceof Error ? error.message : String(error));
      return undefined;
    }
  }

  #saveState(patch: Partial<ChatWebviewState>): void {
    this.#state = { ...this.#state, ...patch, v: CHAT_STATE_VERSION };
    this.#api.setState(this.#state);
  }
}
