import * as l10n from '@vscode/l10n';
import { roundCredits } from '../credits';
import { comparisonTotals, inComparison, type ComparisonTotal } from './comparisonUsage';
// For the usage view, whose lint zone reaches the report, not this file.
export { ALL_COMPARISONS, type ComparisonTotal } from './comparisonUsage';
import type { UsageEntry } from './ledger';
import { withoutCovered } from './measuredTogether';

/** Spend per calendar day (local time of the extension host), with the parts a bar is stacked from. */
export interface DaySpend {
  /** `YYYY-MM-DD` */
  date: string;
  total: number;
  /** Series key (a model id or a kind) → credits. */
  parts: Record<string, number>;
}

export interface StackedDays {
  /** Series in a stable order (largest total first), the same for every day. */
  series: string[];
  days: DaySpend[];
}

/** A ledger entry whose cost was measured. */
export type MeasuredEntry = UsageEntry & { credits: number };

export function isMeasured(entry: UsageEntry): entry is MeasuredEntry {
  return entry.credits !== null;
}

/** A measured ledger entry as a table row (the stored version field stays behind). */
export type RequestRow = Omit<MeasuredEntry, 'v'>;

export interface EnvironmentTotal {
  environment: string;
  credits: number;
  requests: number;
}

/** One endpoint token's spend over the report's days and today (measured requests only, like every total). */
export interface TokenTotal {
  id: string;
  name: string;
  credits: number;
  requests: number;
  today: number;
}

/** What became of inline suggestions (core/suggestions/suggestionCounts.ts counts them). */
export const SUGGESTION_EVENTS = ['requested', 'shown', 'accepted', 'cancelled'] as const;
export type SuggestionEvent = (typeof SUGGESTION_EVENTS)[number];
export type SuggestionEventCounts = Record<SuggestionEvent, number>;

export function noSuggestionEvents(): SuggestionEventCounts {
  return { requested: 0, shown: 0, accepted: 0, cancelled: 0 };
}

/** Inline suggestions over the report's days: their spend (a kind of its own in the ledger) and how they fared. */
export interface SuggestionsSummary {
  /** Measured spend of suggestion requests, how many of them, and how many more were not measured. */
  credits: number;
  requests: number;
  unmeasured: number;
  /** Requested (sent to the service), shown, accepted and cancelled, over the same days. */
  counts: SuggestionEventCounts;
  /** Measured credits per accepted suggestion; null when none was accepted. */
  creditsPerAccepted: number | null;
}

/** Everything the usage view shows, computed on the host; the webview only draws it. */
export interface UsageReport {
  /** When the report was made (the ledger's clock): "today" is this day. */
  generatedAt: number;
  days: number;
  byModel: StackedDays;
  byKind: StackedDays;
  topRequests: RequestRow[];
  environments: EnvironmentTotal[];
  /** Spend per endpoint token over every request of the window, whatever the filter: the filter's choices too. */
  tokens: TokenTotal[];
  /** The endpoint token id the rest of the report is narrowed to; undefined: every request. */
  tokenFilter?: string;
  /** Every comparison of the window whatever the filter, newest first (at most MAX_COMPARISONS): the filter's choices too. */
  comparisons: ComparisonTotal[];
  /** The comparison the rest of the report is narrowed to (its id), or ALL_COMPARISONS; undefined: every request. */
  comparisonFilter?: string;
  total: number;
  requests: number;
  today: number;
  /** Requests in the window that were billed but whose cost could not be measured (not in the totals). */
  unmeasured: number;
  /** Absent when there is nothing of suggestions in the window, and when narrowed to an endpoint token or to comparisons (suggestions are in neither). */
  suggestions?: SuggestionsSummary;
}

/** The days the usage view shows, ending today. */
export const REPORT_DAYS = 30;

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** The local calendar day of a timestamp, as `YYYY-MM-DD`. */
export function dayKey(timestamp: number): string {
  const date = new Date(timestamp);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The last `count` local calendar days ending with the day of `now`, oldest first. */
export function lastDays(now: number, count: number): string[] {
  const today = new Date(now);
  const keys: string[] = [];
  for (let back = count - 1; back >= 0; back--) {
    // Calendar arithmetic (not now - n*24h), so that a daylight-saving change cannot skip or repeat a day.
    keys.push(dayKey(new Date(today.getFullYear(), today.getMonth(), today.getDate() - back, 12).getTime()));
  }
  return keys;
}

/** Start of the local day `count - 1` days before `now`: entries at or after it fall in the window. */
export function windowStart(now: number, count: number): number {
  const today = new Date(now);
  return new Date(today.getFullYear(), today.getMonth(), today.getDate() - (count - 1)).getTime();
}

/** Today's measured spend, and how many of today's requests could not be measured. */
export function spendToday(entries: readonly UsageEntry[], now: number): { credits: number; unmeasured: number } {
  const today = dayKey(now);
  // A total is recorded after the columns it stands in for: today's columns have today's total.
  const todays = withoutCovered(entries.filter((e) => e.at <= now && dayKey(e.at) === today));
  const measured = todays.filter(isMeasured);
  return { credits: roundCredits(measured.reduce((sum, e) => sum + e.credits, 0)), unmeasured: todays.length - measured.length };
}

export function stackDays(entries: readonly MeasuredEntry[], now: number, count: number, seriesOf: (entry: UsageEntry) => string): StackedDays {
  const keys = lastDays(now, count);
  const byDay = new Map(keys.map((date) => [date, { date, total: 0, parts: {} as Record<string, number> }]));
  const seriesTotals = new Map<string, number>();
  for (const entry of entries) {
    const day = byDay.get(dayKey(entry.at));
    if (!day || entry.at > now) continue;
    const series = seriesOf(entry);
    day.total += entry.credits;
    day.parts[series] = (day.parts[series] ?? 0) + entry.credits;
    seriesTotals.set(series, (seriesTotals.get(series) ?? 0) + entry.credits);
  }
  const days = [...byDay.values()].map((day) => ({
    date: day.date,
    total: roundCredits(day.total),
    parts: Object.fromEntries(Object.entries(day.parts).map(([key, value]) => [key, roundCredits(value)])),
  }));
  const series = [...seriesTotals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([key]) => key);
  return { series, days };
}

/** Spend per endpoint token in the window (measured entries), the largest first. */
function tokenTotals(entries: readonly MeasuredEntry[], now: number): TokenTotal[] {
  const today = dayKey(now);
  const totals = new Map<string, TokenTotal>();
  for (const entry of entries) {
    if (!entry.token) continue;
    const total = totals.get(entry.token.id) ?? { id: entry.token.id, name: entry.token.name, credits: 0, requests: 0, today: 0 };
    total.credits += entry.credits;
    total.requests += 1;
    if (dayKey(entry.at) === today) total.today += entry.credits;
    totals.set(entry.token.id, total);
  }
  return [...totals.values()]
    .map((t) => ({ ...t, credits: roundCredits(t.credits), today: roundCredits(t.today) }))
    .sort((a, b) => b.credits - a.credits || a.name.localeCompare(b.name));
}

/** Suggestions' spend in `window` (every entry of it, measured or not) beside their counts over the same days. */
function suggestionsSummary(window: readonly UsageEntry[], counts: SuggestionEventCounts | undefined): SuggestionsSummary | undefined {
  const billed = window.filter((e) => e.kind === 'suggestion');
  const measured = billed.filter(isMeasured);
  const outcomes = counts ?? noSuggestionEvents();
  if (billed.length === 0 && SUGGESTION_EVENTS.every((event) => outcomes[event] === 0)) return undefined;
  const credits = roundCredits(measured.reduce((sum, e) => sum + e.credits, 0));
  return {
    credits,
    requests: measured.length,
    unmeasured: billed.length - measured.length,
    counts: { ...outcomes },
    creditsPerAccepted: outcomes.accepted > 0 ? roundCredits(credits / outcomes.accepted) : null,
  };
}

/** The requests an entry's credits are the spend of: one, or the columns a comparison's measured total stands in for. */
function requestsIn(entry: UsageEntry): number {
  return entry.covers?.length ?? 1;
}

/** The series an entry's spend is drawn in: its model, or the models a comparison measured together. */
function modelOf(entry: UsageEntry): string {
  if (entry.covers) return l10n.t('models compared side by side');
  return entry.model || l10n.t('(unknown model)');
}

export interface ReportOptions {
  /** The days shown, ending today (REPORT_DAYS). */
  days?: number;
  /** How many of the most expensive requests are listed. */
  top?: number;
  /** Only the requests made through this endpoint token (the per-token table still lists every token). */
  token?: string;
  /** Only the requests of this comparison (its id), or of every comparison (ALL_COMPARISONS). */
  comparison?: string;
  /** Suggestions' counts over the same days (lastDays(now, days)). */
  suggestionCounts?: SuggestionEventCounts;
}

/** The usage view's content for the `days` days ending today. */
export function buildUsageReport(entries: readonly UsageEntry[], now: number, options: ReportOptions = {}): UsageReport {
  const days = options.days ?? REPORT_DAYS;
  const start = windowStart(now, days);
  // A comparison's measured total counts in place of the column entries it stands in for (measuredTogether.ts).
  const inDays = entries.filter((e) => e.at >= start && e.at <= now);
  const window = withoutCovered(inDays);
  const tokens = tokenTotals(window.filter(isMeasured), now);
  const comparisons = comparisonTotals(inDays);
  const { token, comparison } = options;
  const all = window.filter((e) => (token === undefined || e.token?.id === token) && (comparison === undefined || inComparison(e, comparison)));
  const inWindow = all.filter(isMeasured);
  const environments = new Map<string, EnvironmentTotal>();
  for (const entry of inWindow) {
    const total = environments.get(entry.environment) ?? { environment: entry.environment, credits: 0, requests: 0 };
    total.credits += entry.credits;
    total.requests += requestsIn(entry);
    environments.set(entry.environment, total);
  }
  const suggestions = token === undefined && comparison === undefined ? suggestionsSummary(window, options.suggestionCounts) : undefined;
  // A comparison's measured total is its columns' spend, not a request of its own: listed under the comparison.
  const topRequests = inWindow.filter((e) => !e.covers)
    .sort((a, b) => b.credits - a.credits || b.at - a.at)
    .slice(0, options.top ?? 20)
    .map(({ requestId, model, environment, kind, credits, at, token }) => ({ requestId, model, environment, kind, credits, at, ...(token && { token }) }));
  return {
    generatedAt: now,
    days,
    byModel: stackDays(inWindow, now, days, modelOf),
    byKind: stackDays(inWindow, now, days, (e) => e.kind),
    topRequests,
    environments: [...environments.values()]
      .map((t) => ({ ...t, credits: roundCredits(t.credits) }))
      .sort((a, b) => b.credits - a.credits || a.environment.localeCompare(b.environment)),
    tokens,
    ...(token !== undefined && { tokenFilter: token }),
    comparisons,
    ...(comparison !== undefined && { comparisonFilter: comparison }),
    total: roundCredits(inWindow.reduce((sum, e) => sum + e.credits, 0)),
    requests: inWindow.reduce((sum, e) => sum + requestsIn(e), 0),
    today: spendToday(inWindow, now).credits,
    unmeasured: all.length - inWindow.length,
    ...(suggestions && { suggestions }),
  };
}

/**
 * Where a spreadsheet may start a cell inside a field's text: its start, and after a separator
 * (`,` or `;`, depending on the locale), a TAB (a paste splits on it) or a line break.
 */
const FORMULA_AT_CELL_START = /(?<=^|[,;\t\r\n])[=+\-@\t\r]/g;

/**
 * One CSV field. Every text is quoted (so no separator, quote or line break in it splits the row) and,
 * as OWASP's CSV-injection guidance recommends, every place where a spreadsheet could start a cell
 * with `= + - @` (or TAB, CR) gets a `'` before it, so no part of a request or model id the service
 * sent becomes a formula. Numbers are ours and stay bare.
 */
function csvField(value: string | number): string {
  if (typeof value === 'number') return String(value);
  return `"${value.replace(FORMULA_AT_CELL_START, "'$&").replace(/"/g, '""')}"`;
}

/**
 * `token`: the endpoint token's name for requests the local endpoint served; `comparison`: the id of the
 * comparison a chat answer was a column of; `measured_together`: on a comparison's measured total, how
 * many of its columns' rows (with no credits) it is the spend of. Each was added last, so earlier
 * columns keep their place.
 */
export const CSV_HEADER = ['time', 'date', 'environment', 'kind', 'model', 'credits', 'request_id', 'token', 'comparison', 'measured_together'] as const;

/** One entry as a CSV row, without its line end (ISO 8601 UTC time plus the local day). */
export function usageCsvRow(e: UsageEntry): string {
  // An empty credits field: billed, but the cost could not be measured.
  return [new Date(e.at).toISOString(), dayKey(e.at), e.environment, e.kind, e.model, e.credits === null ? '' : roundCredits(e.credits), e.requestId, e.token?.name ?? '', e.comparison ?? '', e.covers?.length ?? ''].map(csvField).join(',');
}

/**
 * Entries as CSV (RFC 4180, CRLF line ends), in the order they arrive: the ledger file streamed, in the
 * order recorded (which is time order), so that only the text is held, never the entries.
 */
export async function usageCsvStreamed(entries: AsyncIterable<UsageEntry>): Promise<string> {
  const lines = [CSV_HEADER.map(csvField).join(',')];
  for await (const entry of entries) lines.push(usageCsvRow(entry));
  return lines.join('\r\n') + '\r\n';
}
