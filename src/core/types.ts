/** Request and response shapes of the inference API (spec sections 2 and 4), as the client sees them. */

export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
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
}

export type ChatStreamEvent =
  | { type: 'response'; meta: ResponseMeta }
  | { type: 'delta'; text: string }
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
  /** content-type, retry-after, x-request-id, x-service-*, x-ratelimit-*: nothing else reaches the caller. */
  headers: Record<string, string>;
  /** A success body as it arrives; an error body read whole (capped) with the key removed. */
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
  /** Stops reading a success body and closes its connection. */
  discard(): void;
}
