/**
 * Which tiers of `npm test` may start now, so that the run never asks more of the machine than it has.
 *
 * Each tier declares the cores it keeps busy while it runs (its CPU time over its wall time, as the
 * summary's `cores` column measures it). A tier starts, in the listed order, once the tiers already
 * running leave it room within the machine's cores; one that needs more than the whole machine
 * starts only alone. A later tier may start before an earlier one that does not fit yet, or that
 * waits for provisioning: the order is a priority, not a queue.
 */
export interface SchedulableTier {
  readonly name: string;
  /** The cores it keeps busy on average while it runs. */
  readonly cores: number;
  /** It needs Chromium or code-server installed: it waits for provisioning to end. */
  readonly needsProvisioning: boolean;
}

/** Rounding of the declared fractions (0.1 + 0.2): a tier that fits exactly still fits. */
const SLACK = 1e-9;

export function tiersToStart<T extends SchedulableTier>(pending: readonly T[], running: readonly SchedulableTier[], cores: number, provisioned: boolean): T[] {
  let busy = running.reduce((sum, tier) => sum + tier.cores, 0);
  let count = running.length;
  const starting: T[] = [];
  for (const tier of pending) {
    if (tier.needsProvisioning && !provisioned) continue;
    if (count > 0 && busy + tier.cores > cores + SLACK) continue;
    starting.push(tier);
    busy += tier.cores;
    count++;
  }
  return starting;
}
