import * as l10n from '@vscode/l10n';
import { ApiError } from './errors';
import type { ChatRequest, CompletedToolCall, ResponseMeta } from './types';

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

/** The names of the tools a request offered: the only calls its answer may carry. */
export function offeredToolNames(request: Pick<ChatRequest, 'tools'>): string[] {
  return (request.tools ?? []).map((tool) => tool.function.name);
}

/**
 * Keys that, copied by assignment (`Object.assign`, `target[key] = value`, a naive merge), reach an
 * object's prototype rather than the object: `JSON.parse` makes them ordinary own keys.
 */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Puts streamed `delta.tool_calls` pieces back together. The common chat format sends a call's id
 * and name once and its JSON arguments in pieces, keyed by `index`; some services omit the index,
 * in which case a new id starts a new call and a piece without one continues the last call.
 */
export class ToolCallAssembler {
  readonly #calls = new Map<number, PartialCall>();
  readonly #offered: ReadonlySet<string>;
  #lastIndex = -1;

  /** `offered`: the tool names the request offered (`offeredToolNames`); a call to any other is refused. */
  constructor(offered: Iterable<string>) {
    this.#offered = new Set(offered);
  }

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
   * The assembled calls in index order, each with its arguments parsed; clears the assembler. A call
   * without a name, to a tool the request did not offer, or with arguments that are not a JSON
   * object or carry a prototype key is an error naming the tool: none of the answer's calls is run.
   */
  finish(meta: ResponseMeta): CompletedToolCall[] {
    const calls = [...this.#calls.entries()].sort(([a], [b]) => a - b).map(([index, call]) => completeCall(call, index, meta, this.#offered));
    this.#calls.clear();
    this.#lastIndex = -1;
    return calls;
  }
}

function preview(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

function completeCall(call: PartialCall, index: number, meta: ResponseMeta, offered: ReadonlySet<string>): CompletedToolCall {
  const refuse = (message: string) => new ApiError('malformedResponse', message, { meta, status: meta.status });
  if (!call.name) throw refuse(l10n.t('The service sent tool call #{0} without a tool name; it cannot be run.', index + 1));
  // Checked on the whole name: pieces of it ("run_in" + "_terminal") may each look like an offered one.
  if (!offered.has(call.name)) {
    throw refuse(l10n.t('The service sent a call to the tool "{0}", which this request did not offer, so the call was not run.', preview(call.name, 80)));
  }
  const text = call.arguments.trim() === '' ? '{}' : call.arguments;
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    throw refuse(l10n.t('The service sent arguments for the tool "{0}" that are not valid JSON, so the call was not run: {1}', call.name, preview(text, 120)));
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw refuse(l10n.t('The service sent arguments for the tool "{0}" that are not a JSON object, so the call was not run.', call.name));
  }
  const key = prototypeKey(input);
  if (key !== undefined) {
    throw refuse(l10n.t('The service sent arguments for the tool "{0}" with the key "{1}", which can change how the receiving code\'s objects behave, so the call was not run.', call.name, key));
  }
  return { id: call.id || `call_${index}`, name: call.name, arguments: call.arguments, input: input as Record<string, unknown> };
}

/**
 * The first prototype key at any depth of parsed JSON (iterative: arguments may nest deeper than the
 * call stack). The call is refused rather than the key dropped: arguments edited behind the model's
 * back could make the tool do something else than either the model or the user asked for.
 */
function prototypeKey(value: object): string | undefined {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== 'object') continue;
    if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
      continue;
    }
    for (const [key, child] of Object.entries(next)) {
      if (PROTOTYPE_KEYS.has(key)) return key;
      pending.push(child);
    }
  }
  return undefined;
}
