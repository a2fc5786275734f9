import type { ChatParams, HostToWebview } from './protocol/chatProtocol';
import type { ErrorFacts } from '../errorView';
import type { ChatRequest, ChatStreamEvent } from '../api/types';
import type { BalanceReading } from '../usage/answerSpend';
import type { BillingMeter } from '../usage/billedCall';
import type { SpendEstimate } from '../usage/estimate';
import type { PeriodSpend } from '../usage/spendingLimits';
import type { BillingGroup } from '../usage/billingWindows';
import type { ComparisonSpend } from '../usage/ledger';
import type { Wait } from '../api/rateLimitRetry';
import type { AppendPacing } from './appendBatcher';
import type { Conversation } from './conversation';
import type { ChatImage } from './chatImages';

export type { BalanceReading };

/**
 * What the chat engine needs from the world, as small interfaces: the host implements them with
 * VS Code and the HTTP client; the engine's unit tests with fakes.
 */

/** Where the engine's messages go: the panel, which drops them while the webview is not ready. */
export interface ChatView {
  readonly ready: boolean;
  post(message: HostToWebview): void;
  /** Names the view after the conversation (a panel's tab shows it, ready or not). */
  showTitle(title: string): void;
}

export interface ConversationSaver {
  /** Saves now (a finished turn, a rename). */
  save(conversation: Conversation): Promise<void>;
  /** Saves soon: called on every streamed delta, coalesced by the saver. */
  saveSoon(conversation: Conversation): void;
  /** Writes the images that hold their bytes beside the conversation; rejects when one cannot be written. */
  writeImages(conversationId: string, images: readonly ChatImage[]): Promise<void>;
  /** The bytes of an image written before. */
  readImage(conversationId: string, file: string): Promise<Uint8Array>;
  /**
   * Deletes images written before that the composer dropped (a question taken back with its image,
   * then sent without it), unless a message of the conversation as saved names them.
   */
  forgetImages(conversationId: string, files: readonly string[]): Promise<void>;
  /**
   * The conversation as saved, when another window changed it since this one last saved or read it
   * (its turns, a rename); undefined when none did.
   */
  changedElsewhere(conversationId: string): Promise<SavedElsewhere | undefined>;
}

/** A conversation as another window saved it. */
export interface SavedElsewhere {
  conversation: Conversation;
  /**
   * Makes it this window's picture of the conversation, later saves going on from it; false (and
   * nothing changes) when this window saved the conversation since it was read.
   */
  take(): boolean;
}

/** The environment a new answer goes to. */
export interface ChatEnvironment {
  name: string;
  label: string;
  /** The environment's selected chat model, used when the conversation names none. */
  selectedModel?: string;
}

/** What the engine tells the host about a failure, so that it can log it and apply its side effects. */
export interface FailureContext {
  env: string;
  /** The answer used the environment's selected model (not a per-conversation one). */
  usedEnvironmentModel: boolean;
}

/** What the chat engine needs from the extension; an answer is a billed call, measured as every path's is (BillingMeter). */
export interface ChatBackend extends BillingMeter {
  environment(): ChatEnvironment;
  /**
   * Why no chat request may go to the environment now (a settings problem, in the words of its
   * warning), or undefined: an answer states it before anything else, the missing model included.
   */
  refusal(env: string): string | undefined;
  /**
   * The chat parameters from the settings for answers by `model` (a conversation's overrides win):
   * service parameters of the environment and of the model are merged in.
   */
  chatDefaults(model?: string): ChatParams;
  /** What an answer with `model` cost this user per 1,000 characters, from the ledger; undefined with too few answers. */
  estimate(model: string): SpendEstimate | undefined;
  /**
   * Opens a streamed answer. Rejects before the first event when the call cannot start (no key,
   * refused, rate limited beyond the retries the backend makes); aborting the signal ends it.
   */
  openStream(env: string, request: ChatRequest, signal: AbortSignal): Promise<AsyncIterable<ChatStreamEvent>>;
  /** Logs the failure, applies what its kind implies, and says what the answer keeps of it. */
  describeFailure(error: unknown, context: FailureContext): Promise<ErrorFacts>;
}

/** A comparison's question to the user, once for all of its requests, before any is sent. */
export interface PastLimitQuestion {
  environment: string;
  /** The requests the comparison would send (one per model). */
  requests: number;
  /** The period whose limit they would reach: its spend counted now and its limit. */
  spend: PeriodSpend;
  /** What they would count together (each its estimate, at least the unmeasured allowance). */
  credits: number;
}

/**
 * What a comparison (several models asked at once, comparison/) needs besides a single answer's: its
 * columns wait out a 429 one by one, so that a column waiting gives its place to another; and the
 * spending limits are checked for all of its requests at once, with one question to the user.
 */
export interface ComparisonBackend extends ChatBackend {
  /** Opens a stream as openStream does, without waiting out a 429: it rejects with the 429 (its Retry-After, its metadata). */
  openStreamOnce(env: string, request: ChatRequest, signal: AbortSignal): Promise<AsyncIterable<ChatStreamEvent>>;
  /** How a 429 is waited out: the retries the settings allow and the host's countdown, as for a single answer. */
  rateLimitRetry(): { maxRetries: number; wait: Wait };
  /** The environment's spend against each of its limits now (requests in flight counted); empty without limits. */
  limitSpend(env: string): Promise<PeriodSpend[]>;
  /** What a request whose spend is not measured counts against the limits (`inference.unmeasuredRequestCredits`). */
  unmeasuredRequestCredits(): number;
  /** Asks whether to send them all past the limit (the host's modal); true sends them, each still metered on its own. */
  confirmPastLimit(question: PastLimitQuestion): Promise<boolean>;
  /** Opens the group its columns' calls are measured in together, before the first (billingWindows.ts BillingGroup). */
  openBillingGroup(env: string): Promise<BillingGroup>;
  /** The columns go one at a time, each measured (`inference.chat.comparison.measureEachModel`), instead of side by side. */
  measureEachModel(): boolean;
  /** The comparison's spend measured as a whole, in the ledger in place of its columns that had none (measuredTogether.ts). */
  recordMeasuredTogether(total: ComparisonSpend): void;
}

export interface ChatEngineOptions {
  now?: () => number;
  /** How the append batcher sizes appends; tests make it send every delta at once. */
  appendPacing?: Partial<AppendPacing>;
}
