import type { ConversationSummary } from '../conversation';
import { isCount, parseJson } from '../../json';

/**
 * The history index: one summary per conversation, so that Chat History lists without opening any
 * conversation. It is a cache of the files, never trusted over them: each entry carries the size and
 * modification time its log had when the entry was made, and an entry whose log now differs (another
 * window or an older version of the extension wrote it, a crash fell between the log's write and the
 * index's) is made again from the log. A log without an entry is read; an entry without a log is dropped.
 *
 * The file (`historyFileNames.ts` names it) is JSON lines, like the logs: a first line with the format's
 * version, then one line per entry or removal, the last line of an id winning. A save appends one line
 * (appends of several windows do not overwrite each other); the file is rewritten whole, through a
 * temporary file, when superseded lines outweigh the live ones. A torn last line is skipped.
 */

export const HISTORY_INDEX_VERSION = 1;

/** The log's size and modification time when its entry was made; absent: the entry must be checked against its log. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

export interface IndexEntry {
  summary: ConversationSummary;
  stamp?: FileStamp;
}

type IndexLine = { id: string; removed: true } | (ConversationSummary & { stamp?: FileStamp });

export function encodeIndexHeader(): string {
  return `${JSON.stringify({ v: HISTORY_INDEX_VERSION })}\n`;
}

export function encodeIndexEntry(entry: IndexEntry): string {
  const line: IndexLine = { ...entry.summary, ...(entry.stamp && { stamp: entry.stamp }) };
  return `${JSON.stringify(line)}\n`;
}

export function encodeIndexRemoval(id: string): string {
  return `${JSON.stringify({ id, removed: true } satisfies IndexLine)}\n`;
}

/** The whole index as a file (for a rewrite), entries in the given order. */
export function encodeIndex(entries: Iterable<IndexEntry>): string {
  let text = encodeIndexHeader();
  for (const entry of entries) text += encodeIndexEntry(entry);
  return text;
}

const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function parseStamp(raw: unknown): FileStamp | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { size, mtimeMs } = raw as Record<string, unknown>;
  return isFiniteNumber(size) && isFiniteNumber(mtimeMs) ? { size, mtimeMs } : undefined;
}

/** One line back to an entry; anything malformed is undefined (its conversation is then read from its log). */
function parseEntry(value: Record<string, unknown>): IndexEntry | undefined {
  const { id, title, createdAt, updatedAt, messageCount, model, credits } = value;
  if (typeof id !== 'string' || typeof title !== 'string' || !isFiniteNumber(createdAt) || !isFiniteNumber(updatedAt)) return undefined;
  if (!isFiniteNumber(messageCount) || !isFiniteNumber(credits) || (model !== undefined && typeof model !== 'string')) return undefined;
  const stamp = parseStamp(value.stamp);
  const summary: ConversationSummary = { id, title, createdAt, updatedAt, messageCount, ...(model !== undefined && { model }), credits };
  // Optional, added with comparisons: older lines lack them, and a malformed pair is dropped, the entry kept.
  const { comparisons, comparedModels } = value;
  if (isCount(comparisons) && comparisons > 0 && isCount(comparedModels)) Object.assign(summary, { comparisons, comparedModels });
  return { summary, ...(stamp && { stamp }) };
}

export interface ParsedIndex {
  entries: Map<string, IndexEntry>;
  /** Lines read (entries, removals and unreadable ones): with `entries.size`, when to rewrite. */
  lines: number;
  /** Whether the file had a header of this version: appending to anything else would be lost. */
  valid: boolean;
}

/** The index file's content; an unknown version or an unreadable header gives an empty index (everything is read again). */
export function parseIndex(text: string): ParsedIndex {
  const entries = new Map<string, IndexEntry>();
  const lines = text.split('\n');
  // The last piece is what follows the last newline: empty, or a write a crash cut short.
  lines.pop();
  const header = parseJson(lines[0] ?? '');
  if (typeof header !== 'object' || header === null || (header as Record<string, unknown>).v !== HISTORY_INDEX_VERSION) return { entries, lines: 0, valid: false };
  for (const line of lines.slice(1)) {
    const raw = parseJson(line);
    if (typeof raw !== 'object' || raw === null) continue;
    const value = raw as Record<string, unknown>;
    if (typeof value.id !== 'string') continue;
    if (value.removed === true) {
      entries.delete(value.id);
      continue;
    }
    const entry = parseEntry(value);
    // An unreadable entry must not leave an older one standing for its id.
    if (entry) entries.set(entry.summary.id, entry);
    else entries.delete(value.id);
  }
  return { entries, lines: lines.length - 1, valid: true };
}

export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** Whether an entry still describes its log. */
export function stampMatches(entry: IndexEntry | undefined, stamp: FileStamp): boolean {
  return entry?.stamp !== undefined && sameStamp(entry.stamp, stamp);
}

/** Superseded lines may outweigh live ones by this factor (plus a margin) before the file is rewritten. */
export function indexNeedsRewrite(index: ParsedIndex): boolean {
  return index.lines > 2 * index.entries.size + 64;
}
