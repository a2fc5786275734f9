/**
 * The entries of a model list that can be used. One entry the extension cannot use (an id that is not
 * a name, a `created` no date can hold, such as 1e300) is skipped and said why, for the log; it never
 * fails the whole list, so the other models stay usable.
 */
import { hasControlCharacters } from '../logText';
import type { Model } from './types';

/** Milliseconds a JavaScript Date can hold either side of 1970 (ECMAScript's time value range). */
const MAX_DATE_MS = 8.64e15;
/** Longer than any model id; a longer one is not a name a user could pick from a list. */
const MAX_ID_LENGTH = 256;

export interface ModelEntries {
  models: Model[];
  /** One sentence per skipped entry, for the log. */
  skipped: string[];
}

function problemOf(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'it is not an object';
  const { id, created, object, owned_by: ownedBy } = entry as Record<string, unknown>;
  if (typeof id !== 'string' || id.trim() === '') return '"id" is not a name';
  // A control character would break a log line or a picker's row.
  if (id.length > MAX_ID_LENGTH || hasControlCharacters(id)) return '"id" is too long or holds control characters';
  if (created !== undefined && created !== null && !(typeof created === 'number' && Number.isFinite(created) && Math.abs(created * 1000) <= MAX_DATE_MS)) {
    return '"created" is not a timestamp a date can hold';
  }
  for (const [name, value] of [['object', object], ['owned_by', ownedBy]] as const) {
    if (value !== undefined && value !== null && typeof value !== 'string') return `"${name}" is not a string`;
  }
  return undefined;
}

/** What part of an entry is safe to quote in a log line: its id, shortened and JSON-quoted. */
function describeEntry(entry: unknown, index: number): string {
  const id = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>).id : undefined;
  const quoted = typeof id === 'string' ? JSON.stringify(id.length > 80 ? `${id.slice(0, 79)}…` : id) : undefined;
  return `model entry ${index}${quoted ? ` (${quoted})` : ''}`;
}

/** A model list's `data` array → the usable models, and why each other entry was skipped. */
export function readModelEntries(data: readonly unknown[]): ModelEntries {
  const models: Model[] = [];
  const skipped: string[] = [];
  data.forEach((entry, index) => {
    const problem = problemOf(entry);
    if (problem) skipped.push(`skipped ${describeEntry(entry, index)} of the model list: ${problem}`);
    else models.push(entry as Model);
  });
  return { models, skipped };
}
