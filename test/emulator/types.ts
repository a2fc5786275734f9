/** Public types of the local service emulator (re-exported by index.ts). */
import type { ImagePartLog } from './contentParts';

export type EnvironmentName = 'production' | 'preview';
export const ENVIRONMENT_NAMES: readonly EnvironmentName[] = ['production', 'preview'];

export type FaultName =
  | 'http-400' | 'http-401' | 'http-402' | 'http-403' | 'http-404' | 'http-429' | 'http-500' | 'http-503'
  | 'html-500'            // 500 with an HTML body (like a proxy error page)
  | 'text-502'            // 502 with a plain-text body
  | 'slow-first-byte'     // delay before the status line (delayMs, default 2000)
  | 'hang'                // accept and never answer (for client timeouts)
  | 'reset-mid-stream'    // SSE: send some chunks then destroy the socket
  | 'stall-mid-stream'    // SSE: send some chunks then fall silent, connection open (for idle timeouts)
  | 'no-done'             // SSE: end the response without `data: [DONE]`
  | 'malformed-chunk'     // SSE: one `data:` line that is not JSON
  | 'error-mid-stream'    // SSE: a `data: {"error":{...}}` event after some content, then end
  | 'keepalive-comments'  // SSE: `: ping` comment lines between events
  | 'crlf'                // SSE: \r\n line endings
  | 'tiny-writes'         // SSE: write the body in 1–3 byte pieces (splits lines and UTF-8 chars)
  | 'large-stream'        // SSE: about 1 MB of content
  | 'usage-chunk'         // SSE: a final usage-only chunk with `choices: []` (always sent anyway)
  | 'html-404'            // 404 with an HTML body (a proxy's page, not the service's JSON)
  | 'redirect-308'        // 308 to `location` (default: another host), as a moved base URL would
  | 'no-balance-header'   // normal handling, but no x-service-balance-credits (the spec promises it on chat and images only)
  | 'echo-authorization'  // TEST FAULT: 400 whose JSON error message echoes the request's Authorization header
  | 'echo-authorization-mid-stream'; // TEST FAULT: SSE error event echoing the Authorization header after some content

export interface FaultSpec {
  fault: FaultName;
  /** How many matching requests consume this fault; default 1. */
  times?: number;
  delayMs?: number;
  retryAfterSeconds?: number;
  /** Only requests whose path ends with this, e.g. '/chat/completions'. */
  path?: string;
  /** `redirect-308`: the Location header (default `https://moved.invalid` + the request path). */
  location?: string;
}

/** Test control, not service behaviour: what the next chat answer(s) say, exactly (see scripted.ts). */
export interface ScriptedReply {
  text: string;
  /** Stream in pieces of this many characters (splitting words and tags) instead of one per token. */
  chunkChars?: number;
  /** How many chat requests of the environment get this reply; default 1. */
  times?: number;
  /** Streamed before the text as `delta.reasoning_content` (or the field `reasoningField` names). */
  reasoning?: string;
  reasoningField?: 'reasoning_content' | 'reasoning';
  /** Tool calls sent after the text, exactly as given (arguments may be deliberately malformed JSON). */
  toolCalls?: ScriptedToolCall[];
  /**
   * A streamed reply stops after this many pieces of its text, with the connection open, until the
   * test calls `resumeHeld()` (or the client goes): a stream that is surely mid-answer however slow
   * the machine, without pacing every token. In-process only: the control endpoint ignores it.
   */
  holdAfterPieces?: number;
}

export interface ScriptedToolCall {
  name: string;
  /** A JSON text, as the common format carries it; streamed in pieces of `chunkChars` (else the emulator's `toolArgumentChunkChars`). */
  arguments: string;
  /** Default: a random `call_…`. */
  id?: string;
}

/** A tool call or tool result a chat request carried, as received. */
export interface ToolCallLog { id: string; name: string; arguments: string }

/** What a chat request asked for, as received (message contents flattened to text). */
export interface ChatRequestLog {
  /** `content` is the text parts joined; `images` each image part's type and decoded size (not its data). */
  messages: { role: string; content: string; images?: ImagePartLog[]; tool_calls?: ToolCallLog[]; tool_call_id?: string }[];
  /** Names of the tools offered, and the tool_choice, when the request had tools. */
  tools?: string[];
  tool_choice?: unknown;
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
}

export interface EmulatorOptions {
  host?: string;
  ports?: Partial<Record<EnvironmentName, number>>;
  keyPrefix?: string;
  /**
   * The `full` demo key of an environment, handed in instead of generated: a process that starts
   * several emulators for one code-server (the UI tier's shared one, whose environment gives every
   * window its keys) issues the key once. Default: generated, like every other key.
   */
  fullKeys?: Partial<Record<EnvironmentName, string>>;
  /** Chat output pace (0: as fast as possible); per environment at run time with `setPacing`. */
  tokensPerSecond?: number;
  /**
   * Time to first token: a chat stream waits this long after its headers, a non-streaming answer this
   * much more before its body; default 0. Per environment at run time with `setPacing`.
   */
  firstTokenDelayMs?: number;
  /** How answers to code-suggestion prompts are dressed (suggestions.ts); default 'plain'. */
  suggestionStyle?: SuggestionStyle;
  imageSizes?: string[];
  initialCredits?: number;
  prices?: { chatPerRequest?: number; chatPer1kTokens?: number; image?: number };
  /**
   * Per chat model id: its own pace (over the environment's, field by field), so that models differ
   * in speed, as a comparison of models shows them. Default none.
   */
  modelPacing?: Record<string, Partial<Pacing>>;
  /** Per chat model id: its own chat prices (over `prices`, field by field). Default none. */
  modelPrices?: Record<string, { chatPerRequest?: number; chatPer1kTokens?: number }>;
  defaultRpm?: number;
  /** Largest accepted `max_tokens` (and the output reserved when it is absent); default 4096. */
  maxOutputTokens?: number;
  /** Chat models that refuse requests with `tools` (400 `tools_not_supported`); default none. */
  modelsWithoutTools?: string[];
  /** Chat models that refuse requests with image parts (400 `images_not_supported`); default none. */
  modelsWithoutImages?: string[];
  /** Streamed tool-call arguments leave in pieces of this many characters; default 8. */
  toolArgumentChunkChars?: number;
}

/** `plain`: the suggested text alone; `fenced`: in a ```<language> fence; `prose`: after a sentence introducing it. */
export type SuggestionStyle = 'plain' | 'fenced' | 'prose';

/** How chat answers are paced; see EmulatorOptions. */
export interface Pacing {
  firstTokenDelayMs: number;
  tokensPerSecond: number;
}

export interface DemoKeys {
  full: string;
  chatOnly: string;
  /** rpm 2 */
  lowRpm: string;
  /** Has its own empty wallet. */
  broke: string;
  expired: string;
  revoked: string;
}
export type KeyLabel = keyof DemoKeys;

export interface RequestRecord {
  /** x-request-id */
  id: string;
  env: EnvironmentName;
  method: string;
  /** Path with the query string, e.g. '/api/v1/models?type=chat'. */
  path: string;
  /** 0 until the status line is sent. */
  status: number;
  keyLabel?: KeyLabel;
  model?: string;
  stream: boolean;
  startedAt: number;
  /** When a chat answer's first content left (streaming or not): with startedAt, its time to first token. */
  firstContentAt?: number;
  finishedAt?: number;
  /** When the client closed the connection before the response ended. */
  clientClosedAt?: number;
  bytesSent: number;
  creditsCharged: number;
  /** `service_parameters` exactly as received (chat only). */
  serviceParameters?: unknown;
  /** Messages and sampling parameters of a valid chat request. */
  chat?: ChatRequestLog;
  /** The answer was a scripted reply (a test control), not generated text. */
  scripted?: boolean;
  /** Faults applied to this request. */
  faults?: FaultName[];
  /** The origin of the listener that received it (an environment may have several: addListener). */
  listener?: string;
  /** The `error.code` of an error response. */
  errorCode?: string;
}

export interface EnvironmentInfo {
  origin: string;
  /** origin + '/api/v1' */
  baseUrl: string;
  chatModels: string[];
  imageModels: string[];
}

export interface Emulator {
  readonly environments: Record<EnvironmentName, EnvironmentInfo>;
  readonly keys: Record<EnvironmentName, DemoKeys>;
  readonly keyPrefix: string;
  readonly requests: readonly RequestRecord[];
  injectFault(env: EnvironmentName | 'all', spec: FaultSpec): void;
  /** Test control: the next chat answer(s) of `env` carry exactly `reply.text`. Cleared by reset(). */
  scriptReply(env: EnvironmentName | 'all', reply: ScriptedReply): void;
  /** Streams of every environment waiting at their `holdAfterPieces` now. */
  held(): number;
  /** Lets every stream held by `holdAfterPieces` go on; later holds wait for the next call. */
  resumeHeld(): void;
  clearFaults(): void;
  balance(env: EnvironmentName): number;
  setBalance(env: EnvironmentName, credits: number): void;
  /** Changes the pacing of `env`'s next chat answers (the fields given); reset() restores the options'. Throws on a negative or non-finite number. */
  setPacing(env: EnvironmentName | 'all', pacing: Partial<Pacing>): void;
  /** How `env` dresses its next answers to code-suggestion prompts; reset() restores the options'. */
  setSuggestionStyle(env: EnvironmentName | 'all', style: SuggestionStyle): void;
  /** Wallets, rpm windows, faults, pacing, suggestion style, request log back to start (keys stay). */
  reset(): void;
  /**
   * Another listener of `env`'s service (another host name of it): same keys, wallet, faults and request
   * log, with faults of its own (ListenerMode). Closed with the emulator.
   */
  addListener(env: EnvironmentName): Promise<ExtraListener>;
  /** Also destroys open sockets. */
  close(): Promise<void>;
}

/** Options with every default filled in. */
export interface ResolvedOptions {
  host: string;
  ports: Record<EnvironmentName, number>;
  keyPrefix: string;
  fullKeys: Partial<Record<EnvironmentName, string>>;
  tokensPerSecond: number;
  firstTokenDelayMs: number;
  suggestionStyle: SuggestionStyle;
  imageSizes: string[];
  initialCredits: number;
  prices: { chatPerRequest: number; chatPer1kTokens: number; image: number };
  modelPacing: Record<string, Partial<Pacing>>;
  modelPrices: Record<string, { chatPerRequest?: number; chatPer1kTokens?: number }>;
  defaultRpm: number;
  maxOutputTokens: number;
  modelsWithoutTools: string[];
  modelsWithoutImages: string[];
  toolArgumentChunkChars: number;
}

export const DEFAULT_IMAGE_SIZES = ['256x256', '512x512', '768x768', '1024x1024', '1024x768', '768x1024'];

export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  return {
    host: options.host ?? '127.0.0.1',
    ports: { production: options.ports?.production ?? 0, preview: options.ports?.preview ?? 0 },
    keyPrefix: options.keyPrefix ?? 'svc-',
    fullKeys: { ...options.fullKeys },
    tokensPerSecond: options.tokensPerSecond ?? 0,
    firstTokenDelayMs: options.firstTokenDelayMs ?? 0,
    suggestionStyle: options.suggestionStyle ?? 'plain',
    imageSizes: options.imageSizes ?? [...DEFAULT_IMAGE_SIZES],
    initialCredits: options.initialCredits ?? 1000,
    prices: {
      chatPerRequest: options.prices?.chatPerRequest ?? 0.5,
      chatPer1kTokens: options.prices?.chatPer1kTokens ?? 2,
      image: options.prices?.image ?? 4,
    },
    modelPacing: { ...options.modelPacing },
    modelPrices: { ...options.modelPrices },
    defaultRpm: options.defaultRpm ?? 60,
    maxOutputTokens: options.maxOutputTokens ?? 4096,
    modelsWithoutTools: [...(options.modelsWithoutTools ?? [])],
    modelsWithoutImages: [...(options.modelsWithoutImages ?? [])],
    toolArgumentChunkChars: Math.max(1, options.toolArgumentChunkChars ?? 8),
  };
}

/**
 * What an extra listener does with a connection: `serve` answers as the service; `edge-503` answers
 * 503 with an HTML page (a load balancer whose backend is down; nothing is logged or billed);
 * `reset` accepts the connection and resets it before reading the request; `stopped` listens no more
 * (connection refused; the port is kept for `serve` again).
 */
export type ListenerMode = 'serve' | 'edge-503' | 'reset' | 'stopped';

export interface ExtraListener {
  readonly origin: string;
  readonly baseUrl: string;
  setMode(mode: ListenerMode): Promise<void>;
}
