/**
 * Tool calls in the common chat format (`tools`, `tool_choice`, assistant `tool_calls`, `role: "tool"`
 * messages). The contract only says messages are "in the common chat format"; what the emulator accepts
 * and how its models decide to call a tool are its own choices, listed in README.md.
 */
import { badRequest } from './errors';
import { isRecord } from './http';
import type { ChatMessage } from './textgen';
import type { ToolCallLog } from './types';

export interface ToolDefinition { name: string; description?: string; parameters?: Record<string, unknown> }
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };
/** A call as an assistant message carries it (and the request log records it). */
export type ToolCall = ToolCallLog;

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function parseTools(value: unknown): ToolDefinition[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw badRequest('invalid_tools', '"tools" must be an array.');
  return value.map((tool: unknown, i): ToolDefinition => {
    const fn = isRecord(tool) ? tool.function : undefined;
    if (!isRecord(tool) || tool.type !== 'function' || !isRecord(fn) || typeof fn.name !== 'string' || !TOOL_NAME.test(fn.name)) {
      throw badRequest('invalid_tools', `tools[${i}] must be {"type":"function","function":{"name":"[A-Za-z0-9_-]{1,64}",...}}.`);
    }
    if (fn.parameters !== undefined && !isRecord(fn.parameters)) throw badRequest('invalid_tools', `tools[${i}].function.parameters must be a JSON schema object.`);
    return {
      name: fn.name,
      ...(typeof fn.description === 'string' && { description: fn.description }),
      ...(isRecord(fn.parameters) && { parameters: fn.parameters }),
    };
  });
}

export function parseToolChoice(value: unknown, tools: readonly ToolDefinition[]): ToolChoice {
  if (value === undefined || value === null) return 'auto';
  if (value === 'none' || value === 'auto') return value;
  if (tools.length === 0) throw badRequest('invalid_tool_choice', '"tool_choice" other than "none" or "auto" needs "tools".');
  if (value === 'required') return value;
  const name = isRecord(value) && value.type === 'function' && isRecord(value.function) ? value.function.name : undefined;
  if (typeof name !== 'string' || !tools.some((t) => t.name === name)) {
    throw badRequest('invalid_tool_choice', '"tool_choice" must be "none", "auto", "required" or {"type":"function","function":{"name":<one of tools>}}.');
  }
  return { name };
}

/** The `tool_calls` of an assistant message. */
export function parseToolCalls(value: unknown, index: number): ToolCall[] {
  if (!Array.isArray(value)) throw badRequest('invalid_messages', `messages[${index}].tool_calls must be an array.`);
  return value.map((call: unknown, j): ToolCall => {
    const fn = isRecord(call) ? call.function : undefined;
    if (!isRecord(call) || typeof call.id !== 'string' || call.type !== 'function' || !isRecord(fn) || typeof fn.name !== 'string' || typeof fn.arguments !== 'string') {
      throw badRequest('invalid_messages', `messages[${index}].tool_calls[${j}] must be {"id","type":"function","function":{"name","arguments":"<JSON string>"}}.`);
    }
    return { id: call.id, name: fn.name, arguments: fn.arguments };
  });
}

/**
 * Every tool call must be answered by `role: "tool"` messages right after the assistant message that
 * made it, and every tool message must answer such a call (as common chat-format services require).
 */
export function checkToolTurns(messages: readonly ChatMessage[]): void {
  let open: Set<string> | undefined;
  messages.forEach((m, i) => {
    if (m.role === 'tool') {
      if (!open || m.toolCallId === undefined || !open.delete(m.toolCallId)) {
        throw badRequest('invalid_tool_message', `messages[${i}] (role "tool") must answer a tool_call_id of the assistant message before it.`);
      }
      return;
    }
    if (open && open.size > 0) throw badRequest('missing_tool_result', `messages[${i}]: the tool call(s) ${[...open].join(', ')} have no "tool" message answering them.`);
    open = m.toolCalls && m.toolCalls.length > 0 ? new Set(m.toolCalls.map((c) => c.id)) : undefined;
  });
  if (open && open.size > 0) throw badRequest('missing_tool_result', `The tool call(s) ${[...open].join(', ')} have no "tool" message answering them.`);
}

/** A placeholder value of a JSON schema's type, so generated arguments validate against simple schemas. */
function sampleValue(schema: unknown): unknown {
  const type = isRecord(schema) ? schema.type : undefined;
  if (isRecord(schema) && Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  switch (type) {
    case 'string': return 'emulated';
    case 'number': case 'integer': return 1;
    case 'boolean': return true;
    case 'array': return [];
    case 'object': return sampleArguments(schema);
    default: return null;
  }
}

function sampleArguments(schema: unknown): Record<string, unknown> {
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, sampleValue(property)]));
}

/**
 * The generated (not scripted) model's decision: with tools offered and a user message last, it calls
 * the tool `tool_choice` names, or with "required" the first tool, or with "auto" the first tool whose
 * name the last user message mentions; otherwise it answers in text. Arguments fill the schema's
 * properties with placeholder values of their types.
 */
export function chooseToolCall(messages: readonly ChatMessage[], tools: readonly ToolDefinition[], choice: ToolChoice, callId: string): ToolCall | undefined {
  if (tools.length === 0 || choice === 'none' || messages.at(-1)?.role !== 'user') return undefined;
  const lastUser = messages.at(-1)?.content ?? '';
  const tool = typeof choice === 'object'
    ? tools.find((t) => t.name === choice.name)
    : choice === 'required' ? tools[0] : tools.find((t) => lastUser.includes(t.name));
  if (!tool) return undefined;
  return { id: callId, name: tool.name, arguments: JSON.stringify(sampleArguments(tool.parameters)) };
}
