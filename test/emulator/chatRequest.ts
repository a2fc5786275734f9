/** Validation of POST /chat/completions bodies. */
import { badRequest } from './errors';
import { isRecord } from './http';
import { parseContent } from './contentParts';
import type { ChatMessage } from './textgen';
import { checkToolTurns, parseToolCalls, parseToolChoice, parseTools, type ToolChoice, type ToolDefinition } from './tools';

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream: boolean;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  serviceParameters?: unknown;
  tools: ToolDefinition[];
  toolChoice: ToolChoice;
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

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
  const messages = body.messages.map((m: unknown, i): ChatMessage => {
    if (!isRecord(m) || typeof m.role !== 'string' || !ROLES.has(m.role)) {
      throw badRequest('invalid_messages', `messages[${i}] needs a role (one of ${[...ROLES].join(', ')}).`);
    }
    const toolCalls = m.role === 'assistant' && m.tool_calls !== undefined && m.tool_calls !== null ? parseToolCalls(m.tool_calls, i) : undefined;
    // An assistant message that calls tools may leave its content out.
    if (!('content' in m) && !toolCalls) throw badRequest('invalid_messages', `messages[${i}] needs a content.`);
    const { text, images } = parseContent(m.content ?? null, i);
    if (images.length && m.role !== 'user') throw badRequest('invalid_messages', `messages[${i}]: only user messages may carry images.`);
    const message: ChatMessage = { role: m.role, content: text, ...(images.length && { images }) };
    if (toolCalls) message.toolCalls = toolCalls;
    if (m.role === 'tool') {
      if (typeof m.tool_call_id !== 'string') throw badRequest('invalid_messages', `messages[${i}] (role "tool") needs a "tool_call_id".`);
      message.toolCallId = m.tool_call_id;
    }
    return message;
  });
  checkToolTurns(messages);
  const tools = parseTools(body.tools);
  const toolChoice = parseToolChoice(body.tool_choice, tools);
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
    tools,
    toolChoice,
  };
}
