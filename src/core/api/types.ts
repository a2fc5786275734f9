import type { NumberParamValues } from '../numberParams';

/** Request and response shapes of the inference API (spec sections 2 and 4), as the client sees them. */

export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

/** A tool call as the common chat format carries it on an assistant message. */
export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** An assistant turn that called tools (its text, if any, may be empty). */
export interface AssistantToolCallMessage {
  role: 'assistant';
  content: string | null;
  tool_calls: ChatToolCall[];
}

/** The result of one tool call, answered by the caller. */
export interface ToolResultMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/**
 * A content part of a user message in the common chat format. The spec says only "role and content";
 * image parts with data URLs are the client's documented choice (README, "Images in the chat").
 */
export type ChatContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } };

/** A user turn with images: its text and its images as content parts. */
export interface UserPartsMessage {
  role: 'user';
  content: ChatContentPart[];
}

export type ChatRequestMessage = ChatMessage | UserPartsMessage | AssistantToolCallMessage | ToolResultMessage;

/** A tool offered to the model (`tools` in the common chat format). */
export interface ChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: object };
}

export type ChatToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

/** The number parameters (temperature, top_p, max_tokens, ...) are core/numberParams.ts's table. */
export interface ChatRequest extends NumberParamValues {
  model: string;
  messages: ChatRequestMessage[];
  /** Not in the contract's field table; many compatible services accept it, so it is sent only when set. */
  tools?: ChatTool[];
  tool_choice?: ChatToolChoice;
  /** Service-specific extensions; passed through untouched. */
  service_parameters?: Record<string, unknown>;
}

/** What every response tells us besides its body, parsed from the spec's response headers. */
export interface ResponseMeta {
  status: number;
  requestId?: string;
  modelId?: string;
  balanceCredits?: number;
  rateLimitRequests?: number;
  /** Epoch milliseconds when the response headers arrived. */
  receivedAt: number;
  /** Epoch milliseconds when the request was sent (the service read its balance somewhere in between). */
  sentAt?: number;
  /** The origin (scheme://host[:port]) that answered: one of the environment's equivalent hosts. */
  host?: string;
}

export interface Usage {
  promptTokens?: number;
  completionTokens?: number;
  totalTokens?: number;
}

export interface ChatResult {
  text: string;
  meta: ResponseMeta;
  finishReason?: string;
  usage?: Usage;
  toolCalls?: CompletedToolCall[];
}

/** A streamed tool call once all its pieces arrived and its arguments parsed as a JSON object. */
export interface CompletedToolCall {
  id: string;
  name: string;
  /** The arguments exactly as the service sent them. */
  arguments: string;
  input: Record<string, unknown>;
}

export type ChatStreamEvent =
  | { type: 'response'; meta: ResponseMeta }
  | { type: 'delta'; text: string }
  /** `delta.reasoning_content` / `delta.reasoning`: the model's thinking, kept apart from the answer. */
  | { type: 'reasoning'; text: string }
  | { type: 'toolCall'; call: CompletedToolCall }
  | { type: 'finish'; reason: string }
  | { type: 'usage'; usage: Usage }
  /** Last event. `complete` is false when the stream ended without `[DONE]` or a finish reason. */
  | { type: 'end'; complete: boolean };

export type ModelType = 'chat' | 'text' | 'image';

export interface Model {
  id: string;
  object: string;
  created?: number;
  owned_by?: string;
}

export interface ModelList {
  models: Model[];
  meta: ResponseMeta;
}

export type ImageResponseFormat = 'b64_json' | 'url';

export interface ImageRequest {
  /** An image model id, or the literal `auto`. */
  model: string;
  prompt: string;
  response_format?: ImageResponseFormat;
  width?: number;
  height?: number;
  seed?: number;
  negative_prompt?: string;
}

export interface GeneratedImage {
  bytes: Uint8Array;
  mimeType: string;
}

export interface ImageResult {
  images: GeneratedImage[];
  created?: number;
  meta: ResponseMeta;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

/** One request relayed unchanged but for the key (the local endpoint's passthrough). */
export interface ForwardRequest {
  endpoint: 'models' | 'chat' | 'images';
  method: 'GET' | 'POST';
  /** A path of the spec, with its query, appended to the base URL. */
  path: string;
  /** JSON bytes, sent as they are. */
  body?: Uint8Array;
  accept: string;
}

export interface ForwardedResponse {
  meta: ResponseMeta;
  status: number;
  /** content-type, retry-after, x-request-id, x-service-*, x-ratelimit-*, each value redacted: nothing else reaches the caller. */
  headers: Record<string, string>;
  /** A success body as it arrives, every form of the key removed; an error body read whole (capped) and redacted after decoding. */
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
  /** Stops reading a success body and closes its connection. */
  discard(): void;
}
