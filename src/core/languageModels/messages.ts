import type { ChatRequestMessage, ChatToolCall } from '../api/types';

/** A message of VS Code's language model API, reduced to plain data by the host (no vscode import here). */
export interface NeutralMessage {
  role: 'system' | 'user' | 'assistant';
  parts: NeutralPart[];
}

export type NeutralPart =
  | { kind: 'text'; text: string }
  | { kind: 'toolCall'; callId: string; name: string; input: object }
  | { kind: 'toolResult'; callId: string; text: string };

export interface MappingOptions {
  /**
   * For a model that takes no tools: earlier tool calls and results become plain text, so the
   * conversation keeps its content without sending `tool_calls` or `tool` messages.
   */
  toolsAsText?: boolean;
}

function text(parts: NeutralPart[]): string {
  return parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
}

/**
 * Maps language-model messages to the common chat format: a user message's tool results become
 * `role: "tool"` messages placed first (they must follow the assistant turn that called the tools),
 * then its text; an assistant message's tool calls become `tool_calls` next to its text.
 */
export function toChatMessages(messages: readonly NeutralMessage[], options: MappingOptions = {}): ChatRequestMessage[] {
  const names = new Map<string, string>();
  const out: ChatRequestMessage[] = [];
  for (const message of messages) {
    const body = text(message.parts);
    if (message.role === 'system') {
      if (body) out.push({ role: 'system', content: body });
      continue;
    }
    if (message.role === 'assistant') {
      const calls: ChatToolCall[] = [];
      for (const part of message.parts) {
        if (part.kind !== 'toolCall') continue;
        names.set(part.callId, part.name);
        calls.push({ id: part.callId, type: 'function', function: { name: part.name, arguments: JSON.stringify(part.input ?? {}) } });
      }
      if (calls.length === 0) {
        out.push({ role: 'assistant', content: body });
      } else if (options.toolsAsText) {
        const described = calls.map((call) => `[called tool ${call.function.name} with ${call.function.arguments}]`).join('\n');
        out.push({ role: 'assistant', content: body ? `${body}\n${described}` : described });
      } else {
        out.push({ role: 'assistant', content: body || null, tool_calls: calls });
      }
      continue;
    }
    const results = message.parts.filter((part): part is Extract<NeutralPart, { kind: 'toolResult' }> => part.kind === 'toolResult');
    if (options.toolsAsText) {
      const described = results.map((result) => `[result of tool ${names.get(result.callId) ?? result.callId}: ${result.text}]`);
      const content = [...described, body].filter(Boolean).join('\n');
      if (content || results.length === 0) out.push({ role: 'user', content });
      continue;
    }
    for (const result of results) out.push({ role: 'tool', tool_call_id: result.callId, content: result.text });
    if (body || results.length === 0) out.push({ role: 'user', content: body });
  }
  return out;
}
