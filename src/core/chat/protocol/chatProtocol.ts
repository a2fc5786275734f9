/**
 * The one protocol between the chat panel's extension-host side and its webview: the views and what
 * the host posts are here, what the webview asks of the host is chatRequests.ts. Both sides import
 * them (the webview bundle through src/webview/tsconfig.json), so a message that one side sends
 * and the other does not understand is a type error, not a silent no-op.
 *
 * Streaming is append-only by design: while an answer streams the host sends only the new text
 * (`append`, numbered by `seq` per message), batched to at most one message per frame; the end of
 * an answer (status, meta, spend, error) is a `messagePatch` without the text; a full `snapshot`
 * answers every `ready`. Field names say what they hold: `messageId`/`conversationId` are ids,
 * `message`/`conversation` whole objects. Nothing in here may ever carry an API key.
 *
 * These are view types: what is saved to disk has its own versioned type (`StoredConversation`, chat/serialization.ts).
 */
import type { SpendEstimate } from '../../usage/estimate';
import type { NumberParamValues } from '../../numberParams';
import type { ErrorActionId } from '../../errorActions';
import type { ChatRole, Usage } from '../../api/types';
import type { AttachmentKind, AttachmentView } from '../attachmentViews';
import type { SpendNotMeasured } from '../../usage/ledger';

export type { ErrorActionId } from '../../errorActions';
export * from '../attachmentViews';

/** 2: ids renamed to messageId/conversationId, messagePatch, typed request responses. 3: appends are tuples. */
export const CHAT_PROTOCOL_VERSION = 3;
export const CHAT_STATE_VERSION = 1;

/** The roles a conversation shows; the system prompt is a parameter, not a message. */
export type ConversationRole = Exclude<ChatRole, 'system'>;

/** `interrupted`: the stream ended without `[DONE]`/finish_reason, or the window died mid-stream. */
export type AnswerStatus = 'streaming' | 'done' | 'stopped' | 'error' | 'interrupted';

export interface AnswerMeta {
  /** The resolved model id from `x-service-model-id` (falls back to the requested model). */
  model?: string;
  requestId?: string;
  /** The origin of the host that served the answer (one of the environment's equivalent hosts). */
  host?: string;
  startedAt?: number;
  /** When the first text arrived: with startedAt, the time to first token. */
  firstDeltaAt?: number;
  finishedAt?: number;
  /** Balance before minus the settled balance after, only when both are known. */
  creditsSpent?: number;
  /** Why an answer billed to the wallet shows no spend (see SPEND_NOT_MEASURED). */
  spendNotMeasured?: SpendNotMeasured;
  finishReason?: string;
  /** Token counts from the stream's `usage` chunk, when the service sends one. */
  usage?: Usage;
  /** The attachments the request carried: the question's and, sent again with it, the earlier questions'. */
  context?: SentContext[];
  /** How many times the answer was continued after it was cut short (Continue): one request each. */
  continuations?: number;
}

/** One attachment as an answer's details list it. */
export interface SentContext {
  kind: AttachmentKind;
  label: string;
  chars: number;
}

/** Why an answer the service answered (and billed) has no measured spend: the usage ledger's reasons. */
export { SPEND_NOT_MEASURED } from '../../usage/ledger';
export type { SpendNotMeasured };

/** An error as the user sees it, in a card or a notification: the same view for both (core/errorView.ts). */
export interface ErrorCardView {
  kind: string;
  message: string;
  status?: number;
  requestId?: string;
  actions: { id: ErrorActionId; label: string }[];
}

export interface MessageView {
  id: string;
  role: ConversationRole;
  text: string;
  createdAt: number;
  /** The model's thinking (`reasoning_content`), shown collapsed apart from the answer; never sent back. */
  reasoning?: string;
  status?: AnswerStatus;
  meta?: AnswerMeta;
  error?: ErrorCardView;
  attachments?: AttachmentView[];
  /** The turn that asked several models the question before it: each model's answer is a column (its own text stays empty). */
  comparison?: ComparisonTurnView;
}

/** A comparison turn's columns, in the order the models were picked, and the one the conversation went on with. */
export interface ComparisonTurnView {
  columns: ColumnView[];
  /** The id of the column's answer chosen by Continue with this answer. */
  chosen?: string;
}

/** One model's column: the model asked, and its answer as a message of its own (no attachments, no comparison). */
export interface ColumnView {
  model: string;
  answer: MessageView;
}

/** Per-conversation overrides; an absent field means "use the setting". The numbers are core/numberParams.ts's table. */
export interface ChatParams extends NumberParamValues {
  systemPrompt?: string;
  /** The contract's `service_parameters`: a JSON object passed through untouched. */
  service_parameters?: ServiceParameters;
}

/** Contents are the service's to define: validated only as a JSON object. */
export type ServiceParameters = Record<string, unknown>;

export interface ConversationHeader {
  id: string;
  title: string;
  /** Per-conversation model; absent means the active environment's selected model. */
  model?: string;
  params: ChatParams;
}

export interface ConversationView extends ConversationHeader {
  messages: MessageView[];
}

export interface ChatEnvironmentView {
  /** The model a new request would use (conversation override or the environment's selection). */
  effectiveModel?: string;
  environmentLabel?: string;
  defaults: ChatParams;
  /** From the user's own measured answers with the effective model (core/usage/estimate.ts); absent with too few. */
  estimate?: SpendEstimate;
}

// ---------------------------------------------------------------------------------------------
// Host -> webview

export interface Versioned { v: typeof CHAT_PROTOCOL_VERSION }

export interface SnapshotMessage extends Versioned {
  type: 'snapshot';
  conversation: ConversationView;
  /** Set while an answer streams: the next `append` for that message will carry `seq + 1`. */
  streaming?: { messageId: string; seq: number };
  /** Set while a comparison streams: for each of its columns still streaming, the `seq` its next append follows. */
  streamingColumns?: { turnId: string; columns: { columnId: string; seq: number }[] };
  attachments: AttachmentView[];
  environment: ChatEnvironmentView;
}

/**
 * A long conversation's snapshot carries its latest messages; the older ones follow in parts of
 * these, newest part first, each going before the first message the webview holds (`before`). A
 * part that does not go before that message (a newer snapshot came meanwhile) is dropped.
 * Built by `snapshotParts` (snapshotParts.ts).
 */
export interface EarlierMessagesMessage extends Versioned {
  type: 'earlierMessages';
  conversationId: string;
  before: string;
  messages: MessageView[];
}

/**
 * Text for the answer that is streaming, the one whose upsert said `streaming` (or the snapshot's
 * `streaming`): no ids, because the webview knows them. `seq` counts from 1 for each answer; a gap
 * makes the webview ask for a snapshot. `reasoning`: the model's thinking (the collapsed block).
 */
export interface AppendMessage {
  seq: number;
  text: string;
  reasoning?: true;
  /**
   * A comparison's column (its index in the streaming comparison turn's columns): each column streams
   * with a `seq` of its own. Absent for a single answer.
   */
  column?: number;
}

/**
 * An append on the wire: `[version, seq, text]`, `[version, seq, text, 1]` for thinking; the only
 * message that is an array, so the version is its tag. A slow model's append holds ~43 characters
 * and `{"v":…,"type":"append","seq":…,"text":…}` wrapped them in 43 bytes (test/bench/traffic.bench.ts).
 * Built by `appendMessage`, read back by `parseAppend` (chatMessageValidation.ts).
 */
export type AppendTuple =
  | [v: typeof CHAT_PROTOCOL_VERSION, seq: number, text: string, reasoning?: 1]
  /** A column's: `[version, seq, text, 0 or 1 (thinking), column index]`. */
  | [v: typeof CHAT_PROTOCOL_VERSION, seq: number, text: string, reasoning: 0 | 1, column: number];

export function appendMessage({ seq, text, reasoning, column }: AppendMessage): AppendTuple {
  if (column !== undefined) return [CHAT_PROTOCOL_VERSION, seq, text, reasoning ? 1 : 0, column];
  return reasoning ? [CHAT_PROTOCOL_VERSION, seq, text, 1] : [CHAT_PROTOCOL_VERSION, seq, text];
}

/** Fewer would not be a comparison; more would not fit side by side, nor in a key's burst of requests. */
export const MIN_COMPARED_MODELS = 2;
export const MAX_COMPARED_MODELS = 4;

/** The fields of a message that change after it was shown, sent without its text. */
export type MessagePatch = Pick<MessageView, 'status' | 'meta' | 'error'>;

export interface MessagePatchMessage extends Versioned, MessagePatch {
  type: 'messagePatch';
  conversationId: string;
  messageId: string;
}

/** A comparison column's status, meta or error changed (its text came by appends). */
export interface ColumnPatchMessage extends Versioned, MessagePatch {
  type: 'columnPatch';
  conversationId: string;
  turnId: string;
  columnId: string;
}

export type ChatResponseMessage =
  | (Versioned & { type: 'response'; id: number; ok: true; result: unknown })
  | (Versioned & { type: 'response'; id: number; ok: false; error: string });

export type HostToWebview =
  | SnapshotMessage
  | AppendTuple
  | MessagePatchMessage
  | ColumnPatchMessage
  | EarlierMessagesMessage
  | (Versioned & { type: 'messageUpsert'; conversationId: string; message: MessageView })
  | (Versioned & { type: 'messageRemoved'; conversationId: string; messageId: string })
  | (Versioned & { type: 'conversationChanged'; conversation: ConversationHeader; environment: ChatEnvironmentView })
  /** Scroll to a message (a search result opened): after the snapshot, it takes the place of following the bottom. */
  | (Versioned & { type: 'revealMessage'; messageId: string })
  /** An editor action added context: the chips, and optionally a starter question and the focus. */
  | (Versioned & { type: 'fillComposer'; attachments: AttachmentView[]; text?: string; focus: boolean })
  | ChatResponseMessage;

/** What the webview keeps across reloads (vscode.setState) and what the serializer restores from. */
export interface ChatWebviewState {
  v: typeof CHAT_STATE_VERSION;
  conversationId?: string;
  draft?: string;
}

/** Every host message but the append (`appendMessage`), which has no type field. */
export type HostMessage = Exclude<HostToWebview, AppendTuple>;

export function hostMessage<T extends Exclude<HostMessage['type'], 'response'>>(
  type: T,
  body: Omit<Extract<HostMessage, { type: T }>, 'v' | 'type'>,
): Extract<HostMessage, { type: T }> {
  return { v: CHAT_PROTOCOL_VERSION, type, ...body } as Extract<HostMessage, { type: T }>;
}

/** The webview root element's attribute that carries VS Code's runtime-string bundle (JSON) into a webview. */
export const WEBVIEW_L10N_ATTRIBUTE = 'data-l10n-bundle';
