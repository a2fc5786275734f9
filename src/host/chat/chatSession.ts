import * as vscode from 'vscode';
import { AppendBatcher } from '../../core/chat/appendBatcher';
import {
  attachmentView, conversationHeader, conversationView, effectiveParams, messageView, newId, requestMessages, titleFrom,
  DEFAULT_TITLE, type Conversation, type StoredAttachment, type StoredMessage,
} from '../../core/chat/conversation';
import { creditsSpent } from '../../core/credits';
import { hostMessage, type AttachmentView, type ChatEnvironmentView, type ErrorCardView, type HostToWebview } from '../../core/chatProtocol';
import { ApiError } from '../../core/errors';
import type { ChatRequest, ChatStreamEvent } from '../../core/types';
import { readSetting } from '../config';
import { toApiError } from '../errorPresenter';
import type { Services } from '../services';
import { chatDefaults } from './chatSettings';
import type { ChatHistoryStore } from './historyStore';

/** Where the session's messages go: the panel, which drops them while the webview is not ready. */
export interface ChatSink {
  post(message: HostToWebview): void;
  readonly ready: boolean;
}

interface ActiveStream {
  message: StoredMessage;
  abort: AbortController;
  batcher: AppendBatcher;
}

/**
 * One conversation and its in-flight answer. The conversation object is the truth: every delta is
 * appended to it (and saved soon) before it is batched to the webview, so a snapshot is always exact
 * and a crash loses at most the save interval.
 */
export class ChatSession implements vscode.Disposable {
  private active: ActiveStream | undefined;
  pendingAttachments: StoredAttachment[] = [];

  constructor(
    public conversation: Conversation,
    private readonly services: Services,
    private readonly store: ChatHistoryStore,
    private readonly sink: ChatSink,
  ) {}

  get streaming(): boolean {
    return this.active !== undefined;
  }

  environmentView(): ChatEnvironmentView {
    const env = this.services.environments.active();
    const effectiveModel = this.conversation.model ?? this.services.models.selectedChatModel(env.name);
    return { environmentLabel: env.label, defaults: chatDefaults(), ...(effectiveModel && { effectiveModel }) };
  }

  snapshot(): HostToWebview {
    this.active?.batcher.discardPending();
    return hostMessage('snapshot', {
      conversation: conversationView(this.conversation),
      attachments: this.snapshotAttachments(),
      environment: this.environmentView(),
      ...(this.active && { streaming: { message: this.active.message.id, seq: this.active.batcher.lastSeq } }),
    });
  }

  snapshotAttachments(): AttachmentView[] {
    return this.pendingAttachments.map(attachmentView);
  }

  /** Header, title or model changed. */
  announceHeader(): void {
    this.sink.post(hostMessage('conversationChanged', { conversation: conversationHeader(this.conversation), environment: this.environmentView() }));
  }

  async send(text: string): Promise<void> {
    this.assertIdle();
    const message: StoredMessage = { id: newId(), role: 'user', text, createdAt: Date.now() };
    if (this.pendingAttachments.length) message.attachments = this.pendingAttachments;
    this.pendingAttachments = [];
    this.sink.post(hostMessage('attachments', { attachments: [] }));
    this.conversation.messages.push(message);
    if (this.conversation.title === DEFAULT_TITLE) {
      this.conversation.title = titleFrom(text);
      this.announceHeader();
    }
    this.upsert(message);
    await this.persist();
    void this.answer();
  }

  async regenerate(): Promise<void> {
    this.assertIdle();
    const last = this.conversation.messages.at(-1);
    if (last?.role === 'assistant') this.remove(last.id);
    if (this.conversation.messages.at(-1)?.role !== 'user') throw new Error('There is no question to answer again.');
    await this.persist();
    void this.answer();
  }

  async editLast(text: string): Promise<void> {
    this.assertIdle();
    const index = this.conversation.messages.findLastIndex((m) => m.role === 'user');
    if (index < 0) return this.send(text);
    for (const later of this.conversation.messages.slice(index + 1)) this.remove(later.id);
    const message = this.conversation.messages[index];
    message.text = text;
    this.upsert(message);
    await this.persist();
    void this.answer();
  }

  stop(): void {
    this.active?.abort.abort();
  }

  rename(title: string): Promise<void> {
    this.conversation.title = title.trim() || DEFAULT_TITLE;
    this.announceHeader();
    return this.persist();
  }

  private assertIdle(): void {
    if (this.active) throw new Error('An answer is still streaming: stop it first.');
  }

  private async answer(): Promise<void> {
    const env = this.services.environments.active();
    const model = this.conversation.model ?? this.services.models.selectedChatModel(env.name);
    const message: StoredMessage = { id: newId(), role: 'assistant', text: '', createdAt: Date.now(), status: 'streaming', meta: { startedAt: Date.now(), ...(model && { model }) } };
    this.conversation.messages.push(message);
    const abort = new AbortController();
    const batcher = new AppendBatcher(message.id, (a) => {
      if (this.sink.ready) this.sink.post(hostMessage('append', { conversation: this.conversation.id, ...a }));
    });
    this.active = { message, abort, batcher };
    this.upsert(message);
    const balanceBefore = this.services.account.get(env.name).balanceCredits;
    try {
      if (!model) throw new ApiError('modelNotFound', 'No chat model is selected for this environment. Pick one to start chatting.');
      const params = effectiveParams(this.conversation, chatDefaults());
      const request: ChatRequest = { model, messages: requestMessages(this.conversation, params.systemPrompt, this.conversation.messages.length - 1) };
      if (params.temperature !== undefined) request.temperature = params.temperature;
      if (params.top_p !== undefined) request.top_p = params.top_p;
      if (params.max_tokens !== undefined) request.max_tokens = params.max_tokens;
      const client = await this.services.api.client(env.name);
      // A 429 arrives before the first event, so only opening the stream is retried.
      const { events, first } = await this.services.api.withRateLimitRetry('chat', async () => {
        const iterator = client.streamChat(request, { signal: abort.signal })[Symbol.asyncIterator]();
        return { events: iterator, first: await iterator.next() };
      }, abort.signal);
      let next = first;
      let complete = false;
      while (!next.done) {
        complete = this.onEvent(next.value, message, batcher) ?? complete;
        next = await events.next();
      }
      message.status = complete ? 'done' : 'interrupted';
    } catch (error) {
      if (abort.signal.aborted) {
        message.status = 'stopped';
      } else {
        message.status = 'error';
        message.error = await this.errorCard(error, env.name);
      }
    } finally {
      batcher.flush();
      batcher.dispose();
      this.active = undefined;
      message.meta = { ...message.meta, finishedAt: Date.now() };
      this.upsert(message);
      await this.persist();
    }
    if (message.meta?.requestId && balanceBefore !== undefined) await this.recordSpend(message, env.name, balanceBefore);
  }

  /**
   * What the answer cost, from the settled balance: a streaming response reports the balance before
   * the answer is billed (only a reserve is taken then), so both the spend and the status bar need a
   * fresh reading afterwards. The model-list call that gives it is free; if it fails, no spend is shown.
   */
  private async recordSpend(message: StoredMessage, env: string, balanceBefore: number): Promise<void> {
    if (!readSetting('inference.chat.refreshBalanceAfterAnswer')) return;
    const answeredAt = Date.now();
    try {
      await this.services.models.list('chat', env, { refresh: true });
    } catch (error) {
      this.services.log.warn(`Chat: could not read the balance after an answer: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const { balanceCredits: after, balanceAt } = this.services.account.get(env);
    // The contract promises the balance header on chat and image calls only: when the model list
    // carries none, the stored value is still the stream's pre-billing one, and no spend is shown.
    if (after === undefined || balanceAt === undefined || balanceAt < answeredAt) return;
    // A top-up or another window's spend in between can make the difference meaningless.
    if (after > balanceBefore || !this.conversation.messages.includes(message)) return;
    message.meta = { ...message.meta, creditsSpent: creditsSpent(balanceBefore, after) };
    this.upsert(message);
    await this.persist();
  }

  /** Returns `complete` for the final event, undefined otherwise. */
  private onEvent(event: ChatStreamEvent, message: StoredMessage, batcher: AppendBatcher): boolean | undefined {
    switch (event.type) {
      case 'response': {
        const { meta } = event;
        // No spend from this header: a stream's balance header leaves before the answer is billed.
        message.meta = {
          ...message.meta,
          ...(meta.modelId && { model: meta.modelId }),
          ...(meta.requestId && { requestId: meta.requestId }),
        };
        batcher.flush();
        this.upsert(message);
        return undefined;
      }
      case 'delta':
        message.text += event.text;
        batcher.push(event.text);
        this.store.saveSoon(this.touch());
        return undefined;
      case 'finish':
        message.meta = { ...message.meta, finishReason: event.reason };
        return undefined;
      case 'usage':
        return undefined;
      case 'end':
        return event.complete;
    }
  }

  private async errorCard(error: unknown, env: string): Promise<ErrorCardView> {
    const apiError = toApiError(error);
    this.services.log.error(`chat failed in ${env}: ${apiError.message}${apiError.requestId ? ` (request ${apiError.requestId})` : ''}`);
    if (apiError.kind === 'modelNotFound' && apiError.status === 404 && !this.conversation.model) await this.services.models.onModelNotFound(env);
    const actions = this.services.errors.actionsFor(apiError, true);
    if (apiError.kind === 'modelNotFound' && !actions.some((a) => a.id === 'pickModel')) actions.unshift({ id: 'pickModel', label: 'Pick Model' });
    const card: ErrorCardView = { kind: apiError.kind, message: apiError.message, actions };
    if (apiError.status !== undefined) card.status = apiError.status;
    if (apiError.requestId) card.requestId = apiError.requestId;
    return card;
  }

  upsert(message: StoredMessage): void {
    this.sink.post(hostMessage('messageUpsert', { conversation: this.conversation.id, message: messageView(message) }));
  }

  private remove(id: string): void {
    this.conversation.messages = this.conversation.messages.filter((m) => m.id !== id);
    this.sink.post(hostMessage('messageRemoved', { conversation: this.conversation.id, message: id }));
  }

  private touch(): Conversation {
    this.conversation.updatedAt = Date.now();
    return this.conversation;
  }

  persist(): Promise<void> {
    return this.store.save(this.touch());
  }

  dispose(): void {
    this.stop();
  }
}
