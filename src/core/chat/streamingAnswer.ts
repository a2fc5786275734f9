import * as l10n from '@vscode/l10n';
import type { AnswerMeta, AppendMessage } from './protocol/chatProtocol';
import { ApiError, toApiError } from '../api/errors';
import { errorFacts } from '../errorView';
import type { ChatRequest, ChatStreamEvent } from '../api/types';
import { BilledCall, type BilledSpend } from '../usage/billedCall';
import { AppendBatcher, type AppendPacing } from './appendBatcher';
import { effectiveParams, imageAttachments, imageDataUrls, newId, requestMessages, sentContext, type ComparisonColumn, type Conversation, type ConversationMessage } from './conversation';
import type { SpendConsent } from '../usage/spendConsent';
import type { BillingGroup } from '../usage/billingWindows';
import { contentText } from '../api/contentParts';
import { NUMBER_PARAMS } from '../numberParams';
import type { ChatBackend, ChatEnvironment } from './ports';

/**
 * What a continuation asks after the answer's text so far (sent as the assistant's message): the
 * model goes on from the exact point, without repeating or announcing anything, so that the two
 * read as one text.
 */
export const CONTINUE_INSTRUCTION = 'Your previous answer was cut off. Continue it exactly where it stopped, mid-word or mid-line if need be. Do not repeat anything already written and do not add any preamble.';

/**
 * The one route by which an answer reaches the view and the disk: the engine builds it for the
 * answer's conversation, and the answer talks to nothing else.
 */
export interface AnswerSink {
  /** Shows the answer's message whole (when it starts). */
  upsert(message: ConversationMessage): void;
  /** Shows text that arrived, if the view is there to take it (a new view gets a snapshot instead). */
  append(append: AppendMessage): void;
  /** Shows the fields that changed (status, meta, error) without the text. */
  patch(message: ConversationMessage): void;
  /** Saves the conversation now. */
  save(): Promise<void>;
  /** Saves the conversation soon: on every streamed delta, coalesced by the saver. */
  saveSoon(): void;
  /** The stream is over, before the final patch and save: the engine is idle again. */
  ended(): void;
  /** The bytes of one of the conversation's images, from its file. */
  readImage(file: string): Promise<Uint8Array>;
}

/**
 * Where an answer's message is: a new message of the conversation, an interrupted answer (the
 * conversation's last message) that this request continues in place, or one column of a comparison
 * (comparison/), whose message the comparison's turn holds and which answers the question before it;
 * `consent`: the comparison's, past the spending limits, asked once for all of its requests.
 */
export type AnswerPlace =
  | { kind: 'new' }
  | { kind: 'continue'; message: ConversationMessage }
  | { kind: 'column'; turn: ConversationMessage; column: ComparisonColumn; consent?: SpendConsent | undefined; group?: BillingGroup | undefined };

/**
 * One assistant answer, start to end: it is appended to the conversation, the stream's text is
 * added to it (the conversation is the truth, saved soon after every delta) and batched to the
 * view, the end becomes a patch without the text, and the spend comes only from a balance the
 * service reported after the answer.
 */
export class StreamingAnswer {
  readonly message: ConversationMessage;
  readonly #abort = new AbortController();
  readonly #batcher: AppendBatcher;
  readonly #env: ChatEnvironment;
  /** Characters of the request's messages, for the ledger (estimates from the user's own history). */
  #sentChars = 0;
  #markOpened: () => void = () => undefined;
  /** Resolves once the service answered (its response started), or the answer ended without that (failed, saved). */
  readonly opened = new Promise<void>((resolve) => (this.#markOpened = resolve));

  /** The text the answer had before this request (a continuation's): what the new request goes on from. */
  readonly #continuedFrom: string | undefined;
  /** What the answer's earlier requests cost (a continuation's): this one's is added to it. */
  readonly #earlierSpend: Pick<AnswerMeta, 'creditsSpent' | 'spendNotMeasured'> | undefined;

  readonly #place: AnswerPlace;
  readonly #conversation: Conversation;
  readonly #backend: ChatBackend;
  readonly #sink: AnswerSink;
  readonly #now: () => number;

  constructor(
    conversation: Conversation,
    backend: ChatBackend,
    sink: AnswerSink,
    now: () => number,
    appendPacing: Partial<AppendPacing>,
    place: AnswerPlace = { kind: 'new' },
  ) {
    this.#conversation = conversation;
    this.#backend = backend;
    this.#sink = sink;
    this.#now = now;
    this.#env = backend.environment();
    this.#place = place;
    const startedAt = now();
    const model = place.kind === 'column' ? place.column.model : conversation.model ?? this.#env.selectedModel;
    const continuing = place.kind === 'continue' ? place.message : undefined;
    if (place.kind === 'column') {
      // The comparison's message, filled in place; its request goes now (it may have waited for a slot).
      this.message = place.column.answer;
      this.message.status = 'streaming';
      this.message.meta = { ...this.message.meta, startedAt, model };
    } else if (continuing) {
      // The same message, in place: the conversation, the view and the history keep one answer.
      const { creditsSpent, spendNotMeasured, finishedAt: _finished, finishReason: _reason, ...meta } = continuing.meta ?? {};
      this.#continuedFrom = continuing.text;
      this.#earlierSpend = { ...(creditsSpent !== undefined && { creditsSpent }), ...(spendNotMeasured !== undefined && { spendNotMeasured }) };
      delete continuing.error;
      continuing.status = 'streaming';
      // An answer recovered from a journal written before its model was known goes on with today's.
      continuing.meta = { ...(model && { model }), ...meta, continuations: (meta.continuations ?? 0) + 1 };
      this.message = continuing;
    } else {
      this.message = { id: newId(), role: 'assistant', text: '', createdAt: startedAt, status: 'streaming', meta: { startedAt, ...(model && { model }) } };
    }
    // The webview knows which message streams (from its upsert) and which conversation it shows: an
    // append carries only its order and text.
    this.#batcher = new AppendBatcher((append) => sink.append(append), appendPacing);
  }

  /** Where the stream stands for a snapshot: the text so far goes in the snapshot, not in appends. */
  snapshotPosition(): { messageId: string; seq: number } {
    this.#batcher.discardPending();
    return { messageId: this.message.id, seq: this.#batcher.lastSeq };
  }

  stop(): void {
    this.#abort.abort();
  }

  async run(): Promise<void> {
    if (this.#place.kind === 'new') this.#conversation.messages.push(this.message);
    this.#sink.upsert(this.message);
    let call: BilledCall | undefined;
    const { consent, group } = this.#place.kind === 'column' ? this.#place : {};
    try {
      await this.#answer(async () => (call = await BilledCall.open(this.#backend, 'Chat', this.#env.name, { now: this.#now, ...(consent && { consent }), ...(group && { group }) })));
    } finally {
      // An answer that failed before its call ended: nothing was billed (nothing once ended).
      call?.notBilled();
    }
  }

  /** `openCall` refuses (throws) when a spending limit is reached: the answer is then an error card, nothing is sent. */
  async #answer(openCall: () => Promise<BilledCall>): Promise<void> {
    const { message } = this;
    const conversation = this.#conversation;
    const env = this.#env;
    let call: BilledCall | undefined;
    try {
      call = await openCall();
      const request = await this.#request();
      this.#sentChars = request.messages.reduce((sum, m) => sum + contentText(m.content).length, 0);
      const events = await this.#backend.openStream(env.name, request, this.#abort.signal);
      let complete = false;
      for await (const event of events) complete = this.#onEvent(event) ?? complete;
      message.status = complete ? 'done' : 'interrupted';
    } catch (error) {
      if (this.#abort.signal.aborted) {
        message.status = 'stopped';
      } else {
        const context = { env: env.name, usedEnvironmentModel: conversation.model === undefined };
        // Status and facts change together: while the failure is described (which may forget the
        // model), the answer is still streaming, so nothing sees an error without its card or acts on it.
        const facts = await this.#backend.describeFailure(error, context).catch(() => errorFacts(toApiError(error)));
        // Cut short after some text arrived: Interrupted, which Continue can finish from there.
        message.status = message.text ? 'interrupted' : 'error';
        message.error = facts;
      }
    } finally {
      this.#batcher.flush();
      this.#batcher.dispose();
      this.#sink.ended();
      message.meta = { ...message.meta, finishedAt: this.#now() };
      this.#sink.patch(message);
      await this.#sink.save();
      this.#markOpened();
    }
    if (!call) return;
    // Only an answer the service responded to was billed: it gets its spend, or the reason it has none.
    if (message.meta?.requestId) await this.#recordSpend(call);
    else call.notBilled();
  }

  async #request(): Promise<ChatRequest> {
    // The settings first: with them refused, picking a model would not help (and its list cannot be had).
    const refusal = this.#backend.refusal(this.#env.name);
    if (refusal !== undefined) throw new ApiError('notConfigured', refusal);
    const model = this.message.meta?.model;
    if (!model) throw new ApiError('modelNotFound', l10n.t('No chat model is selected for this environment. Pick one to start chatting.'));
    const params = effectiveParams(this.#conversation, this.#backend.chatDefaults(model));
    // The messages before the answer: a comparison's columns all answer the question before their turn.
    const asked = this.#place.kind === 'column' ? this.#conversation.messages.indexOf(this.#place.turn) : this.#conversation.messages.length - 1;
    const imageUrls = await imageDataUrls(imageAttachments(this.#conversation.messages.slice(0, asked)), (file) => this.#sink.readImage(file));
    const messages = requestMessages(this.#conversation, params.systemPrompt, asked, imageUrls);
    if (this.#continuedFrom !== undefined) messages.push({ role: 'assistant', content: this.#continuedFrom }, { role: 'user', content: CONTINUE_INSTRUCTION });
    const request: ChatRequest = { model, messages };
    const context = sentContext(this.#conversation, asked);
    if (context.length && this.message.meta) this.message.meta.context = context;
    for (const { wire } of NUMBER_PARAMS) if (params[wire] !== undefined) request[wire] = params[wire];
    if (params.service_parameters) request.service_parameters = params.service_parameters;
    return request;
  }

  /** Returns `complete` for the final event, undefined otherwise. */
  #onEvent(event: ChatStreamEvent): boolean | undefined {
    const { message } = this;
    switch (event.type) {
      case 'response': {
        const { meta } = event;
        // No spend from this header: a stream's balance header leaves before the answer is billed.
        message.meta = { ...message.meta, ...(meta.modelId && { model: meta.modelId }), ...(meta.requestId && { requestId: meta.requestId }), ...(meta.host && { host: meta.host }) };
        this.#batcher.flush();
        this.#sink.patch(message);
        this.#markOpened();
        return undefined;
      }
      case 'reasoning':
        message.reasoning = (message.reasoning ?? '') + event.text;
        this.#batcher.push(event.text, true);
        this.#sink.saveSoon();
        return undefined;
      case 'delta':
        if (message.meta?.firstDeltaAt === undefined) message.meta = { ...message.meta, firstDeltaAt: this.#now() };
        message.text += event.text;
        this.#batcher.push(event.text);
        this.#sink.saveSoon();
        return undefined;
      case 'finish':
        message.meta = { ...message.meta, finishReason: event.reason };
        return undefined;
      case 'usage':
        message.meta = { ...message.meta, usage: { ...event.usage } };
        return undefined;
      case 'end':
        return event.complete;
    }
  }

  /**
   * What the answer cost, from the settled balance: a streaming response reports the balance before
   * the answer is billed (only a reserve is taken then), so the spend needs a reading taken after it.
   * Overlapped: the reading settled the balance shown, but another call of this wallet billed in
   * between is in the difference too. Not measured is said too, so that the conversation's total does
   * not look complete (protocol/conversationSpend.ts). An answer taken out of the conversation
   * meanwhile is in the ledger all the same: it was billed.
   */
  async #recordSpend(call: BilledCall): Promise<void> {
    const record = {
      requestId: this.message.meta?.requestId ?? '', model: this.message.meta?.model ?? '', environment: this.#env.name, kind: 'chat' as const, chars: { in: this.#sentChars, out: this.message.text.length },
      // The usage view groups a comparison's requests by its turn.
      ...(this.#place.kind === 'column' && { comparison: this.#place.turn.id }),
    };
    const spend = await call.billedStream(record);
    if (!this.#conversation.messages.includes(this.#place.kind === 'column' ? this.#place.turn : this.message)) return;
    const { creditsSpent: _credits, spendNotMeasured: _unmeasured, ...meta } = this.message.meta ?? {};
    this.message.meta = { ...meta, ...answerSpendShown(spend, this.#earlierSpend) };
    this.#sink.patch(this.message);
    await this.#sink.save();
  }
}

/**
 * The spend an answer shows: its request's, plus, for a continued answer, what its earlier requests
 * cost (the ledger has each on its own); not measured as soon as one of them was not.
 */
export function answerSpendShown(spend: BilledSpend, earlier: Pick<AnswerMeta, 'creditsSpent' | 'spendNotMeasured'> | undefined): Pick<AnswerMeta, 'creditsSpent' | 'spendNotMeasured'> {
  if ('credits' in spend && (!earlier || earlier.creditsSpent !== undefined)) return { creditsSpent: spend.credits + (earlier?.creditsSpent ?? 0) };
  return { spendNotMeasured: 'credits' in spend ? earlier?.spendNotMeasured ?? 'noReading' : spend.notMeasured };
}
