/**
 * Common chat-completions responses → Anthropic Messages responses: one message, the event sequence of
 * a stream, the model list and the error shape. Pure: the server feeds it parsed JSON and writes the text.
 */
import { randomBytes } from 'node:crypto';
import type { Model } from '../api/types';
import { isRecord, type Json } from '../json';

export function anthropicId(prefix: 'msg' | 'toolu'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/** The common format's finish reasons in Anthropic's terms; anything unknown ends the turn. */
export function stopReasonOf(finishReason: unknown): string {
  switch (finishReason) {
    case 'length': return 'max_tokens';
    case 'tool_calls':
    case 'function_call': return 'tool_use';
    case 'content_filter': return 'refusal';
    default: return 'end_turn';
  }
}

function usageOf(raw: unknown): { input_tokens: number; output_tokens: number } {
  const usage = isRecord(raw) ? raw : {};
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  return { input_tokens: count(usage.prompt_tokens), output_tokens: count(usage.completion_tokens) };
}

/** Anthropic tool inputs are objects; arguments that are not a JSON object are kept, not dropped. */
export function toolInputOf(argumentsText: string): Json {
  if (argumentsText.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    if (isRecord(parsed)) return parsed;
  } catch {
    // fall through: keep the text as it came
  }
  return { _unparsed_arguments: argumentsText };
}

/** A non-streamed chat completion → one Anthropic message. Throws when the completion has no choice. */
export function completionToMessage(completion: unknown, model: string): Json {
  const record = isRecord(completion) ? completion : {};
  const choice = Array.isArray(record.choices) && isRecord(record.choices[0]) ? record.choices[0] : undefined;
  const message = choice && isRecord(choice.message) ? choice.message : undefined;
  if (!message) throw new Error('The service answered without choices[0].message.');
  const content: Json[] = [];
  if (typeof message.content === 'string' && message.content !== '') content.push({ type: 'text', text: message.content });
  for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
    const fn = isRecord(call) && isRecord(call.function) ? call.function : {};
    content.push({
      type: 'tool_use',
      id: isRecord(call) && typeof call.id === 'string' ? call.id : anthropicId('toolu'),
      name: typeof fn.name === 'string' ? fn.name : '',
      input: toolInputOf(typeof fn.arguments === 'string' ? fn.arguments : ''),
    });
  }
  return {
    id: anthropicId('msg'), type: 'message', role: 'assistant', model, content,
    stop_reason: stopReasonOf(choice?.finish_reason), stop_sequence: null, usage: usageOf(record.usage),
  };
}

export function sseEvent(type: string, data: Json): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

interface OpenBlock { index: number; kind: 'text' | 'tool'; toolIndex?: number }

/**
 * Turns common-format stream chunks into the Anthropic event sequence: message_start, then per block
 * content_block_start / content_block_delta (text_delta, input_json_delta) / content_block_stop, then
 * message_delta (stop reason, usage) and message_stop. Each method returns the text to write.
 */
export class AnthropicStreamTranslator {
  #nextBlock = 0;
  #open: OpenBlock | undefined;
  /** Tool calls by their common-format index → the Anthropic block carrying them. */
  readonly #toolBlocks = new Map<number, number>();
  #finishReason: unknown;
  #usage: unknown;
  #ended = false;

  readonly #model: string;
  readonly #messageId: string;

  constructor(model: string, messageId = anthropicId('msg')) {
    this.#model = model;
    this.#messageId = messageId;
  }

  start(): string {
    return sseEvent('message_start', {
      message: {
        id: this.#messageId, type: 'message', role: 'assistant', model: this.#model, content: [],
        stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 },
      },
    });
  }

  /** One parsed chunk of the common format. */
  chunk(chunk: unknown): string {
    if (!isRecord(chunk) || this.#ended) return '';
    if (chunk.usage !== undefined && chunk.usage !== null) this.#usage = chunk.usage;
    const choice = Array.isArray(chunk.choices) && isRecord(chunk.choices[0]) ? chunk.choices[0] : undefined;
    if (!choice) return '';
    let out = '';
    const delta = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : {};
    if (typeof delta.content === 'string' && delta.content !== '') out += this.#text(delta.content);
    for (const call of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
      if (isRecord(call)) out += this.#toolCall(call);
    }
    if (typeof choice.finish_reason === 'string') this.#finishReason = choice.finish_reason;
    return out;
  }

  /** Closes the open block and the message. */
  finish(): string {
    if (this.#ended) return '';
    this.#ended = true;
    const usage = usageOf(this.#usage);
    return this.#close()
      + sseEvent('message_delta', { delta: { stop_reason: stopReasonOf(this.#finishReason), stop_sequence: null }, usage })
      + sseEvent('message_stop', {});
  }

  /** An error in the protocol's stream shape; the message ends there. */
  error(type: string, message: string): string {
    if (this.#ended) return '';
    this.#ended = true;
    return this.#close() + sseEvent('error', { error: { type, message } });
  }

  /** Whether the upstream stream reported how it finished (a finish reason). */
  get finished(): boolean {
    return this.#finishReason !== undefined;
  }

  #text(text: string): string {
    let out = '';
    if (this.#open?.kind !== 'text') out += this.#close() + this.#startBlock({ kind: 'text' }, { type: 'text', text: '' });
    return out + sseEvent('content_block_delta', { index: this.#open?.index, delta: { type: 'text_delta', text } });
  }

  #toolCall(call: Json): string {
    const toolIndex = typeof call.index === 'number' ? call.index : 0;
    const fn = isRecord(call.function) ? call.function : {};
    let out = '';
    let block = this.#toolBlocks.get(toolIndex);
    if (block === undefined) {
      out += this.#close();
      const id = typeof call.id === 'string' ? call.id : anthropicId('toolu');
      out += this.#startBlock({ kind: 'tool', toolIndex }, { type: 'tool_use', id, name: typeof fn.name === 'string' ? fn.name : '', input: {} });
      block = this.#open?.index as number;
      this.#toolBlocks.set(toolIndex, block);
    }
    // A fragment for an earlier call (interleaved parallel calls) still goes to that call's block.
    if (typeof fn.arguments === 'string' && fn.arguments !== '') {
      out += sseEvent('content_block_delta', { index: block, delta: { type: 'input_json_delta', partial_json: fn.arguments } });
    }
    return out;
  }

  #startBlock(block: Omit<OpenBlock, 'index'>, contentBlock: Json): string {
    this.#open = { ...block, index: this.#nextBlock++ };
    return sseEvent('content_block_start', { index: this.#open.index, content_block: contentBlock });
  }

  #close(): string {
    if (!this.#open) return '';
    const { index } = this.#open;
    this.#open = undefined;
    return sseEvent('content_block_stop', { index });
  }
}

/** GET /v1/models in the Anthropic shape, from the usable entries of the common model list (readModelEntries). */
export function anthropicModelList(models: readonly Model[]): Json {
  const data = models.map(anthropicModel);
  return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
}

export function anthropicModel(model: Model): { type: 'model'; id: string; display_name: string; created_at: string } {
  return { type: 'model', id: model.id, display_name: model.id, created_at: new Date((model.created ?? 0) * 1000).toISOString() };
}

/** Anthropic's error type for an HTTP status; the status itself is kept on the response. */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 400: case 422: return 'invalid_request_error';
    case 401: return 'authentication_error';
    case 402: return 'billing_error';
    case 403: return 'permission_error';
    case 404: return 'not_found_error';
    case 413: return 'request_too_large';
    case 429: return 'rate_limit_error';
    case 504: return 'timeout_error';
    case 529: return 'overloaded_error';
    default: return 'api_error';
  }
}

export function anthropicErrorBody(status: number, message: string, type = anthropicErrorType(status)): Json {
  return { type: 'error', error: { type, message } };
}
