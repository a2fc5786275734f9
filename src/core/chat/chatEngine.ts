import * as l10n from '@vscode/l10n';
import { appendMessage, hostMessage, type AttachmentView, type ChatParams, type SnapshotMessage } from './protocol/chatProtocol';
import type { ErrorFacts } from '../errorView';
import { DEFAULT_TITLE, imageAttachments, newId, titleFrom, type Attachment, type Conversation, type ConversationMessage, type ImageAttachment } from './conversation';
import { answerErrorFacts, canContinue, conversationView } from './conversationView';
import type { ChatImageMime } from './chatImages';
import { attachedImageBytes, refusalOfContent } from './imageTurns';
import { PendingAttachments } from './pendingAttachments';
import { sanitizeParams } from './params';
import type { ChatBackend, ChatEngineOptions, ChatView, ConversationSaver } from './ports';
import { StreamingAnswer, type AnswerSink } from './streamingAnswer';
import { chooseColumn, estimateComparison, startComparison, type ComparisonEngineSide } from './comparison/comparisonEngine';
import { ComparisonRun } from './comparison/comparisonRun';
import type { ComparisonEstimate } from './comparison/comparisonSpend';
import { environmentView, headerChanged, messagePatched, messageRemoved, messageUpserted } from './viewMessages';

/**
 * One conversation shown in one view, and its answer in flight: the chat's state machine, free of
 * VS Code. Idle → (send | regenerate | editLast) → streaming → (done | stopped | error | interrupted)
 * → idle. Edits that would change the conversation under a streaming answer are refused; a rename
 * or new parameters are not edits of the messages and are allowed at any time.
 */
export class ChatEngine {
  #active: StreamingAnswer | ComparisonRun | undefined;
  #running: Promise<void> = Promise.resolve();
  /** The key's requests per minute, as the last comparison's responses reported it. */
  #rateLimitRequests: number | undefined;
  readonly #pending: PendingAttachments;
  readonly #now: () => number;

  #current: Conversation;
  readonly #view: ChatView;
  readonly #saver: ConversationSaver;
  readonly #backend: ChatBackend;
  readonly #options: ChatEngineOptions;

  constructor(
    current: Conversation,
    view: ChatView,
    saver: ConversationSaver,
    backend: ChatBackend,
    options: ChatEngineOptions = {},
  ) {
    this.#current = current;
    this.#view = view;
    this.#saver = saver;
    this.#backend = backend;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#pending = new PendingAttachments((conversationId, files) => void saver.forgetImages(conversationId, files));
  }

  get conversation(): Conversation {
    return this.#current;
  }

  get streaming(): boolean {
    return this.#active !== undefined;
  }

  /** Resolves when the answer in flight (if any) has ended, with its spend, and been saved. */
  whenIdle(): Promise<void> {
    return this.#running;
  }

  /** Shows another conversation; refused while an answer streams. */
  load(conversation: Conversation): void {
    this.#assertIdle();
    const previous = this.#current;
    this.#current = conversation;
    this.#pending.discard(previous);
    this.#view.showTitle(this.#current.title);
    this.#view.post(this.snapshot());
  }

  /** Shows the whole conversation again (a view that was reloaded, or asks for it), if the view is there. */
  showSnapshot(): void {
    if (this.#view.ready) this.#view.post(this.snapshot());
  }

  snapshot(): SnapshotMessage {
    return hostMessage('snapshot', {
      conversation: conversationView(this.#current),
      attachments: this.attachmentViews(),
      environment: environmentView(this.#backend, this.#current),
      ...(this.#active instanceof StreamingAnswer && { streaming: this.#active.snapshotPosition() }),
      ...(this.#active instanceof ComparisonRun && { streamingColumns: { turnId: this.#active.turn.id, columns: this.#active.snapshotPositions() } }),
    });
  }

  /** Header, title, model or the environment changed. */
  announceHeader(): void {
    this.#view.showTitle(this.#current.title);
    this.#view.post(headerChanged(this.#backend, this.#current));
  }

  /**
   * Sends a question with the pending attachments. Its images are written beside the conversation
   * first; a failure to write them, or the service refusing the request (a 4xx before any answer,
   * as a model that takes no images answers), rejects: the question and its chips stay in the composer.
   */
  async send(text: string): Promise<{ attachments: AttachmentView[] }> {
    const { message, images, title } = await this.#ask(text);
    const answer = this.#answer();
    if (images.length) await this.#takeBackIfRefused(message, answer, title);
    return { attachments: [] };
  }

  /** Adds the question with the pending attachments (their images written first) and saves it. */
  async #ask(text: string): Promise<{ message: ConversationMessage; images: ImageAttachment[]; title: string }> {
    this.#assertIdle();
    await this.#followOtherWindows();
    this.#assertIdle();
    const images = this.#pending.images();
    const conversation = this.#current;
    await this.#saver.writeImages(conversation.id, images.map((a) => a.image));
    this.#assertIdle();
    if (conversation !== this.#current) throw new Error(l10n.t('The conversation changed before the message was sent.'));
    const message: ConversationMessage = { id: newId(), role: 'user', text, createdAt: this.#now() };
    const attachments = this.#pending.take();
    if (attachments.length) message.attachments = attachments;
    this.#current.messages.push(message);
    const title = this.#current.title;
    if (this.#current.title === DEFAULT_TITLE) {
      this.#current.title = titleFrom(text);
      this.announceHeader();
    }
    this.#upsert(message);
    await this.persist();
    return { message, images, title };
  }

  /** What asking `models` the question `text` (with the pending context) would cost, model by model: the composer's figures. */
  comparisonEstimate(models: readonly string[], text: string): ComparisonEstimate {
    return estimateComparison(this.#comparisonSide(), models, text);
  }

  /** Asks 2–4 models the question at once, side by side (comparison/comparisonEngine.ts). */
  async compare(text: string, models: readonly string[]): Promise<{ attachments: AttachmentView[] }> {
    this.#assertIdle();
    const { run, done } = await startComparison(this.#comparisonSide(), text, models);
    this.#active = run;
    this.#running = done.finally(() => { this.#rateLimitRequests = run.rateLimitRequests; });
    return { attachments: [] };
  }

  /** Stops one column of the comparison in flight (Stop on its column); the others go on. */
  stopColumn(columnId: string): void {
    if (this.#active instanceof ComparisonRun) this.#active.stopColumn(columnId);
  }

  /** Continue with this answer (comparisonEngine.ts chooseColumn): the conversation goes on with that column. */
  async continueWith(turnId: string, columnId: string): Promise<void> {
    this.#assertIdle();
    this.#upsert(chooseColumn(this.#current, turnId, columnId));
    this.announceHeader();
    await this.persist();
  }

  /** What a comparison takes of the engine. */
  #comparisonSide(): ComparisonEngineSide {
    return {
      conversation: this.#current,
      view: this.#view,
      backend: this.#backend,
      now: this.#now,
      appendPacing: this.#options.appendPacing ?? {},
      pending: () => this.#pending.all(),
      ask: (text) => this.#ask(text),
      rateLimitRequests: () => this.#rateLimitRequests,
      save: (conversation) => this.#save(conversation),
      saveSoon: (conversation) => this.#saver.saveSoon(this.#touched(conversation)),
      ended: () => { this.#active = undefined; },
      readImage: (conversation, file) => this.#saver.readImage(conversation.id, file),
    };
  }

  /**
   * Turns another window added to this conversation since this one last saved it (one folder open in
   * two windows): shown here, and the next question's context, as the file has them (issue 37).
   */
  async #followOtherWindows(): Promise<void> {
    const shown = this.#current;
    const saved = await this.#saver.changedElsewhere(shown.id);
    if (!saved || shown !== this.#current || this.#active || !saved.take()) return;
    this.#current = saved.conversation;
    this.#view.showTitle(this.#current.title);
    this.#view.post(this.snapshot());
  }

  /** A request the service refused as such (a model that takes no images): the turn goes back to the composer. */
  async #takeBackIfRefused(question: ConversationMessage, answer: StreamingAnswer, title: string): Promise<void> {
    await answer.opened;
    const refusal = refusalOfContent(answer.message);
    if (!refusal) return;
    await this.#running;
    this.#remove(answer.message.id);
    this.#remove(question.id);
    this.#pending.restore(question.attachments ?? []);
    if (this.#current.title !== title) {
      this.#current.title = title;
      this.announceHeader();
    }
    await this.persist();
    throw new Error(l10n.t('The model {0} refused the message with its images: {1}', refusal.model, refusal.message));
  }

  async regenerate(): Promise<void> {
    this.#assertIdle();
    const last = this.#current.messages.at(-1);
    if (last?.role === 'assistant') this.#remove(last.id);
    if (this.#current.messages.at(-1)?.role !== 'user') throw new Error(l10n.t('There is no question to answer again.'));
    await this.persist();
    this.#answer();
  }

  /**
   * Asks the model to go on from where an answer cut short stopped (Continue on its card): one
   * request, whose text is appended to the same answer and whose spend is added to it.
   */
  async continueAnswer(messageId: string): Promise<void> {
    this.#assertIdle();
    const last = this.#current.messages.at(-1);
    if (!last || last.id !== messageId || !canContinue(last)) throw new Error(l10n.t('Only the last answer, cut short after some of its text arrived, can be continued.'));
    this.#answer(last);
  }

  /** Replaces the last user message and drops what came after it, then answers again. */
  async editLast(text: string): Promise<{ attachments: AttachmentView[] }> {
    this.#assertIdle();
    const index = this.#current.messages.findLastIndex((m) => m.role === 'user');
    if (index < 0) return this.send(text);
    for (const later of this.#current.messages.slice(index + 1)) this.#remove(later.id);
    const message = this.#current.messages[index];
    message.text = text;
    this.#upsert(message);
    await this.persist();
    this.#answer();
    return { attachments: this.attachmentViews() };
  }

  stop(): void {
    this.#active?.stop();
  }

  rename(title: string): Promise<void> {
    this.#current.title = title.trim() || DEFAULT_TITLE;
    this.announceHeader();
    return this.persist();
  }

  /** The conversation's own model; undefined goes back to the environment's selection. */
  async setModel(model: string | undefined): Promise<void> {
    if (model === undefined) delete this.#current.model;
    else this.#current.model = model;
    this.announceHeader();
    await this.persist();
  }

  setParams(raw: { [K in keyof ChatParams]?: unknown }): Promise<void> {
    this.#current.params = sanitizeParams(raw);
    this.announceHeader();
    return this.persist();
  }

  /** Adds context for the next message (attaching the same again replaces its chip: pendingAttachments.ts). */
  attach(attachment: Attachment): AttachmentView[] {
    this.#pending.add(attachment);
    return this.attachmentViews();
  }

  removeAttachment(id: string): AttachmentView[] {
    this.#pending.remove(id, this.#current);
    return this.attachmentViews();
  }

  /** The bytes of an image attached to the next message or to one of the conversation's, for its thumbnail. */
  imageBytes(id: string): Promise<{ mime: ChatImageMime; data: Uint8Array }> {
    return attachedImageBytes(id, [...this.#pending.images(), ...imageAttachments(this.#current.messages)], (file) => this.#saver.readImage(this.#current.id, file));
  }

  /** The error an answer keeps, for its card's actions. */
  errorOf(messageId: string): ErrorFacts | undefined {
    const message = this.#current.messages.find((m) => m.id === messageId)
      ?? this.#current.messages.flatMap((m) => m.comparison?.columns.map((c) => c.answer) ?? []).find((answer) => answer.id === messageId);
    return message && answerErrorFacts(message);
  }

  isLastMessage(messageId: string): boolean {
    return this.#current.messages.at(-1)?.id === messageId;
  }

  persist(): Promise<void> {
    return this.#save(this.#current);
  }

  /** Follows what other windows saved in this conversation, unless an answer streams here (the host asks every few seconds). */
  async followSaved(): Promise<void> {
    if (!this.#active) await this.#followOtherWindows();
  }

  #save(conversation: Conversation): Promise<void> {
    return this.#saver.save(this.#touched(conversation));
  }

  /** Stops the answer in flight and waits until what it received is saved. */
  async dispose(): Promise<void> {
    this.stop();
    await this.#running;
    // The composer's chips end with the session (they are not kept across a reload).
    this.#pending.discard(this.#current);
  }

  #answer(continuing?: ConversationMessage): StreamingAnswer {
    const place = continuing ? { kind: 'continue' as const, message: continuing } : { kind: 'new' as const };
    const answer = new StreamingAnswer(this.#current, this.#backend, this.#sinkFor(this.#current), this.#now, this.#options.appendPacing ?? {}, place);
    this.#active = answer;
    this.#running = answer.run();
    return answer;
  }

  /**
   * Where one answer's messages go. It keeps the answer's conversation: the spend is patched and
   * saved after the engine is idle again, when another conversation may be shown.
   */
  #sinkFor(conversation: Conversation): AnswerSink {
    return {
      upsert: (message) => this.#upsert(message, conversation),
      append: (append) => {
        if (this.#view.ready) this.#view.post(appendMessage(append));
      },
      patch: (message) => this.#view.post(messagePatched(conversation, message)),
      save: () => this.#save(conversation),
      saveSoon: () => this.#saver.saveSoon(this.#touched(conversation)),
      ended: () => {
        this.#active = undefined;
      },
      readImage: (file) => this.#saver.readImage(conversation.id, file),
    };
  }

  #touched(conversation: Conversation): Conversation {
    conversation.updatedAt = this.#now();
    return conversation;
  }

  /** The chips of the context the next message will carry. */
  attachmentViews(): AttachmentView[] {
    return this.#pending.views();
  }

  #assertIdle(): void {
    if (this.#active) throw new Error(l10n.t('An answer is still streaming: stop it first.'));
  }

  #upsert(message: ConversationMessage, conversation = this.#current): void {
    this.#view.post(messageUpserted(conversation, message));
  }

  #remove(id: string): void {
    this.#current.messages = this.#current.messages.filter((m) => m.id !== id);
    this.#view.post(messageRemoved(this.#current, id));
  }
}
