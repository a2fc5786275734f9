/**
 * Anthropic Messages request → common chat-completions request. Pure: no I/O, so every mapping is
 * unit-tested in milliseconds. What has no counterpart in the common format is refused with a clear
 * message rather than dropped silently, except sampling hints that only tune (top_k, metadata).
 */
import { isRecord, type Json } from '../json';
import { DEFAULT_ENDPOINT_LIMITS } from './limits';

/** A request the translation cannot carry: answered 400 in the Anthropic error shape. */
export class TranslationError extends Error {
  override readonly name = 'TranslationError';
}

/** The common format accepts at most this many stop sequences. */
const MAX_STOP_SEQUENCES = 4;


function fail(message: string): never {
  throw new TranslationError(message);
}

function textOf(blocks: unknown, where: string): string {
  if (typeof blocks === 'string') return blocks;
  if (!Array.isArray(blocks)) fail(`${where} must be a string or an array of text blocks.`);
  return blocks.map((block: unknown, i) => {
    if (isRecord(block) && block.type === 'text' && typeof block.text === 'string') return block.text;
    return fail(`${where}[${i}] must be a text block: the service's chat takes text only.`);
  }).join('');
}

function toolResultText(content: unknown, where: string): string {
  if (content === undefined || content === null) return '';
  return textOf(content, `${where}.content`);
}

/** One Anthropic message becomes one or more common messages (tool results are messages of their own). */
function translateMessage(message: unknown, index: number): Json[] {
  const where = `messages[${index}]`;
  if (!isRecord(message) || (message.role !== 'user' && message.role !== 'assistant')) fail(`${where}.role must be "user" or "assistant".`);
  const { role, content } = message;
  if (typeof content === 'string') return [{ role, content }];
  if (!Array.isArray(content)) fail(`${where}.content must be a string or an array of content blocks.`);

  const texts: string[] = [];
  const toolCalls: Json[] = [];
  const toolResults: Json[] = [];
  content.forEach((block: unknown, i) => {
    const at = `${where}.content[${i}]`;
    if (!isRecord(block)) fail(`${at} must be a content block object.`);
    switch (block.type) {
      case 'text':
        if (typeof block.text !== 'string') fail(`${at}.text must be a string.`);
        texts.push(block.text);
        return;
      case 'tool_use':
        if (role !== 'assistant') fail(`${at}: tool_use blocks belong to assistant turns.`);
        if (typeof block.id !== 'string' || typeof block.name !== 'string') fail(`${at} needs an "id" and a "name".`);
        toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } });
        return;
      case 'tool_result': {
        if (role !== 'user') fail(`${at}: tool_result blocks belong to user turns.`);
        if (typeof block.tool_use_id !== 'string') fail(`${at} needs a "tool_use_id".`);
        const text = toolResultText(block.content, at);
        // The common format has no error flag on a tool result: say it in the content the model reads.
        toolResults.push({ role: 'tool', tool_call_id: block.tool_use_id, content: block.is_error === true ? `Error: ${text}` : text });
        return;
      }
      default:
        fail(`${at}: "${String(block.type)}" blocks cannot be sent through this endpoint; the service's chat takes text and tool calls.`);
    }
  });

  if (role === 'assistant') {
    if (toolCalls.length === 0) return [{ role, content: texts.join('') }];
    return [{ role, content: texts.length > 0 ? texts.join('') : null, tool_calls: toolCalls }];
  }
  // Tool results answer the preceding assistant turn, so they come before any new user text.
  return texts.length > 0 || toolResults.length === 0 ? [...toolResults, { role, content: texts.join('') }] : toolResults;
}

function translateTools(tools: unknown): Json[] {
  if (!Array.isArray(tools)) fail('"tools" must be an array.');
  return tools.map((tool: unknown, i) => {
    if (!isRecord(tool) || typeof tool.name !== 'string') fail(`tools[${i}] needs a "name".`);
    if (tool.type !== undefined && tool.type !== 'custom') fail(`tools[${i}]: server tools ("${String(tool.type)}") are not available through this endpoint.`);
    return {
      type: 'function',
      function: {
        name: tool.name,
        ...(typeof tool.description === 'string' && { description: tool.description }),
        parameters: isRecord(tool.input_schema) ? tool.input_schema : { type: 'object', properties: {} },
      },
    };
  });
}

function translateToolChoice(choice: unknown): { tool_choice?: unknown; parallel_tool_calls?: boolean } {
  if (choice === undefined || choice === null) return {};
  if (!isRecord(choice)) fail('"tool_choice" must be an object.');
  const parallel = choice.disable_parallel_tool_use === true ? { parallel_tool_calls: false } : {};
  switch (choice.type) {
    case 'auto': return { tool_choice: 'auto', ...parallel };
    case 'any': return { tool_choice: 'required', ...parallel };
    case 'none': return { tool_choice: 'none' };
    case 'tool':
      if (typeof choice.name !== 'string') fail('"tool_choice" of type "tool" needs a "name".');
      return { tool_choice: { type: 'function', function: { name: choice.name } }, ...parallel };
    default:
      return fail(`"tool_choice.type" "${String(choice.type)}" is not one of auto, any, tool, none.`);
  }
}

function optionalNumber(body: Json, field: string): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(`"${field}" must be a number.`);
  return value;
}

export interface TranslatedRequest {
  /** The common-format body to send to the service. */
  chat: Json;
  model: string;
  stream: boolean;
}

/**
 * What is wrong with a token limit, in either protocol (undefined: nothing; absent or null is allowed,
 * and Anthropic's required field is checked by its caller): a whole number from 1 to `max`.
 */
export function tokenLimitProblem(field: string, value: unknown, max: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max) return undefined;
  return `"${field}" must be a whole number from 1 to ${max} at the local endpoint.`;
}

/** Anthropic Messages body (already parsed JSON) → the common chat-completions body; `maxTokens` bounds `max_tokens`. */
export function anthropicToChat(body: unknown, maxTokensLimit = DEFAULT_ENDPOINT_LIMITS.maxTokens): TranslatedRequest {
  if (!isRecord(body)) fail('The request body must be a JSON object.');
  if (typeof body.model !== 'string' || body.model === '') fail('"model" is required: use an id from GET /v1/models.');
  if (!Array.isArray(body.messages) || body.messages.length === 0) fail('"messages" must be a non-empty array.');
  const maxTokens = body.max_tokens;
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) fail('"max_tokens" is required and must be a positive integer.');
  const tooMany = tokenLimitProblem('max_tokens', maxTokens, maxTokensLimit);
  if (tooMany) fail(tooMany);

  const messages: Json[] = [];
  if (body.system !== undefined && body.system !== null) {
    const system = textOf(body.system, 'system');
    if (system !== '') messages.push({ role: 'system', content: system });
  }
  body.messages.forEach((message: unknown, i) => messages.push(...translateMessage(message, i)));

  const chat: Json = { model: body.model, messages, max_tokens: maxTokens };
  const temperature = optionalNumber(body, 'temperature');
  const topP = optionalNumber(body, 'top_p');
  if (temperature !== undefined) chat.temperature = temperature;
  if (topP !== undefined) chat.top_p = topP;
  if (body.stop_sequences !== undefined && body.stop_sequences !== null) {
    const stops = body.stop_sequences;
    if (!Array.isArray(stops) || !stops.every((s) => typeof s === 'string')) fail('"stop_sequences" must be an array of strings.');
    if (stops.length > MAX_STOP_SEQUENCES) fail(`"stop_sequences" can hold at most ${MAX_STOP_SEQUENCES} entries through this endpoint (the common format's limit).`);
    if (stops.length > 0) chat.stop = stops;
  }
  if (body.tools !== undefined && body.tools !== null) {
    const tools = translateTools(body.tools);
    if (tools.length > 0) chat.tools = tools;
  }
  Object.assign(chat, translateToolChoice(body.tool_choice));
  const stream = body.stream === true;
  if (stream) {
    chat.stream = true;
    // Asks a common-format service for the final usage chunk; the translation copes when none comes.
    chat.stream_options = { include_usage: true };
  }
  return { chat, model: body.model, stream };
}
