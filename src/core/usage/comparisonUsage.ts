import { roundCredits } from '../credits';
import type { UsageEntry } from './ledger';
import { coveredEntries, isCovered } from './measuredTogether';

/**
 * The usage of comparisons (issue 40): each column's ledger entry names its comparison turn, so the
 * usage report (report.ts) can total each comparison and narrow itself to one, or to all of them.
 */

/** The comparison filter's value for "every request asked in a comparison" (a comparison's id is a UUID). */
export const ALL_COMPARISONS = '*';

/** One model's request in a comparison (a column's ledger entry). */
export interface ComparisonModelRow {
  model: string;
  /** null: billed, but its cost could not be measured on its own. */
  credits: number | null;
  /** Measured with the other columns that ran beside it: its cost is in the comparison's credits. */
  together?: true;
  requestId: string;
  at: number;
}

/** One comparison's spend over the report's days: its columns' requests (entries naming it), measured or not. */
export interface ComparisonTotal {
  /** The comparison turn's id, as the ledger entries name it. */
  id: string;
  /** Its first request's time. */
  at: number;
  environment: string;
  /** The measured requests' credits, those measured together included. */
  credits: number;
  /** Requests whose cost is in `credits`. */
  requests: number;
  /** Requests billed whose cost could not be measured (not in `credits`). */
  unmeasured: number;
  /** Per model, in the order the requests were recorded. */
  models: ComparisonModelRow[];
}

/** The comparisons listed at most: a month of them is rarely more, and the view stays a page. */
export const MAX_COMPARISONS = 100;

/** Each comparison's entries in the window (measured or not), newest first. */
export function comparisonTotals(window: readonly UsageEntry[]): ComparisonTotal[] {
  const totals = new Map<string, ComparisonTotal>();
  const covered = coveredEntries(window);
  for (const entry of window) {
    if (entry.comparison === undefined) continue;
    const total = totals.get(entry.comparison) ?? { id: entry.comparison, at: entry.at, environment: entry.environment, credits: 0, requests: 0, unmeasured: 0, models: [] };
    totals.set(entry.comparison, total);
    if (entry.covers) {
      // The whole's measured total (measuredTogether.ts): its columns are counted as its entries.
      total.credits += entry.credits ?? 0;
      continue;
    }
    total.at = Math.min(total.at, entry.at);
    const together = isCovered(entry, covered);
    if (entry.credits !== null || together) total.requests += 1;
    if (entry.credits === null && !together) total.unmeasured += 1;
    if (entry.credits !== null) total.credits += entry.credits;
    total.models.push({ model: entry.model, credits: entry.credits, requestId: entry.requestId, at: entry.at, ...(together && { together: true as const }) });
  }
  return [...totals.values()]
    .map((t) => ({ ...t, credits: roundCredits(t.credits) }))
    .sort((a, b) => b.at - a.at || a.id.localeCompare(b.id))
    .slice(0, MAX_COMPARISONS);
}

/** Whether an entry is in the comparison filter's view. */
export function inComparison(entry: UsageEntry, filter: string): boolean {
  return filter === ALL_COMPARISONS ? entry.comparison !== undefined : entry.comparison === filter;
}
