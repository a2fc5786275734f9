import { createHash } from 'node:crypto';
import type { Conversation, ConversationMessage } from '../conversation';
import { conversationFromJson, serializeConversation, toStoredConversation, toStoredMessage, type StoredConversation, type StoredMessage } from './serialization';
import { parseJson } from '../../json';

/**
 * The on-disk form of one conversation, designed so that streaming never rewrites the file:
 *
 * - `<id>.json` is a log of JSON lines. Its first line is the whole conversation (exactly the
 *   single-line format of earlier versions, so old files are logs of one line); each later line is a
 *   change: a message added or replaced, a message removed, or the header (title, model, params).
 *   It is rewritten whole ("compacted") only when superseded lines outweigh the live ones.
 * - `<id>.<pid>.stream` is the journal of the answer being streamed by process `pid`: a first line
 *   with the message as it was when the journal began, then one line per write with the new text.
 *   When the answer ends, the finished message is appended to the log and the journal deleted. A
 *   journal whose process is gone is a crash: its text is recovered and the answer marked interrupted.
 *
 * Everything here is pure (strings in, strings out); the file handling is in historyStore.ts (reading,
 * recovery, the write queue) and historyWriter.ts (what each write holds); historyFileNames.ts names the files.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A change line of the log, in the stored form (serialization.ts), read back through its parser. */
export type LogRecord =
  /**
   * `after`: for a message new to the log, the message it followed where it was written. Two windows
   * answering in one conversation at once append their answers after both questions: each answer is
   * placed after its own question (a reader of an earlier version places it last).
   */
  | { op: 'message'; message: StoredMessage; after?: string }
  | { op: 'remove'; id: string }
  | { op: 'header'; header: StoredHeader };

/** Everything of a stored conversation except its messages. */
export type StoredHeader = Omit<StoredConversation, 'messages'>;

export function headerFields(conversation: Conversation): StoredHeader {
  const { messages: _messages, ...header } = toStoredConversation({ ...conversation, messages: [] });
  return header;
}

export function encodeSnapshot(conversation: Conversation): string {
  return `${serializeConversation(conversation)}\n`;
}

export function encodeRecord(record: LogRecord): string {
  return `${JSON.stringify(record)}\n`;
}

/** What could not be read back: a line that is not a record (corrupt), or an unfinished last line (truncated). */
export interface LogProblem {
  kind: 'corrupt' | 'truncated';
  line: number;
}

export interface ReplayedLog {
  /** Undefined when not even the first line (the conversation itself) could be read. */
  conversation: Conversation | undefined;
  problems: LogProblem[];
}

/**
 * Splits a file into lines. A last line without its newline is accepted when it parses (files of
 * earlier versions end so); otherwise it is a write that a crash cut short.
 */
function lines(text: string): { line: string; final: boolean; terminated: boolean }[] {
  const parts = text.split('\n');
  const terminated = text.endsWith('\n');
  if (terminated) parts.pop();
  return parts.map((line, index) => ({ line, final: index === parts.length - 1, terminated: terminated || index < parts.length - 1 }));
}

function applyRecord(raw: Json, record: Json): boolean {
  const messages = raw.messages as unknown[];
  switch (record.op) {
    case 'message': {
      if (!isObject(record.message) || typeof record.message.id !== 'string') return false;
      const index = messages.findIndex((m) => isObject(m) && m.id === (record.message as Json).id);
      if (index >= 0) {
        messages[index] = record.message;
        return true;
      }
      const after = typeof record.after === 'string' ? messages.findIndex((m) => isObject(m) && m.id === record.after) : -1;
      if (after >= 0) messages.splice(after + 1, 0, record.message);
      else messages.push(record.message);
      return true;
    }
    case 'remove':
      if (typeof record.id !== 'string') return false;
      raw.messages = messages.filter((m) => !(isObject(m) && m.id === record.id));
      return true;
    case 'header':
      if (!isObject(record.header)) return false;
      for (const key of Object.keys(raw)) if (key !== 'messages' && key !== 'v' && key !== 'id') delete raw[key];
      for (const [key, value] of Object.entries(record.header)) if (key !== 'messages' && key !== 'v' && key !== 'id') raw[key] = value;
      return true;
    default:
      return false;
  }
}

/** The conversation a log describes, plus anything in it that could not be read. */
export function replayLog(text: string, journals: readonly string[] = []): ReplayedLog {
  const problems: LogProblem[] = [];
  const all = lines(text);
  const first = all[0] ? parseJson(all[0].line) : undefined;
  if (!isObject(first) || !Array.isArray(first.messages)) {
    return { conversation: undefined, problems: [{ kind: all[0] && !all[0].terminated ? 'truncated' : 'corrupt', line: 1 }] };
  }
  const raw: Json = first;
  all.slice(1).forEach(({ line, final, terminated }, index) => {
    const record = parseJson(line);
    if (!isObject(record) || !applyRecord(raw, record)) {
      if (line.trim() === '' && terminated) return;
      problems.push({ kind: final && !terminated ? 'truncated' : 'corrupt', line: index + 2 });
    }
  });
  for (const journal of journals) {
    const entry = replayJournalEntry(journal);
    if (entry) applyRecord(raw, { op: 'message', ...entry });
  }
  const conversation = conversationFromJson(raw);
  if (!conversation) problems.push({ kind: 'corrupt', line: 1 });
  return { conversation, problems };
}

// ---------------------------------------------------------------------------------------------
// The journal of a streaming answer

/**
 * The message without its text: what a `patch` line carries when status or metadata change mid-stream.
 * A comparison's columns go without theirs too: each column's text has its own lines (`c`).
 */
function withoutText(message: ConversationMessage): Json {
  const comparison = message.comparison && {
    ...message.comparison,
    columns: message.comparison.columns.map((column) => ({ ...column, answer: { ...column.answer, text: '' } })),
  };
  const { text: _text, ...rest } = toStoredMessage({ ...message, text: '', ...(comparison && { comparison }) });
  return rest;
}

/** `after`: the message the answer follows, so that a crash's recovered answer goes back after its question. */
export function encodeJournalStart(message: ConversationMessage, after?: string): string {
  return `${JSON.stringify({ op: 'begin', message: toStoredMessage(message), ...(after !== undefined && { after }) })}\n`;
}

/** `column`: the index of the comparison's column the text is of (a comparison streams several answers at once). */
export function encodeJournalText(text: string, column?: number): string {
  return `${JSON.stringify(column === undefined ? { t: text } : { t: text, c: column })}\n`;
}

export function encodeJournalPatch(message: ConversationMessage): string {
  return `${JSON.stringify({ op: 'patch', message: withoutText(message) })}\n`;
}

/** The fields a patch line would carry, as a comparable string. */
export function journalPatchKey(message: ConversationMessage): string {
  return JSON.stringify(withoutText(message));
}

/**
 * The message a journal holds: its start, every text write after it (up to the last complete line),
 * and the last patch. Returns undefined when the journal has no readable start.
 */
export function replayJournal(text: string): StoredMessage | undefined {
  return replayJournalEntry(text)?.message;
}

/** The journal's message, and the message it follows when its start names one. */
function replayJournalEntry(text: string): { message: StoredMessage; after?: string } | undefined {
  let message: Json | undefined;
  let after: string | undefined;
  let body = '';
  /** A comparison's columns' texts, by index. */
  let columns: string[] = [];
  for (const { line, terminated } of lines(text)) {
    if (!terminated) break; // The write a crash interrupted: everything before it is kept.
    const record = parseJson(line);
    if (!isObject(record)) continue;
    if (record.op === 'begin' && isObject(record.message) && typeof record.message.text === 'string') {
      message = { ...record.message };
      body = record.message.text;
      columns = storedColumns(message).map((column) => (isObject(column) && isObject(column.answer) && typeof column.answer.text === 'string' ? column.answer.text : ''));
      after = typeof record.after === 'string' ? record.after : undefined;
    } else if (message && typeof record.t === 'string' && typeof record.c === 'number') {
      if (Number.isInteger(record.c) && record.c >= 0 && record.c < columns.length) columns[record.c] += record.t;
    } else if (message && typeof record.t === 'string') {
      body += record.t;
    } else if (message && record.op === 'patch' && isObject(record.message) && record.message.id === message.id) {
      message = { ...record.message };
    }
  }
  if (!message || typeof message.id !== 'string') return undefined;
  const withColumns = columns.length ? { ...message, comparison: { ...(message.comparison as Record<string, Json>), columns: storedColumns(message).map((column, index) => (isObject(column) && isObject(column.answer) ? { ...column, answer: { ...column.answer, text: columns[index] ?? '' } } : column)) } } : message;
  return { message: { ...(withColumns as unknown as StoredMessage), text: body }, ...(after !== undefined && { after }) };
}

/** The columns of a stored comparison turn, as JSON; none for any other message. */
function storedColumns(message: Json): Json[] {
  return isObject(message) && isObject(message.comparison) && Array.isArray(message.comparison.columns) ? message.comparison.columns : [];
}

// ---------------------------------------------------------------------------------------------
// What changed since the last write

export interface WrittenState {
  header: string;
  /** Per message id, a digest of what the log holds for it and the size of its line. */
  messages: Map<string, { digest: string; bytes: number }>;
  order: string[];
}

function digest(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}

/** The state of a conversation as if it had just been written whole. */
export function writtenState(conversation: Conversation, skip?: (message: ConversationMessage) => boolean): WrittenState {
  const messages = new Map<string, { digest: string; bytes: number }>();
  for (const message of conversation.messages) {
    if (skip?.(message)) continue;
    const line = encodeRecord({ op: 'message', message: toStoredMessage(message) });
    messages.set(message.id, { digest: digest(line), bytes: Buffer.byteLength(line) });
  }
  return { header: JSON.stringify(headerFields(conversation)), messages, order: conversation.messages.filter((m) => !skip?.(m)).map((m) => m.id) };
}

/**
 * The lines that bring the log from `previous` to `conversation`, or undefined when appending cannot
 * express the change (messages reordered): the caller then rewrites the file. Messages for which
 * `skip` is true (answers being streamed: their journal holds them) are left out.
 */
export function changeRecords(previous: WrittenState, conversation: Conversation, skip: (message: ConversationMessage) => boolean): { text: string; next: WrittenState } | undefined {
  const next = writtenState(conversation, skip);
  const kept = previous.order.filter((id) => next.messages.has(id));
  if (kept.some((id, index) => next.order[index] !== id)) return undefined;
  let text = '';
  for (const id of previous.order) if (!next.messages.has(id)) text += encodeRecord({ op: 'remove', id });
  if (next.header !== previous.header) text += encodeRecord({ op: 'header', header: headerFields(conversation) });
  // A message new to the log names the one before it (`after`), as its window had them.
  let after: string | undefined;
  for (const message of conversation.messages) {
    const now = next.messages.get(message.id);
    if (!now) continue;
    const before = previous.messages.get(message.id);
    if (before?.digest !== now.digest) {
      const stored = toStoredMessage(message);
      text += encodeRecord(before || after === undefined ? { op: 'message', message: stored } : { op: 'message', message: stored, after });
    }
    after = message.id;
  }
  return { text, next };
}

/** Bytes a compacted file would take (the messages' lines and the header), to decide when to compact. */
export function liveBytes(state: WrittenState): number {
  let total = state.header.length + 16;
  for (const { bytes } of state.messages.values()) total += bytes;
  return total;
}
