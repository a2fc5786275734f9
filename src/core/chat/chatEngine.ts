import * as l10n from '@vscode/l10n';
import {
  appendMessage, hostMessage, type AttachmentView, type ChatEnvironmentView, type ChatParams, type SnapshotMessage,
} from './chatProtocol';
import type { ErrorFacts } from '../errorView';
import { DEFAULT_TITLE, imageAttachments, newId, titleFrom, type Attachment, type Conversation, type ConversationMessage } from './conversation';
import { conversationHeader, conversationView, messageView } from './conversationView';
import type { ChatImageMime } from './chatImages';
import { PendingAttachments } from './pendingAttachments';
import { sanitizeParams } from './params';
import type { AppendPacing } from './appendBatcher';
import type { ChatBackend, ChatEngineOptions, ChatView, ConversationSaver } from './ports';
import { StreamingAnswer, type AnswerSink } from './streamingAnswer';

/** Statuses that refuse the request as sent (its content), not the caller or the moment: the turn is taken back. */
const REFUSED_REQUEST_STATUSES: ReadonlySet<number> = new Set([400, 413, 415, 422]);

/**
 * One conversation shown in one view, and its answer in flight: the chat's state machine, free of
 * VS Code. Idle → (send | regenerate | editLast) → streaming → (done | stopped | error | interrupted)
 * → idle. Edits that would change the conversation under a streaming answer are refused; a rename
 * or new parameters are not edits of the messages and are allowed at any time.
 */
export class ChatEngine {
  private current: Conversation;
  private active: StreamingAnswer | undefined;
  private running: Promise<void> = Promise.resolve();
  private readonly pending = new PendingAttachments();
  private readonly now: () => number;
  private readonly appendPacing: Partial<AppendPacing>;

  constructor(
    conversation: Conversation,
    private readonly view: ChatView,
    private readonly saver: ConversationSaver,
    private readonly backend: ChatBackend,
    options: ChatEngineOptions = {},
  ) {
    this.current = conversation;
    this.now = options.now ?? Date.now;
    this.appendPacing = options.appendPacing ?? {};
  }

  get conversation(): Conversation {
    return this.current;
  }

  get streaming(): boolean {
    return this.active !== undefined;
  }

  /** Resolves when the answer in flight (if any) has ended, with its spend, and been saved. */
  whenIdle(): Promise<void> {
    return this.running;
  }

  /** Shows another conversation; refused while an answer streams. */
  load(conversation: Conversation): void {
    this.assertIdle();
    this.current = conversation;
    this.pending.take();
    this.view.showTitle(this.current.title);
    this.view.post(this.snapshot());
  }

  /** Shows the whole conversation again (a view that was reloaded, or asks for it), if the view is there. */
  showSnapshot(): void {
    if (this.view.ready) this.view.post(this.snapshot());
  }

  environmentView(): ChatEnvironmentView {
    const env = this.backend.environment();
    const effectiveModel = this.current.model ?? env.selectedModel;
    const estimate = effectiveModel ? this.backend.estimate(effectiveModel) : undefined;
    return { environmentLabel: env.label, defaults: this.backend.chatDefaults(effectiveModel), ...(effectiveModel && { effectiveModel }), ...(estimate && { estimate }) };
  }

  snapshot(): SnapshotMessage {
    return hostMessage('snapshot', {
      conversation: conversationView(this.current),
      attachments: this.attachmentViews(),
      environment: this.environmentView(),
      ...(this.active && { streaming: this.active.snapshotPosition() }),
    });
  }

  /** Header, title, model or the environment changed. */
  announceHeader(): void {
    this.view.showTitle(this.current.title);
    this.view.post(hostMessage('conversationChanged', { conversation: conversationHeader(this.current), environment: this.environmentView() }));
  }

  /**
   * Sends a question with the pending attachments. Its images are written beside the conversation
   * first; a failure to write them, or the service refusing the request (a 4xx before any answer,
   * as a model that takes no images answers), rejects: the question and its chips stay in the composer.
   */
  async send(text: string): Promise<{ attachments: AttachmentView[] }> {
    this.assertIdle();
    const images = this.pending.images();
    const conversation = this.current;
    await this.saver.writeImages(conversation.id, images.map((a) => a.image));
    this.assertIdle();
    if (conversation !== this.current) throw new Error(l10n.t('The conversation changed before the message was sent.'));
    const message: ConversationMessage = { id: newId(), role: 'user', text, createdAt: this.now() };
    const attachments = this.pending.take();
    if (attachments.length) message.attachments = attachments;
    this.current.messages.push(message);
    const title = this.current.title;
    if (this.current.title === DEFAULT_TITLE) {
      this.current.title = titleFrom(text);
      this.announceHeader();
    }
    this.upsert(message);
    await this.persist();
    const answer = this.answer();
    if (images.length) await this.takeBackIfRefused(message, answer, title);
    return { attachments: [] };
  }

  /** A request the service refused as such (a model that takes no images): the turn goes back to the composer. */
  private async takeBackIfRefused(question: ConversationMessage, answer: StreamingAnswer, title: string): Promise<void> {
    await answer.opened;
    const { status, error, meta } = answer.message;
    if (status !== 'error' || error?.status === undefined || !REFUSED_REQUEST_STATUSES.has(error.status)) return;
    await this.running;
    this.remove(answer.message.id);
    this.remove(question.id);
    this.pending.restore(question.attachments ?? []);
    if (this.current.title !== title) {
      this.current.title = title;
      this.announceHeader();
    }
    await this.persist();
    throw new Error(l10n.t('The model {0} refused the message with its images: {1}', meta?.model ?? '?', error.message));
  }

  async regenerate(): Promise<void> {
    this.assertIdle();
    const last = this.current.messages.at(-1);
    if (last?.role === 'assistant') this.remove(last.id);
    if (this.current.messages.at(-1)?.role !== 'user') throw new Error(l10n.t('There is no question to answer again.'));
    await this.persist();
    this.answer();
  }

  /** Replaces the last user message and drops what came after it, then answers again. */
  async editLast(text: string): Promise<{ attachments: AttachmentView[] }> {
    this.assertIdle();
    const index = this.current.messages.findLastIndex((m) => m.role === 'user');
    if (index < 0) return this.send(text);
    for (const later of this.current.messages.slice(index + 1)) this.remove(later.id);
    const message = this.current.messages[index];
    message.text = text;
    this.upsert(message);
    await this.persist();
    this.answer();
    return { attachments: this.attachmentViews() };
  }

  stop(): void {
    this.active?.stop();
  }

  rename(title: string): Promise<void> {
    this.current.title = title.trim() || DEFAULT_TITLE;
    this.announceHeader();
    return this.persist();
  }

  /** The conversation's own model; undefined goes back to the environment's selection. */
  async setModel(model: string | undefined): Promise<void> {
    if (model === undefined) delete this.current.model;
    else this.current.model = model;
    this.announceHeader();
    await this.persist();
  }

  setParams(raw: { [K in keyof ChatParams]?: unknown }): Promise<void> {
    this.current.params = sanitizeParams(raw);
    this.announceHeader();
    return this.persist();
  }

  /** Adds context for the next message (attaching the same again replaces its chip: pendingAttachments.ts). */
  attach(attachment: Attachment): AttachmentView[] {
    this.pending.add(attachment);
    return this.attachmentViews();
  }

  removeAttachment(id: string): AttachmentView[] {
    this.pending.remove(id);
    return this.attachmentViews();
  }

  /** The bytes of an image attached to the next message or to one of the conversation's, for its thumbnail. */
  async imageBytes(id: string): Promise<{ mime: ChatImageMime; data: Uint8Array }> {
    const found = [...this.pending.images(), ...imageAttachments(this.current.messages)].find((a) => a.id === id);
    if (!found) throw new Error(l10n.t('That image is no longer attached.'));
    return { mime: found.image.mime, data: found.image.data ?? (await this.saver.readImage(this.current.id, found.image.file)) };
  }

  /** The error an answer keeps, for its card's actions. */
  errorOf(messageId: string): ErrorFacts | undefined {
    return this.current.messages.find((m) => m.id === messageId)?.error;
  }

  isLastMessage(messageId: string): boolean {
    return this.current.messages.at(-1)?.id === messageId;
  }

  persist(): Promise<void> {
    return this.saver.save(this.touched(this.current));
  }

  /** Stops the answer in flight and waits until what it received is saved. */
  async dispose(): Promise<void> {
    this.stop();
    await this.running;
  }

  private answer(): StreamingAnswer {
    const answer = new StreamingAnswer(this.current, this.backend, this.sinkFor(this.current), this.now, this.appendPacing);
    this.active = answer;
    this.running = answer.run();
    return answer;
  }

  /**
   * Where one answer's messages go. It keeps the answer's conversation: the spend is patched and
   * saved after the engine is idle again, when another conversation may be shown.
   */
  private sinkFor(conversation: Conversation): AnswerSink {
    return {
      upsert: (message) => this.upsert(message, conversation),
      append: (append) => {
        if (this.view.ready) this.view.post(appendMessage(append));
      },
      patch: (message) => this.patch(message, conversation),
      save: () => this.saver.save(this.touched(conversation)),
      saveSoon: () => this.saver.saveSoon(this.touched(conversation)),
      ended: () => {
        this.active = undefined;
      },
      readImage: (file) => this.saver.readImage(conversation.id, file),
    };
  }

  private touched(conversation: Conversation): Conversation {
    conversation.updatedAt = this.now();
    return conversation;
  }

  /** The chips of the context the next message will carry. */
  attachmentViews(): AttachmentView[] {
    return this.pending.views();
  }

  private assertIdle(): void {
    if (this.active) throw new Error(l10n.t('An answer is still streaming: stop it first.'));
  }

  private upsert(message: ConversationMessage, conversation = this.current): void {
    this.view.post(hostMessage('messageUpsert', { conversationId: conversation.id, message: messageView(message) }));
  }

  /** The end-of-answer fields, without the text the view already has from the appends. */
  private patch(message: ConversationMessage, conversation: Conversation): void {
    const { status, meta, error } = messageView(message);
    this.view.post(hostMessage('messagePatch', {
      conversationId: conversation.id, messageId: message.id, ...(status && { status }), ...(meta && { meta }), ...(error && { error }),
    }));
  }

  private remove(id: string): void {
    this.current.messages = this.current.messages.filter((m) => m.id !== id);
    this.view.post(hostMessage('messageRemoved', { conversationId: this.current.id, messageId: id }));
  }
}
