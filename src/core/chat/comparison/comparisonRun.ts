import * as l10n from '@vscode/l10n';
import type { AppendMessage } from '../protocol/chatProtocol';
import { isApiError } from '../../api/errors';
import { withRateLimitRetry } from '../../api/rateLimitRetry';
import type { ChatRequest, ChatStreamEvent } from '../../api/types';
import type { SpendConsent } from '../../usage/spendConsent';
import { answerSpend, type BalanceReading } from '../../usage/answerSpend';
import type { BillingGroup } from '../../usage/billingWindows';
import type { SpendNotMeasured } from '../../usage/ledger';
import { roundCredits } from '../../credits';
import type { AppendPacing } from '../appendBatcher';
import type { ComparisonColumn, Conversation, ConversationMessage } from '../conversation';
import type { ChatBackend, ChatEnvironment, ComparisonBackend } from '../ports';
import { StreamingAnswer, type AnswerSink } from '../streamingAnswer';
import { newComparisonTurn } from './comparisonTurn';
import { concurrentRequestsFor, RequestSlots, type Slot } from './requestSlots';

/**
 * Where a comparison's messages go (the engine builds it, as it builds a single answer's AnswerSink):
 * its turn when it starts and ends, and each column's text and changes, named by the column's id.
 */
export interface ComparisonSink {
  /** Shows the turn whole (when it starts). */
  upsert(turn: ConversationMessage): void;
  /** Text of one column arrived. */
  append(turn: ConversationMessage, columnId: string, append: AppendMessage): void;
  /** A column's status, meta or error changed (without its text). */
  patchColumn(turn: ConversationMessage, column: ComparisonColumn): void;
  /** The turn's own status changed (every column ended). */
  patch(turn: ConversationMessage): void;
  save(): Promise<void>;
  saveSoon(): void;
  /** Every column's stream is over, before the spends are read: the engine is idle again. */
  ended(): void;
  readImage(file: string): Promise<Uint8Array>;
}

export interface ComparisonRunOptions {
  now: () => number;
  appendPacing: Partial<AppendPacing>;
  /** The user's consent past the spending limits, given once for all the columns (comparisonSpend.ts). */
  consent?: SpendConsent | undefined;
  /** The key's requests per minute, if a response already told it: how many columns stream at once. */
  rateLimitRequests?: number | undefined;
  /**
   * One column at a time (`inference.chat.comparison.measureEachModel`): no column's call overlaps
   * another's, so each column's credits are measured; the others wait, shown side by side all the same.
   */
  oneAtATime?: boolean;
}

/** One column's run: its stop, and its answer once its request has a slot. */
interface ColumnRun {
  column: ComparisonColumn;
  readonly abort: AbortController;
  answer?: StreamingAnswer;
}

/**
 * One question asked of several models at once. Each column is a single answer (StreamingAnswer,
 * placed in the column): its own billed call, metered on its own, its own error card, its own stop.
 * At most a few stream at once (requestSlots.ts), the rest wait in the order picked; a column that
 * is answered 429 gives up its slot while it waits out the Retry-After as a single answer would,
 * then queues again, so the others go on meanwhile. The environment is the one of the start, for
 * every column, whatever the user switches to meanwhile.
 */
export class ComparisonRun {
  readonly turn: ConversationMessage;
  readonly #columns: ColumnRun[];
  readonly #slots: RequestSlots;
  readonly #env: ChatEnvironment;
  #rateLimitRequests: number | undefined;
  #streaming: number;
  /** The calls of the columns, measured together (billingWindows.ts BillingGroup); set once run() opened it. */
  #group: BillingGroup | undefined;
  /** The latest settled balance a column read, and when the last column's stream ended. */
  #lastReading: BalanceReading | undefined;
  #endedAt = 0;

  readonly #conversation: Conversation;
  readonly #backend: ComparisonBackend;
  readonly #sink: ComparisonSink;
  readonly #options: ComparisonRunOptions;

  constructor(conversation: Conversation, backend: ComparisonBackend, sink: ComparisonSink, models: readonly string[], options: ComparisonRunOptions) {
    this.#conversation = conversation;
    this.#backend = backend;
    this.#sink = sink;
    this.#options = options;
    this.#env = backend.environment();
    this.turn = newComparisonTurn(models, options.now());
    this.#columns = (this.turn.comparison?.columns ?? []).map((column) => ({ column, abort: new AbortController() }));
    this.#streaming = this.#columns.length;
    this.#rateLimitRequests = options.rateLimitRequests;
    this.#slots = new RequestSlots(this.#concurrencyFor(options.rateLimitRequests));
  }

  #concurrencyFor(requestsPerMinute: number | undefined): number {
    return this.#options.oneAtATime ? 1 : concurrentRequestsFor(requestsPerMinute, this.#columns.length);
  }

  /** The key's requests per minute as the latest response reported it: the next comparison starts from it. */
  get rateLimitRequests(): number | undefined {
    return this.#rateLimitRequests;
  }

  /** How many columns may stream at once now. */
  get concurrency(): number {
    return this.#slots.limit;
  }

  get streaming(): boolean {
    return this.#streaming > 0;
  }

  /**
   * Adds the turn to the conversation and runs every column; resolves once each has ended, its spend
   * is in, and the comparison's own: the balance before its first request, the settled one after its last.
   */
  async run(): Promise<void> {
    this.#conversation.messages.push(this.turn);
    this.#sink.upsert(this.turn);
    await this.#sink.save();
    const env = this.#env.name;
    const group = (this.#group = await this.#backend.openBillingGroup(env));
    const before = this.#backend.balance(env);
    try {
      await Promise.all(this.#columns.map((run) => this.#runColumn(run)));
      await this.#measureWhole(group, before);
    } finally {
      group.close();
    }
    await this.#sink.save();
  }

  /**
   * What the comparison cost as a whole: its columns ran beside one another, so their calls are not
   * measured each (unless one at a time), but together they are, when no other call of the wallet was
   * in flight meanwhile. Failing that, the sum of its columns when each of them was measured.
   */
  async #measureWhole(group: BillingGroup, before: number | undefined): Promise<void> {
    const answers = this.#columns.map(({ column }) => column.answer);
    const billed = answers.filter((answer) => answer.meta?.requestId !== undefined);
    if (!billed.length || !this.#conversation.messages.includes(this.turn)) return;
    let reading = this.#lastReading;
    if (before !== undefined && !group.overlapped && (!reading || reading.at < this.#endedAt)) reading = await this.#backend.readSettledBalance(this.#env.name).catch(() => undefined);
    const whole = group.overlapped || before === undefined ? undefined : answerSpend(before, reading, this.#endedAt);
    const alone = roundCredits(billed.reduce((sum, answer) => sum + (answer.meta?.creditsSpent ?? 0), 0));
    const unmeasured = billed.some((answer) => answer.meta?.creditsSpent === undefined);
    // The ledger counts the whole in place of the columns that had no spend of their own.
    if (whole !== undefined && unmeasured && whole >= alone) {
      this.#backend.recordMeasuredTogether({ environment: this.#env.name, comparison: this.turn.id, credits: roundCredits(whole - alone) });
    }
    const credits = whole ?? (unmeasured ? undefined : alone);
    const { creditsSpent: _credits, spendNotMeasured: _unmeasured, ...meta } = this.turn.meta ?? {};
    const notMeasured: SpendNotMeasured = group.overlapped ? 'overlapped' : 'noReading';
    this.turn.meta = { ...meta, ...(credits !== undefined ? { creditsSpent: credits } : { spendNotMeasured: notMeasured }) };
    this.#sink.patch(this.turn);
  }

  stop(): void {
    for (const run of this.#columns) this.#stopRun(run);
  }

  /** Stops one column; false when the comparison has no such column. */
  stopColumn(columnId: string): boolean {
    const run = this.#columns.find((r) => r.column.answer.id === columnId);
    if (run) this.#stopRun(run);
    return run !== undefined;
  }

  /** Where each streaming column stands for a snapshot (its text so far is in the snapshot). */
  snapshotPositions(): { columnId: string; seq: number }[] {
    return this.#columns.flatMap(({ answer }) => (answer?.message.status === 'streaming' ? [answer.snapshotPosition()] : []))
      .map(({ messageId, seq }) => ({ columnId: messageId, seq }));
  }

  #stopRun(run: ColumnRun): void {
    run.abort.abort();
    run.answer?.stop();
  }

  async #runColumn(run: ColumnRun): Promise<void> {
    const slot = await this.#slots.acquire(run.abort.signal).catch(() => undefined);
    if (!slot || run.abort.signal.aborted) {
      slot?.release();
      this.#stoppedWaiting(run.column);
      return;
    }
    const answer = new StreamingAnswer(this.#conversation, this.#columnBackend(run.column, slot), this.#columnSink(run.column, slot), this.#options.now, this.#options.appendPacing, {
      kind: 'column', turn: this.turn, column: run.column, consent: this.#options.consent, group: this.#group,
    });
    run.answer = answer;
    try {
      await answer.run();
    } finally {
      slot.release();
    }
  }

  /** Stopped while it waited for a slot: nothing was sent, nothing billed. */
  #stoppedWaiting(column: ComparisonColumn): void {
    column.answer.status = 'stopped';
    column.answer.meta = { ...column.answer.meta, finishedAt: this.#options.now() };
    this.#sink.patchColumn(this.turn, column);
    this.#columnEnded();
  }

  #columnEnded(): void {
    if (--this.#streaming > 0) return;
    this.turn.status = 'done';
    this.#endedAt = this.#options.now();
    this.turn.meta = { ...this.turn.meta, finishedAt: this.#endedAt };
    this.#sink.ended();
    this.#sink.patch(this.turn);
  }

  /** A column's answer reaches the view through the comparison's sink, named by its id. */
  #columnSink(column: ComparisonColumn, slot: Slot): AnswerSink {
    const sink = this.#sink;
    return {
      upsert: () => sink.patchColumn(this.turn, column),
      append: (append) => sink.append(this.turn, column.answer.id, append),
      patch: () => sink.patchColumn(this.turn, column),
      save: () => sink.save(),
      saveSoon: () => sink.saveSoon(),
      ended: () => {
        // Its stream is over: the next column may go while this one's spend is read. One at a time
        // (measureEachModel, or a key's low limit), only once it is read (#runColumn): the next call
        // would otherwise open beside this one's, and neither would be measured.
        if (this.#slots.limit > 1) slot.release();
        this.#columnEnded();
      },
      readImage: (file) => sink.readImage(file),
    };
  }

  /** The backend as one column sees it: the comparison's environment, and its stream opened in its slot. */
  #columnBackend(column: ComparisonColumn, slot: Slot): ChatBackend {
    const backend = this.#backend;
    return {
      environment: () => this.#env,
      refusal: (env) => backend.refusal(env),
      chatDefaults: (model) => backend.chatDefaults(model),
      estimate: (model) => backend.estimate(model),
      // A model the user picked for this column: forgotten as the environment's only if it is that one.
      describeFailure: (error, context) => backend.describeFailure(error, { ...context, usedEnvironmentModel: column.model === this.#env.selectedModel }),
      openBillingWindow: (env, budgets, consent, group) => backend.openBillingWindow(env, budgets, consent, group),
      balance: (env) => backend.balance(env),
      readSettledBalance: async (env) => {
        const reading = await backend.readSettledBalance(env);
        if (reading && (!this.#lastReading || reading.at >= this.#lastReading.at)) this.#lastReading = reading;
        return reading;
      },
      usage: backend.usage,
      openStream: (env, request, signal) => this.#openInSlot(column, slot, env, request, signal),
    };
  }

  /** Opens the column's stream, waiting out a 429 as a single answer would, without its slot meanwhile. */
  #openInSlot(column: ComparisonColumn, slot: Slot, env: string, request: ChatRequest, signal: AbortSignal): Promise<AsyncIterable<ChatStreamEvent>> {
    const { maxRetries, wait } = this.#backend.rateLimitRetry();
    return withRateLimitRetry(async (attempt) => {
      if (attempt > 0) await slot.again(signal);
      // The figures count from this request's sending: a 429's wait, the slot's, are not the model's time.
      column.answer.meta = { ...column.answer.meta, startedAt: this.#options.now() };
      try {
        return this.#learningLimit(await this.#backend.openStreamOnce(env, request, signal));
      } catch (error) {
        if (isApiError(error) && error.kind === 'rateLimited') {
          this.#learnLimit(error.meta?.rateLimitRequests);
          slot.release();
        }
        throw error;
      }
    }, { label: l10n.t('{0} in the comparison', column.model), maxRetries, wait, signal });
  }

  /** The stream as it is, reading the key's limit from its response. */
  async *#learningLimit(events: AsyncIterable<ChatStreamEvent>): AsyncGenerator<ChatStreamEvent, void, undefined> {
    for await (const event of events) {
      if (event.type === 'response') this.#learnLimit(event.meta.rateLimitRequests);
      yield event;
    }
  }

  #learnLimit(requestsPerMinute: number | undefined): void {
    if (requestsPerMinute === undefined) return;
    this.#rateLimitRequests = requestsPerMinute;
    this.#slots.setLimit(this.#concurrencyFor(requestsPerMinute));
  }
}
