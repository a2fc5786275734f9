import * as l10n from '@vscode/l10n';
import { ApiError } from './errors';
import type { CompletedToolCall, ResponseMeta } from './types';

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Puts streamed `delta.tool_calls` pieces back together. The common chat format sends a call's id
 * and name once and its JSON arguments in pieces, keyed by `index`; some services omit the index,
 * in which case a new id starts a new call and a piece without one continues the last call.
 */
export class ToolCallAssembler {
  readonly #calls = new Map<number, PartialCall>();
  #lastIndex = -1;

  get pending(): boolean {
    return this.#calls.size > 0;
  }

  /** Feeds the `tool_calls` array of one chunk's delta (any shape; unusable items are skipped). */
  add(toolCalls: unknown): void {
    if (!Array.isArray(toolCalls)) return;
    for (const item of toolCalls) {
      if (!item || typeof item !== 'object') continue;
      const piece = item as { index?: unknown; id?: unknown; function?: { name?: unknown; arguments?: unknown } };
      const id = typeof piece.id === 'string' && piece.id ? piece.id : undefined;
      let index: number;
      if (typeof piece.index === 'number' && Number.isInteger(piece.index)) index = piece.index;
      else if (id !== undefined && this.#calls.get(this.#lastIndex)?.id !== id) index = this.#lastIndex + 1;
      else index = Math.max(0, this.#lastIndex);
      this.#lastIndex = Math.max(this.#lastIndex, index);
      const call = this.#calls.get(index) ?? { id: '', name: '', arguments: '' };
      if (id !== undefined && !call.id) call.id = id;
      const name = piece.function?.name;
      if (typeof name === 'string' && name) call.name = call.name && call.name !== name ? call.name + name : name;
      const args = piece.function?.arguments;
      if (typeof args === 'string') call.arguments += args;
      // Some services send arguments as an object rather than a JSON string.
      else if (args && typeof args === 'object') call.arguments += JSON.stringify(args);
      this.#calls.set(index, call);
    }
  }

  /**
   * The assembled calls in index order, each with its arguments parsed; clears the assembler.
   * A call without a name or with arguments that are not a JSON object is an error naming the tool.
   */
  finish(meta: ResponseMeta): CompletedToolCall[] {
    const calls = [...this.#calls.entries()].sort(([a], [b]) => a - b).map(([index, call]) => completeCall(call, index, meta));
    this.#calls.clear();
    this.#lastIndex = -1;
    return calls;
  }
}

function completeCall(call: PartialCall, index: number, meta: ResponseMeta): CompletedToolCall {
  if (!call.name) {
    throw new ApiError('malformedResponse', l10n.t('The service sent tool call #{0} without a tool name; it cannot be run.', index + 1), { meta, status: meta.status });
  }
  const text = call.arguments.trim() === '' ? '{}' : call.arguments;
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    const preview = text.length > 120 ? `${text.slice(0, 119)}…` : text;
    throw new ApiError('malformedResponse', l10n.t('The service sent arguments for the tool "{0}" that are not valid JSON, so the call was not run: {1}', call.name, preview), { meta, status: meta.status });
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new ApiError('malformedResponse', l10n.t('The service sent arguments for the tool "{0}" that are not a JSON object, so the call was not run.', call.name), { meta, status: meta.status });
  }
  return { id: call.id || `call_${index}`, name: call.name, arguments: call.arguments, input: input as Record<string, unknown> };
}
