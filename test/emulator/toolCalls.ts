/**
 * Tool calls in the common format, for scripted replies (a test control): the model's choice to call a
 * tool is the service's, so only a scripted reply makes one. Non-streamed they sit in
 * `message.tool_calls`; streamed, each call opens with its id and name, then its arguments follow in pieces.
 */
import { randomBytes } from 'node:crypto';
import { splitEvery } from './scripted';
import { tokenize } from './textgen';
import type { ScriptedToolCall } from './types';

export interface IdentifiedToolCall extends ScriptedToolCall { id: string }

const DEFAULT_ARGUMENT_CHARS = 8;

export function identifyToolCalls(calls: readonly ScriptedToolCall[]): IdentifiedToolCall[] {
  return calls.map((call) => ({ ...call, id: `call_${randomBytes(8).toString('hex')}` }));
}

/** The `tool_calls` of a non-streamed message. */
export function messageToolCalls(calls: readonly IdentifiedToolCall[]): unknown[] {
  return calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
}

/** The `delta` objects that stream the calls: one opening each call, then its arguments in pieces. */
export function toolCallDeltas(calls: readonly IdentifiedToolCall[], chunkChars = DEFAULT_ARGUMENT_CHARS): Record<string, unknown>[] {
  const deltas: Record<string, unknown>[] = [];
  calls.forEach((call, index) => {
    deltas.push({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const piece of splitEvery(call.arguments, chunkChars)) deltas.push({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  return deltas;
}

/** Billed like text: the words of the names and arguments. */
export function toolCallTokens(calls: readonly ScriptedToolCall[]): number {
  return calls.reduce((sum, call) => sum + tokenize(`${call.name} ${call.arguments}`).length, 0);
}
