import { createReadStream } from 'node:fs';
import * as fs from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { parseLedger, parseUsageEntry, serializeEntry, type UsageEntry } from './ledger';

/**
 * Reading the ledger file (JSON lines, appended in the order requests end, by every window) without
 * reading all of it: the status bar needs today, the usage view 30 days, and only the CSV export the
 * whole year, which it streams. Appends land in time order, so the recent days are the file's tail.
 */

/** Read backwards in pieces of this size. */
const CHUNK_BYTES = 64 * 1024;
/**
 * Lines are in time order only as far as the windows' clocks agree (one machine, one clock, but an
 * append can be overtaken by another window's): reading stops a day before the first day needed.
 */
const ORDER_SLACK_MS = 86_400_000;
const NEWLINE = 0x0a;

/** Puts the entries of `buffer` (whole lines) at or after `since` before those of `into`; returns the oldest time among them all. */
function parseLines(buffer: Buffer, since: number, into: UsageEntry[]): number {
  const entries = parseLedger(buffer.toString('utf8'));
  into.unshift(...entries.filter((entry) => entry.at >= since));
  return entries.reduce((oldest, entry) => Math.min(oldest, entry.at), Infinity);
}

/** The ledger opened for reading; undefined when there is none yet (nothing recorded). */
export async function openLedger(file: string): Promise<fs.FileHandle | undefined> {
  try {
    return await fs.open(file, 'r');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The entries recorded at or after `since`, in file order, read from the end of the file back to a
 * little before `since`: the cost follows the days asked for, not the ledger's age. A missing file is empty.
 */
export async function readLedgerSince(file: string, since: number): Promise<UsageEntry[]> {
  const handle = await openLedger(file);
  if (!handle) return [];
  try {
    return await readEntriesBefore(handle, (await handle.stat()).size, since);
  } finally {
    await handle.close();
  }
}

/** The entries recorded at or after `since` among the file's first `end` bytes, read backwards (readLedgerSince). */
export async function readEntriesBefore(handle: fs.FileHandle, end: number, since: number): Promise<UsageEntry[]> {
  const entries: UsageEntry[] = [];
  let position = end;
  // The start of a line whose beginning is in the piece not read yet.
  let rest = Buffer.alloc(0);
  while (position > 0) {
    const length = Math.min(CHUNK_BYTES, position);
    position -= length;
    const chunk = Buffer.alloc(length);
    await handle.read(chunk, 0, length, position);
    const buffer = Buffer.concat([chunk, rest]);
    // Before the first newline is a line cut by the piece's start (unless this is the file's start).
    const cut = position > 0 ? buffer.indexOf(NEWLINE) : -1;
    if (cut < 0 && position > 0) {
      rest = buffer;
      continue;
    }
    rest = buffer.subarray(0, cut + 1);
    const oldest = parseLines(buffer.subarray(cut + 1), since, entries);
    if (oldest < since - ORDER_SLACK_MS) break;
  }
  return entries;
}

/**
 * Where the file's last whole line ends at or before `size`: a window appending at this moment may have
 * written part of a line, which is not read until it is whole. 0 when there is no whole line.
 */
export async function lastLineEnd(handle: fs.FileHandle, size: number): Promise<number> {
  let position = size;
  while (position > 0) {
    const length = Math.min(CHUNK_BYTES, position);
    position -= length;
    const chunk = Buffer.alloc(length);
    await handle.read(chunk, 0, length, position);
    const newline = chunk.lastIndexOf(NEWLINE);
    if (newline >= 0) return position + newline + 1;
  }
  return 0;
}

/** Every readable entry of the file, in file order, one line at a time (for the CSV export). */
export async function* streamLedger(file: string): AsyncGenerator<UsageEntry> {
  const stream = createReadStream(file, { encoding: 'utf8' });
  const opened = new Promise<boolean>((resolve, reject) => {
    stream.once('open', () => resolve(true));
    stream.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? resolve(false) : reject(error)));
  });
  if (!(await opened)) return;
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
    const entry = line.trim() ? parseUsageEntry(line) : undefined;
    if (entry) yield entry;
  }
}

/**
 * The time of the file's first readable entry (the oldest), reading only its head, a piece at a time.
 * Not through streamLedger: a read stream leaving readline early still reads to the end of the file,
 * and this runs at every start-up.
 */
export async function oldestLedgerEntry(file: string): Promise<number | undefined> {
  const handle = await openLedger(file);
  if (!handle) return undefined;
  try {
    let position = 0;
    // The start of a line whose end is in the piece not read yet.
    let rest = Buffer.alloc(0);
    for (;;) {
      const chunk = Buffer.alloc(CHUNK_BYTES);
      const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, position);
      position += bytesRead;
      const buffer = Buffer.concat([rest, chunk.subarray(0, bytesRead)]);
      let start = 0;
      for (let newline = buffer.indexOf(NEWLINE); newline >= 0; newline = buffer.indexOf(NEWLINE, start)) {
        const entry = parseUsageEntry(buffer.subarray(start, newline).toString('utf8'));
        if (entry) return entry.at;
        start = newline + 1;
      }
      rest = buffer.subarray(start);
      // The file's last line, with no newline after it.
      if (bytesRead === 0) return parseUsageEntry(rest.toString('utf8'))?.at;
    }
  } finally {
    await handle.close();
  }
}

/**
 * Drops the entries older than `keepSince`, streaming the file through a temporary one (`pid` in its
 * name) that then replaces it. Returns how many entries were kept.
 */
export async function compactLedger(file: string, keepSince: number, pid: number): Promise<number> {
  const temporary = `${file}.${pid}.tmp`;
  const out = await fs.open(temporary, 'w');
  let kept = 0;
  try {
    let pending = '';
    for await (const entry of streamLedger(file)) {
      if (entry.at < keepSince) continue;
      pending += serializeEntry(entry);
      kept++;
      if (pending.length >= CHUNK_BYTES) {
        await out.write(pending);
        pending = '';
      }
    }
    await out.write(pending);
  } finally {
    await out.close();
  }
  await fs.rename(temporary, file);
  return kept;
}
