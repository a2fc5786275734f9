/** Validation of POST /chat/completions bodies. */
import { badRequest } from './errors';
import { isRecord } from './http';
import type { ChatMessage } from './textgen';
import type { ToolCallLog } from './types';

/** A message as received: tool fields only when the message carried them (so the generated text is unchanged). */
export interface ReceivedMessage extends ChatMessage {
  tool_calls?: ToolCallLog[];
  tool_call_id?: string;
}

export interface ChatRequest {
  model: string;
  messages: ReceivedMessage[];
  /** Names of the offered tools (common format `tools[].function.name`). */
  tools?: string[];
  stream: boolean;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  serviceParameters?: unknown;
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

function contentText(content: unknown, index: number): string {
  if (typeof content === 'string') return content;
  if (content === null) return '';
  if (Array.isArray(content)) {
    return content.map((part: unknown) => {
      if (isRecord(part) && part.type === 'text' && typeof part.text === 'string') return part.text;
      throw badRequest('invalid_messages', `messages[${index}].content parts must be {"type":"text","text":"..."}.`);
    }).join('');
  }
  throw badRequest('invalid_messages', `messages[${index}].content must be a string or an array of text parts.`);
}

function toolCallsOf(value: unknown, index: number): ToolCallLog[] {
  if (!Array.isArray(value)) throw badRequest('invalid_messages', `messages[${index}].tool_calls must be an array.`);
  return value.map((call: unknown) => {
    const fn = isRecord(call) ? call.function : undefined;
    if (!isRecord(call) || typeof call.id !== 'string' || !isRecord(fn) || typeof fn.name !== 'string' || typeof fn.arguments !== 'string') {
      throw badRequest('invalid_messages', `messages[${index}].tool_calls items need "id" and "function": {"name", "arguments"} strings.`);
    }
    return { id: call.id, name: fn.name, arguments: fn.arguments };
  });
}

function toolNames(value: unknown): string[] {
  if (!Array.isArray(value)) throw badRequest('invalid_parameter', '"tools" must be an array.');
  return value.map((tool: unknown) => {
    const fn = isRecord(tool) ? tool.function : undefined;
    if (!isRecord(tool) || tool.type !== 'function' || !isRecord(fn) || typeof fn.name !== 'string') {
      throw badRequest('invalid_parameter', '"tools" items must be {"type":"function","function":{"name", …}}.');
    }
    return fn.name;
  });
}

function optionalNumber(body: Record<string, unknown>, field: string, min: number, max: number): number | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
    throw badRequest('invalid_parameter', `${field} must be a number between ${min} and ${max}.`);
  }
  return v;
}

export function parseChatRequest(body: unknown, maxOutputTokens: number): ChatRequest {
  if (!isRecord(body)) throw badRequest('invalid_body', 'The request body must be a JSON object.');
  if (typeof body.model !== 'string' || body.model.trim() === '') throw badRequest('missing_model', '"model" is required and must be a string.');
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    throw badRequest('invalid_messages', '"messages" is required and must be a non-empty array.');
  }
  const messages = body.messages.map((m: unknown, i): ReceivedMessage => {
    if (!isRecord(m) || typeof m.role !== 'string' || !ROLES.has(m.role)) {
      throw badRequest('invalid_messages', `messages[${i}] needs a role (one of ${[...ROLES].join(', ')}).`);
    }
    if (!('content' in m)) throw badRequest('invalid_messages', `messages[${i}] needs a content.`);
    const message: ReceivedMessage = { role: m.role, content: contentText(m.content, i) };
    if (m.role === 'assistant' && m.tool_calls !== undefined && m.tool_calls !== null) message.tool_calls = toolCallsOf(m.tool_calls, i);
    if (m.role === 'tool') {
      if (typeof m.tool_call_id !== 'string') throw badRequest('invalid_messages', `messages[${i}] (role tool) needs a "tool_call_id".`);
      message.tool_call_id = m.tool_call_id;
    }
    return message;
  });
  const tools = body.tools === undefined || body.tools === null ? undefined : toolNames(body.tools);
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') {
    throw badRequest('invalid_parameter', '"stream" must be a boolean.');
  }
  const temperature = optionalNumber(body, 'temperature', 0, 2);
  const topP = optionalNumber(body, 'top_p', 0, 1);
  let maxTokens: number | undefined;
  if (body.max_tokens !== undefined && body.max_tokens !== null) {
    if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens) || body.max_tokens < 1 || body.max_tokens > maxOutputTokens) {
      throw badRequest('invalid_parameter', `"max_tokens" must be an integer between 1 and ${maxOutputTokens}.`);
    }
    maxTokens = body.max_tokens;
  }
  if (body.service_parameters !== undefined && body.service_parameters !== null && !isRecord(body.service_parameters)) {
    throw badRequest('invalid_parameter', '"service_parameters" must be an object.');
  }
  return {
    model: body.model,
    messages,
    stream: body.stream === true,
    maxTokens,
    temperature,
    topP,
    serviceParameters: body.service_parameters ?? undefined,
    ...(tools && { tools }),
  };
}
