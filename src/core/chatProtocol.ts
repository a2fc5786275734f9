/**
 * The one protocol between the chat panel's extension-host side and its webview. Both sides import
 * this module (the webview bundle through src/webview/tsconfig.json), so a message that one side
 * sends and the other does not understand is a type error, not a silent no-op.
 *
 * Streaming is append-only by design: while an answer streams the host sends only the new text
 * (`append`, numbered by `seq` per message), batched to at most one message per frame, and a full
 * `snapshot` whenever the webview (re)announces itself with `ready`. Nothing in here may ever carry
 * an API key: these values end up in webview state and in the history store.
 */

export const CHAT_PROTOCOL_VERSION = 1;
export const CHAT_STATE_VERSION = 1;

export type ChatRole = 'user' | 'assistant';

/** `interrupted`: the stream ended without `[DONE]`/finish_reason, or the window died mid-stream. */
export type AnswerStatus = 'streaming' | 'done' | 'stopped' | 'error' | 'interrupted';

export interface AnswerMeta {
  /** The resolved model id from `x-service-model-id` (falls back to the requested model). */
  model?: string;
  requestId?: string;
  startedAt?: number;
  finishedAt?: number;
  /** Balance before minus balance after, only when both are known. */
  creditsSpent?: number;
  finishReason?: string;
}

export type ErrorActionId = 'setApiKey' | 'pickModel' | 'retry' | 'copyRequestId' | 'openLogs' | 'openSettings';

export interface ErrorCardView {
  kind: string;
  message: string;
  status?: number;
  requestId?: string;
  actions: { id: ErrorActionId; label: string }[];
}

export type AttachmentKind = 'selection' | 'file';

/** What the webview shows of an attachment (the chip). The content itself stays on the host. */
export interface AttachmentView {
  id: string;
  kind: AttachmentKind;
  label: string;
  detail?: string;
}

export interface MessageView {
  id: string;
  role: ChatRole;
  text: string;
  createdAt: number;
  status?: AnswerStatus;
  meta?: AnswerMeta;
  error?: ErrorCardView;
  attachments?: AttachmentView[];
}

/** Per-conversation overrides; an absent field means "use the setting". */
export interface ChatParams {
  systemPrompt?: string;
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
}

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
}

// ---------------------------------------------------------------------------------------------
// Host -> webview

interface Versioned { v: typeof CHAT_PROTOCOL_VERSION }

export interface SnapshotMessage extends Versioned {
  type: 'snapshot';
  conversation: ConversationView;
  /** Set while an answer streams: the next `append` for that message will carry `seq + 1`. */
  streaming?: { message: string; seq: number };
  attachments: AttachmentView[];
  environment: ChatEnvironmentView;
}

export interface AppendMessage extends Versioned {
  type: 'append';
  conversation: string;
  message: string;
  seq: number;
  append: string;
}

export type HostToWebview =
  | SnapshotMessage
  | AppendMessage
  | (Versioned & { type: 'messageUpsert'; conversation: string; message: MessageView })
  | (Versioned & { type: 'messageRemoved'; conversation: string; message: string })
  | (Versioned & { type: 'conversationChanged'; conversation: ConversationHeader; environment: ChatEnvironmentView })
  | (Versioned & { type: 'attachments'; attachments: AttachmentView[] })
  | (Versioned & { type: 'focusComposer' })
  | (Versioned & { type: 'response'; id: number; ok: true })
  | (Versioned & { type: 'response'; id: number; ok: false; error: string });

// ---------------------------------------------------------------------------------------------
// Webview -> host: one `ready` notification, everything else a request answered once by id.

export interface ChatRequests {
  send: { text: string };
  stop: Record<string, never>;
  regenerate: Record<string, never>;
  /** Replace the last user message (and drop the answer after it), then resend. */
  editLast: { text: string };
  copyText: { text: string };
  insertCode: { code: string };
  openInNewFile: { code: string; language?: string };
  openLink: { href: string };
  pickModel: Record<string, never>;
  attach: { kind: AttachmentKind };
  removeAttachment: { id: string };
  errorAction: { message: string; action: ErrorActionId };
  setParams: { params: ChatParams };
  newConversation: Record<string, never>;
  openHistory: Record<string, never>;
  renameConversation: Record<string, never>;
  exportMarkdown: Record<string, never>;
  requestSnapshot: Record<string, never>;
}

export type ChatMethod = keyof ChatRequests;

export type ChatRequestMessage = {
  [M in ChatMethod]: Versioned & { type: 'request'; id: number; method: M; params: ChatRequests[M] };
}[ChatMethod];

export type WebviewToHost =
  | (Versioned & { type: 'ready'; state?: ChatWebviewState })
  | ChatRequestMessage;

/** What the webview keeps across reloads (vscode.setState) and what the serializer restores from. */
export interface ChatWebviewState {
  v: typeof CHAT_STATE_VERSION;
  conversationId?: string;
  draft?: string;
}

const METHODS: readonly ChatMethod[] = [
  'send', 'stop', 'regenerate', 'editLast', 'copyText', 'insertCode', 'openInNewFile', 'openLink',
  'pickModel', 'attach', 'removeAttachment', 'errorAction', 'setParams', 'newConversation',
  'openHistory', 'renameConversation', 'exportMarkdown', 'requestSnapshot',
];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Restores persisted state written by any version; unknown versions and shapes become `undefined`. */
export function parseChatWebviewState(raw: unknown): ChatWebviewState | undefined {
  if (!isRecord(raw) || raw.v !== CHAT_STATE_VERSION) return undefined;
  const state: ChatWebviewState = { v: CHAT_STATE_VERSION };
  if (typeof raw.conversationId === 'string' && raw.conversationId) state.conversationId = raw.conversationId;
  if (typeof raw.draft === 'string') state.draft = raw.draft;
  return state;
}

/**
 * The host's gate for anything the webview posts: a wrong version, an unknown method or params that
 * are not an object are dropped (and logged by the caller) instead of reaching a handler.
 */
export function parseWebviewMessage(raw: unknown): WebviewToHost | undefined {
  if (!isRecord(raw) || raw.v !== CHAT_PROTOCOL_VERSION) return undefined;
  if (raw.type === 'ready') {
    const state = parseChatWebviewState(raw.state);
    return state ? { v: CHAT_PROTOCOL_VERSION, type: 'ready', state } : { v: CHAT_PROTOCOL_VERSION, type: 'ready' };
  }
  if (raw.type !== 'request' || typeof raw.id !== 'number' || !Number.isInteger(raw.id)) return undefined;
  if (typeof raw.method !== 'string' || !(METHODS as readonly string[]).includes(raw.method)) return undefined;
  if (!isRecord(raw.params) || !hasRequiredParams(raw.method as ChatMethod, raw.params)) return undefined;
  return raw as unknown as ChatRequestMessage;
}

const STRING_PARAMS: Partial<Record<ChatMethod, readonly string[]>> = {
  send: ['text'], editLast: ['text'], copyText: ['text'], insertCode: ['code'], openInNewFile: ['code'],
  openLink: ['href'], removeAttachment: ['id'], errorAction: ['message', 'action'], attach: ['kind'],
};

function hasRequiredParams(method: ChatMethod, params: Record<string, unknown>): boolean {
  const required = STRING_PARAMS[method] ?? [];
  if (!required.every((key) => typeof params[key] === 'string')) return false;
  if (method === 'setParams') return isRecord(params.params);
  return true;
}

export function hostMessage<T extends HostToWebview['type']>(
  type: T,
  body: Omit<Extract<HostToWebview, { type: T }>, 'v' | 'type'>,
): Extract<HostToWebview, { type: T }> {
  return { v: CHAT_PROTOCOL_VERSION, type, ...body } as Extract<HostToWebview, { type: T }>;
}
