import assert from 'node:assert/strict';
import type { BalanceReading, ChatBackend, ChatEnvironment, ChatView, ComparisonBackend, ConversationSaver, FailureContext, PastLimitQuestion, SavedElsewhere } from '../../../src/core/chat/ports';
import type { RetryWait, Wait } from '../../../src/core/api/rateLimitRetry';
import type { PeriodSpend } from '../../../src/core/usage/spendingLimits';
import type { SpendBudget } from '../../../src/core/usage/spendBudget';
import type { SpendConsent } from '../../../src/core/usage/spendConsent';
import type { Conversation } from '../../../src/core/chat/conversation';
import type { ChatImage } from '../../../src/core/chat/chatImages';
import { serializeConversation } from '../../../src/core/chat/history/serialization';
import { parseAppend } from '../../../src/core/chat/protocol/chatMessageValidation';
import type { AppendMessage, ChatParams, HostMessage, HostToWebview } from '../../../src/core/chat/protocol/chatProtocol';
import { ApiError, toApiError } from '../../../src/core/api/errors';
import { errorFacts, type ErrorFacts } from '../../../src/core/errorView';
import type { ChatRequest, ChatStreamEvent, ResponseMeta } from '../../../src/core/api/types';
import { BillingWindows, type BillingGroup, type BillingWindow } from '../../../src/core/usage/billingWindows';
import type { SpendEstimate } from '../../../src/core/usage/estimate';
import type { ComparisonSpend, SpendNotMeasured, UsageRecord } from '../../../src/core/usage/ledger';

/** Fakes of the chat engine's ports (core/chat/ports.ts), for its state machine tests. */

export class FakeView implements ChatView {
  ready = true;
  readonly posted: HostToWebview[] = [];
  /** The titles shown, in order (whether ready or not, as a panel's tab shows them). */
  readonly titles: string[] = [];
  post(message: HostToWebview): void {
    if (this.ready) this.posted.push(message);
  }
  showTitle(title: string): void {
    this.titles.push(title);
  }
  of<T extends HostMessage['type']>(type: T): Extract<HostMessage, { type: T }>[] {
    return this.posted.filter((m): m is Extract<HostMessage, { type: T }> => !Array.isArray(m) && m.type === type);
  }
  /** The appends posted, as the webview reads them (each must parse). */
  appends(): AppendMessage[] {
    return this.posted.filter((m) => Array.isArray(m)).map((m) => parseAppend(m) ?? assert.fail(`unreadable append ${JSON.stringify(m)}`));
  }
}

export class FakeSaver implements ConversationSaver {
  /** Each save as the file text it would write. */
  readonly saved: string[] = [];
  soon = 0;
  /** When set, each save takes this long (a disk that is not instant). */
  saveDelayMs = 0;
  async save(conversation: Conversation): Promise<void> {
    this.saved.push(serializeConversation(conversation));
    if (this.saveDelayMs) await new Promise((resolve) => setTimeout(resolve, this.saveDelayMs));
  }
  saveSoon(): void {
    this.soon++;
  }
  /** Images written, by file name; `failImages` makes the next write reject. */
  readonly images = new Map<string, Uint8Array>();
  failImages: Error | undefined;
  async writeImages(_conversationId: string, images: readonly ChatImage[]): Promise<void> {
    if (this.failImages) throw this.failImages;
    for (const image of images) {
      if (image.data) this.images.set(image.file, image.data);
      delete image.data;
    }
  }
  async readImage(_conversationId: string, file: string): Promise<Uint8Array> {
    return this.images.get(file) ?? assert.fail(`image ${file} was never written`);
  }
  /** Images the engine asked to forget, per call. */
  readonly forgotten: string[][] = [];
  async forgetImages(_conversationId: string, files: readonly string[]): Promise<void> {
    this.forgotten.push([...files]);
    for (const file of files) this.images.delete(file);
  }
  /** What another window saved meanwhile: handed out once, as the store reads it once. */
  elsewhere: Conversation | undefined;
  async changedElsewhere(): Promise<SavedElsewhere | undefined> {
    const conversation = this.elsewhere;
    this.elsewhere = undefined;
    return conversation && { conversation, take: () => true };
  }
  last(): Record<string, unknown> & { title: string; messages: Record<string, unknown>[] } {
    const text = this.saved.at(-1);
    if (!text) throw new Error('nothing was saved');
    return JSON.parse(text) as ReturnType<FakeSaver['last']>;
  }
}

type Step = ChatStreamEvent | { fail: unknown };

/** A stream the test feeds event by event; aborting its signal fails it as the real client does. */
export class ScriptedStream {
  private readonly steps: Step[] = [];
  private wake: (() => void) | undefined;
  sawAbort = false;

  push(...steps: Step[]): this {
    this.steps.push(...steps);
    this.wake?.();
    return this;
  }

  /** A whole answer: metadata, the pieces of text, a finish reason and the end. */
  answer(pieces: string[], meta: Partial<ResponseMeta> = {}, end: { complete?: boolean; reason?: string } = {}): this {
    this.push({ type: 'response', meta: { status: 200, receivedAt: 0, requestId: 'req-1', modelId: 'm-resolved', ...meta } });
    for (const text of pieces) this.push({ type: 'delta', text });
    if (end.complete !== false) this.push({ type: 'finish', reason: end.reason ?? 'stop' });
    return this.push({ type: 'end', complete: end.complete !== false });
  }

  async *events(signal: AbortSignal): AsyncGenerator<ChatStreamEvent, void, undefined> {
    const onAbort = () => this.wake?.();
    signal.addEventListener('abort', onAbort);
    try {
      for (;;) {
        if (signal.aborted) {
          this.sawAbort = true;
          throw new ApiError('cancelled', 'The request was cancelled.');
        }
        const step = this.steps.shift();
        if (!step) {
          await new Promise<void>((resolve) => { this.wake = resolve; });
          continue;
        }
        if ('fail' in step) throw step.fail;
        yield step;
        if (step.type === 'end') return;
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
}

export class FakeBackend implements ChatBackend {
  env: ChatEnvironment = { name: 'production', label: 'Production', selectedModel: 'm-env' };
  defaults: ChatParams = {};
  /** Handed out in order by openStream; when empty, a short complete answer. */
  readonly streams: ScriptedStream[] = [];
  /** When set, the next openStream rejects with it (nothing streamed). */
  openError: unknown;
  readonly requests: ChatRequest[] = [];
  currentBalance: number | undefined = 100;
  /** Shared by every engine given this backend, as the host's are. */
  readonly billing = new BillingWindows();
  settled: BalanceReading | undefined;
  settledReads = 0;
  readonly failures: { error: unknown; context: FailureContext }[] = [];
  /** What the engine recorded in the usage ledger. */
  readonly recorded: UsageRecord[] = [];
  /** Request ids of answers whose spend another call overlapped. */
  readonly overlappedSpends: string[] = [];
  readonly usage = {
    record: (entry: UsageRecord) => void this.recorded.push(entry),
    recordUnmeasured: (entry: Omit<UsageRecord, 'credits'>, _who: string, reason: SpendNotMeasured) => {
      if (reason === 'overlapped') this.overlappedSpends.push(entry.requestId);
      this.recorded.push({ ...entry, credits: null });
    },
  };

  environment(): ChatEnvironment {
    return this.env;
  }
  /** A settings problem that refuses chat to every environment (none by default). */
  settingsProblem: string | undefined;
  refusal(): string | undefined {
    return this.settingsProblem;
  }
  /** When set, opening a billing window rejects with it once (a spending limit refusing the request). */
  billingRefusal: unknown;
  openBillingWindow(env: string, _budgets: readonly SpendBudget[] = [], _consent?: SpendConsent, group?: BillingGroup): Promise<BillingWindow> {
    const refusal = this.billingRefusal;
    this.billingRefusal = undefined;
    if (refusal !== undefined) return Promise.reject(refusal);
    return this.billing.open(env, group);
  }
  /** What estimate() answers. */
  spendEstimate: SpendEstimate | undefined;
  estimate(_model: string): SpendEstimate | undefined {
    return this.spendEstimate;
  }
  /** The models chatDefaults was asked for, in order. */
  readonly defaultsAskedFor: (string | undefined)[] = [];
  chatDefaults(model?: string): ChatParams {
    this.defaultsAskedFor.push(model);
    return this.defaults;
  }
  async openStream(_env: string, request: ChatRequest, signal: AbortSignal): Promise<AsyncIterable<ChatStreamEvent>> {
    this.requests.push(request);
    if (this.openError !== undefined) {
      const error = this.openError;
      this.openError = undefined;
      throw error;
    }
    const stream = this.streams.shift() ?? new ScriptedStream().answer(['A short answer.']);
    return stream.events(signal);
  }
  balance(): number | undefined {
    return this.currentBalance;
  }
  /** When set, balance readings wait for it (a model-list request in flight). */
  settledGate: Promise<void> | undefined;
  async readSettledBalance(): Promise<BalanceReading | undefined> {
    this.settledReads++;
    await this.settledGate;
    return this.settled;
  }
  async describeFailure(error: unknown, context: FailureContext): Promise<ErrorFacts> {
    this.failures.push({ error, context });
    return errorFacts(toApiError(error));
  }
}

/**
 * A backend that runs comparisons (ports.ts ComparisonBackend): each column's stream by its model,
 * 429 waits recorded (and sat out at once unless `waitGate` holds them), the spending limits' spend
 * and the user's answer to the one question past them set by the test.
 */
export class FakeComparisonBackend extends FakeBackend implements ComparisonBackend {
  /** Handed out in order per model; a model without one gets a short complete answer. */
  readonly streamsByModel = new Map<string, ScriptedStream[]>();
  /** Rejections of a model's next openings (a 429, a 404), in order. */
  readonly openErrorsByModel = new Map<string, unknown[]>();
  /** Models in the order their streams were opened (attempts included). */
  readonly opened: string[] = [];
  readonly waits: RetryWait[] = [];
  waitGate: Promise<void> | undefined;
  maxRetries = 2;
  limitSpends: PeriodSpend[] = [];
  allowance = 1;
  readonly questions: PastLimitQuestion[] = [];
  consents = true;
  /** When set, each settled reading takes the next balance (columns measured one after another). */
  settledBalances: number[] | undefined;
  clock: (() => number) | undefined;
  /** The comparisons' spends measured as a whole that went to the ledger in place of their columns. */
  readonly measuredTogether: ComparisonSpend[] = [];

  recordMeasuredTogether(total: ComparisonSpend): void {
    this.measuredTogether.push(total);
  }
  stream(model: string, stream: ScriptedStream): ScriptedStream {
    this.streamsByModel.set(model, [...(this.streamsByModel.get(model) ?? []), stream]);
    return stream;
  }
  async openStreamOnce(_env: string, request: ChatRequest, signal: AbortSignal): Promise<AsyncIterable<ChatStreamEvent>> {
    this.requests.push(request);
    this.opened.push(request.model);
    const error = this.openErrorsByModel.get(request.model)?.shift();
    if (error !== undefined) throw error;
    const stream = this.streamsByModel.get(request.model)?.shift() ?? new ScriptedStream().answer([`${request.model} answers.`], { requestId: `req-${request.model}`, modelId: request.model });
    return stream.events(signal);
  }
  rateLimitRetry(): { maxRetries: number; wait: Wait } {
    return { maxRetries: this.maxRetries, wait: async (wait) => { this.waits.push(wait); await this.waitGate; return true; } };
  }
  async limitSpend(_env: string): Promise<PeriodSpend[]> {
    return this.limitSpends;
  }
  unmeasuredRequestCredits(): number {
    return this.allowance;
  }
  async confirmPastLimit(question: PastLimitQuestion): Promise<boolean> {
    this.questions.push(question);
    return this.consents;
  }
  openBillingGroup(env: string): Promise<BillingGroup> {
    return this.billing.openGroup(env);
  }
  /** `inference.chat.comparison.measureEachModel`. */
  oneAtATime = false;
  measureEachModel(): boolean {
    return this.oneAtATime;
  }
  override async readSettledBalance(): Promise<BalanceReading | undefined> {
    const next = this.settledBalances?.shift();
    if (next === undefined) return super.readSettledBalance();
    this.settledReads++;
    this.currentBalance = next;
    return { credits: next, at: this.clock?.() ?? Date.now() };
  }
}

/** A 429 as the client reports it, with its Retry-After. */
export function rateLimited(retryAfterSeconds = 1, rateLimitRequests?: number): ApiError {
  return new ApiError('rateLimited', 'Too many requests.', { status: 429, retryAfterSeconds, ...(rateLimitRequests !== undefined && { meta: { status: 429, receivedAt: 0, rateLimitRequests } }) });
}
