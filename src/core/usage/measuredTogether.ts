import type { ComparisonSpend, UsageEntry, UsageRecord } from './ledger';

/**
 * A comparison's columns run side by side, so each column's call overlaps the others and its ledger
 * entry has no credits (billingWindows.ts), while the comparison as a whole is measured
 * (comparisonRun.ts). Its total goes into the ledger as one more entry that names the column entries
 * it stands in for, by their comparison and times (`covers`): period sums and spending limits, the
 * status bar and the usage view then count the total in place of those columns' allowances. Written
 * after the columns' entries, so that until then (and for good, when the window closes first) they
 * count as unmeasured: never less than was spent.
 */

function key(comparison: string, at: number): string {
  return `${comparison}@${at}`;
}

/** The column entries that a measured total among `entries` stands in for. */
export function coveredEntries(entries: Iterable<UsageEntry>): ReadonlySet<string> {
  const covered = new Set<string>();
  for (const entry of entries) {
    if (entry.comparison === undefined || !entry.covers) continue;
    for (const at of entry.covers) covered.add(key(entry.comparison, at));
  }
  return covered;
}

/** Whether a measured total stands in for this entry (then it is neither measured nor unmeasured on its own). */
export function isCovered(entry: UsageEntry, covered: ReadonlySet<string>): boolean {
  return entry.credits === null && entry.comparison !== undefined && covered.has(key(entry.comparison, entry.at));
}

/** The entries a report counts: every entry but the column entries a measured total stands in for. */
export function withoutCovered(entries: readonly UsageEntry[]): readonly UsageEntry[] {
  const covered = coveredEntries(entries);
  return covered.size ? entries.filter((entry) => !isCovered(entry, covered)) : entries;
}

/**
 * The entry for a comparison's measured total: its environment's column entries of that comparison
 * that have no credits and no total standing in for them yet. Undefined when there is none (every
 * column was measured on its own, or the window no longer holds them): nothing to stand in for.
 */
export function measuredTogether(entries: readonly UsageEntry[], total: ComparisonSpend): UsageRecord | undefined {
  const covered = coveredEntries(entries);
  const covers = entries
    .filter((e) => e.comparison === total.comparison && e.environment === total.environment && e.credits === null && !isCovered(e, covered))
    .map((e) => e.at);
  if (!covers.length) return undefined;
  return { requestId: '', model: '', environment: total.environment, kind: 'chat', credits: total.credits, comparison: total.comparison, covers };
}
