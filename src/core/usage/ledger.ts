import { isCount, parseJson } from '../json';
/**
 * The local usage ledger: one line per request whose spend the extension computed from the
 * service's own balance readings. It holds no key, no prompt and no answer: only what the usage view
 * needs (request id, model, environment, kind, credits, time). Stored entries carry a version and are
 * parsed, never trusted, when read back.
 */

export const USAGE_ENTRY_VERSION = 1;

/** Every kind, in the order views list them; an entry of another kind is skipped when read. */
export const USAGE_KINDS = ['chat', 'image', 'suggestion'] as const;
/** `suggestion`: an inline (ghost text) suggestion's chat completion. */
export type UsageKind = (typeof USAGE_KINDS)[number];

export interface UsageEntry {
  v: typeof USAGE_ENTRY_VERSION;
  /** `x-request-id` of the call; empty when the service sent none. */
  requestId: string;
  model: string;
  environment: string;
  kind: UsageKind;
  /**
   * What the request cost; null when it was billed but its cost could not be measured (another
   * request of the same wallet ran at the same time, billingWindows.ts). Such entries count the
   * requests the totals leave out. Earlier versions of the extension skip them when reading.
   */
  credits: number | null;
  /** Milliseconds since the epoch, from the ledger's clock. */
  at: number;
  /** Chat answers: characters of the request's messages and of the answer (estimates, estimate.ts). Earlier entries have none. */
  chars?: { in: number; out: number };
  /**
   * Requests the local endpoint served: the endpoint token the client used (its id and name, never
   * the token itself; the per-run token is PER_RUN_TOKEN). Earlier entries and other paths have none.
   */
  token?: EndpointTokenRef;
  /** Chat answers asked as one column of a comparison: the comparison turn's id. Earlier entries and other requests have none. */
  comparison?: string;
  /**
   * A comparison's spend measured as a whole (measuredTogether.ts): the times of its columns' entries
   * that have no credits, which this entry's credits stand in for. Only such an entry has it; earlier
   * versions of the extension count it as one more request beside those columns.
   */
  covers?: number[];
}

/** Which endpoint token a request came through: enough to attribute and filter, nothing that authenticates. */
export interface EndpointTokenRef {
  id: string;
  name: string;
}

/** The per-run token every start of the local endpoint makes (named tokens have random UUIDs as ids). */
export const PER_RUN_TOKEN: EndpointTokenRef = { id: 'per-run', name: 'per-run token' };

/** A comparison's spend as a whole, less what its columns measured on their own (measuredTogether.ts). */
export interface ComparisonSpend {
  environment: string;
  /** The comparison turn's id, as its columns' entries name it. */
  comparison: string;
  credits: number;
}

/** What a feature hands over; the ledger adds the version and the time. */
export type UsageRecord = Omit<UsageEntry, 'v' | 'at'>;

/** The one seam features use to report a spend (chat answers, image jobs). */
export interface UsageRecorder {
  record(entry: UsageRecord): void;
  /**
   * A billed request whose spend was not measured (billedCall.ts says why): in the ledger without a
   * cost, so that the usage view counts what its totals leave out and spending limits count the
   * allowance for it; the log says why (`who`: the feature).
   */
  recordUnmeasured(entry: Omit<UsageRecord, 'credits'>, who: string, reason: SpendNotMeasured): void;
}

/**
 * Why a billed call has no measured spend: `overlapped`, another call of the wallet was billed in
 * between (billingWindows.ts); `noReading`, no balance before it or no usable reading after it
 * (`inference.readBalanceAfterAnswer` off, the reading failed).
 */
export const SPEND_NOT_MEASURED = ['overlapped', 'noReading'] as const;
export type SpendNotMeasured = (typeof SPEND_NOT_MEASURED)[number];

export type Clock = () => number;

export function toUsageEntry(record: UsageRecord, at: number): UsageEntry {
  const entry: UsageEntry = { v: USAGE_ENTRY_VERSION, requestId: record.requestId, model: record.model, environment: record.environment, kind: record.kind, credits: record.credits, at };
  if (record.chars) entry.chars = { in: record.chars.in, out: record.chars.out };
  if (record.token) entry.token = { id: record.token.id, name: record.token.name };
  if (record.comparison) entry.comparison = record.comparison;
  if (record.covers) entry.covers = [...record.covers];
  return entry;
}

function isUsageKind(value: unknown): value is UsageKind {
  return (USAGE_KINDS as readonly unknown[]).includes(value);
}

/** One stored line back to an entry; anything of another version or shape is skipped (undefined). */
export function parseUsageEntry(line: string): UsageEntry | undefined {
  const raw = parseJson(line);
  if (typeof raw !== 'object' || raw === null) return undefined;
  const value = raw as Record<string, unknown>;
  if (value.v !== USAGE_ENTRY_VERSION) return undefined;
  const { requestId, model, environment, kind, credits, at, chars, token, comparison, covers } = value;
  if (typeof requestId !== 'string' || typeof model !== 'string' || typeof environment !== 'string') return undefined;
  if (!isUsageKind(kind)) return undefined;
  if ((credits !== null && (typeof credits !== 'number' || !Number.isFinite(credits))) || typeof at !== 'number' || !Number.isFinite(at)) return undefined;
  const entry: UsageEntry = { v: USAGE_ENTRY_VERSION, requestId, model, environment, kind, credits, at };
  // An optional field: a malformed one is dropped, the entry kept.
  const counts = typeof chars === 'object' && chars !== null ? chars as Record<string, unknown> : undefined;
  if (counts && isCount(counts.in) && isCount(counts.out)) entry.chars = { in: counts.in, out: counts.out };
  const via = typeof token === 'object' && token !== null ? token as Record<string, unknown> : undefined;
  if (via && typeof via.id === 'string' && via.id && typeof via.name === 'string') entry.token = { id: via.id, name: via.name };
  if (typeof comparison === 'string' && comparison) entry.comparison = comparison;
  // Without its comparison or credits of its own it would stand in for what it cannot name: dropped.
  if (entry.comparison && credits !== null && Array.isArray(covers) && covers.length && covers.every((t) => typeof t === 'number' && Number.isFinite(t))) entry.covers = covers as number[];
  return entry;
}

/** The ledger file's content: JSON Lines, so that recording is an append. */
export function parseLedger(text: string): UsageEntry[] {
  const entries: UsageEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const entry = parseUsageEntry(line);
    if (entry) entries.push(entry);
  }
  return entries;
}

export function serializeEntry(entry: UsageEntry): string {
  return `${JSON.stringify(entry)}\n`;
}
