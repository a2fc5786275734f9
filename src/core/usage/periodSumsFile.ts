import * as fs from 'node:fs/promises';
import { parseLedger } from './ledger';
import { lastLineEnd, openLedger, readEntriesBefore } from './ledgerFile';
import { addToSums, earliestStart, emptySums, sumsOf, type SpendSums } from './periodSums';
import type { Period } from './spendPeriods';
import { LIMIT_PERIOD_NAMES, type LimitPeriods, type PeriodSums } from './spendingLimits';
import { parseJson } from '../json';

/**
 * The sums of periodSums.ts kept in a file beside the ledger (`period-sums.json`), shared by every
 * window, so that a spending-limit check reads a small file and the ledger's new lines only, never the
 * longest period. The file is never trusted over the ledger: it names the ledger bytes it covers (file identity,
 * length, and the bytes just before that length), and is rebuilt from the ledger when it is missing,
 * unreadable, of other periods, or covers bytes the ledger no longer holds (compacted, replaced, cut);
 * it is brought forward once the lines past it add up to REWRITE_AFTER_BYTES.
 * Written through a temporary file and a rename, so a crash leaves the old file or the new one; two
 * windows writing at once each write sums that are true of the bytes they name.
 */

/**
 * 2: the periods by name (spendingLimits.ts's table); 3: sums per budget key (every kind's and every
 * endpoint token's) where 2 had the tokens' only. A file of an earlier version is rebuilt.
 */
const VERSION = 3;
/** The covered bytes' last few, compared with the ledger's: a ledger rewritten to the same length differs here. */
const FINGERPRINT_BYTES = 64;
/**
 * The file is rewritten once the lines read past it reach this size (about 60 records), not after every
 * record: the write and rename cost more than reading those lines again, and the read stays bounded.
 */
const REWRITE_AFTER_BYTES = 16 * 1024;

interface Coverage {
  dev: number;
  ino: number;
  /** Ledger bytes the sums include: whole lines, from the start. */
  size: number;
  /** The last FINGERPRINT_BYTES of them, base64. */
  tail: string;
}

interface StoredSums {
  v: typeof VERSION;
  ledger: Coverage;
  periods: LimitPeriods;
  environments: Array<[string, PeriodSums]>;
  budgets: Array<[string, PeriodSums]>;
}

function samePeriod(a: unknown, b: Period): boolean {
  return typeof a === 'object' && a !== null && (a as Period).start === b.start && (a as Period).end === b.end;
}

function isSum(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { measured, unmeasured } = value as Record<string, unknown>;
  return typeof measured === 'number' && Number.isFinite(measured) && typeof unmeasured === 'number' && Number.isInteger(unmeasured) && unmeasured >= 0;
}

function isEntries(value: unknown): value is Array<[string, PeriodSums]> {
  return Array.isArray(value) && value.every((item) => Array.isArray(item) && typeof item[0] === 'string'
    && typeof item[1] === 'object' && item[1] !== null && LIMIT_PERIOD_NAMES.every((period) => isSum((item[1] as PeriodSums)[period])));
}

function samePeriods(a: unknown, b: LimitPeriods): boolean {
  return typeof a === 'object' && a !== null && LIMIT_PERIOD_NAMES.every((period) => samePeriod((a as Partial<LimitPeriods>)[period], b[period]));
}

/** The stored sums, if they are of these periods and well formed (whether they match the ledger is checked after). */
function parseStored(text: string | undefined, periods: LimitPeriods): StoredSums | undefined {
  if (text === undefined) return undefined;
  const raw = parseJson(text);
  if (typeof raw !== 'object' || raw === null) return undefined;
  const stored = raw as Partial<StoredSums>;
  const ledger = stored.ledger as Partial<Coverage> | undefined;
  if (stored.v !== VERSION || !samePeriods(stored.periods, periods)) return undefined;
  if (!ledger || typeof ledger.dev !== 'number' || typeof ledger.ino !== 'number' || typeof ledger.size !== 'number' || typeof ledger.tail !== 'string') return undefined;
  if (!isEntries(stored.environments) || !isEntries(stored.budgets)) return undefined;
  return stored as StoredSums;
}

async function readBytes(handle: fs.FileHandle, start: number, end: number): Promise<Buffer> {
  const buffer = Buffer.alloc(end - start);
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
  return buffer.subarray(0, bytesRead);
}

async function fingerprint(handle: fs.FileHandle, size: number): Promise<string> {
  return (await readBytes(handle, Math.max(0, size - FINGERPRINT_BYTES), size)).toString('base64');
}

export interface PeriodSumsFiles {
  ledger: string;
  sums: string;
  /** Names the temporary file, so that two processes never write the same one. */
  pid: number;
}

/**
 * The ledger's sums for `periods`: the stored file's, plus the lines appended since it was written
 * (other windows' records), or rebuilt from the ledger when the file cannot be trusted. The file is
 * rewritten when rebuilt or far behind. A missing ledger is empty.
 */
export async function readPeriodSums(files: PeriodSumsFiles, periods: LimitPeriods): Promise<SpendSums> {
  const handle = await openLedger(files.ledger);
  if (!handle) return emptySums(periods);
  try {
    const { dev, ino, size } = await handle.stat();
    const stored = parseStored(await fs.readFile(files.sums, 'utf8').catch(() => undefined), periods);
    const trusted = stored !== undefined && stored.ledger.dev === dev && stored.ledger.ino === ino && stored.ledger.size <= size
      && (await fingerprint(handle, stored.ledger.size)) === stored.ledger.tail;
    if (trusted && stored.ledger.size === size) return { periods, environments: new Map(stored.environments), budgets: new Map(stored.budgets) };
    const end = await lastLineEnd(handle, size);
    let sums: SpendSums;
    if (trusted && end >= stored.ledger.size) {
      sums = { periods, environments: new Map(stored.environments), budgets: new Map(stored.budgets) };
      for (const entry of parseLedger((await readBytes(handle, stored.ledger.size, end)).toString('utf8'))) addToSums(sums, entry);
    } else {
      sums = sumsOf(await readEntriesBefore(handle, end, earliestStart(periods)), periods);
    }
    if (!trusted || end - stored.ledger.size >= REWRITE_AFTER_BYTES) await writeSums(files, { v: VERSION, ledger: { dev, ino, size: end, tail: await fingerprint(handle, end) }, periods, environments: [...sums.environments], budgets: [...sums.budgets] });
    return sums;
  } finally {
    await handle.close();
  }
}

async function writeSums(files: PeriodSumsFiles, stored: StoredSums): Promise<void> {
  const temporary = `${files.sums}.${files.pid}.tmp`;
  await fs.writeFile(temporary, JSON.stringify(stored), 'utf8');
  await fs.rename(temporary, files.sums);
}
