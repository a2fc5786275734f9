import type { SpendNotMeasured, UsageRecord, UsageRecorder } from './ledger';

/** What a billed call cost, or why that is not known. */
export type BilledSpend = { credits: number } | { notMeasured: SpendNotMeasured };

/**
 * How every billed call ends (chat panel answers, answers given through VS Code's language models,
 * image generations, answers the local endpoint forwards): the one place its spend goes into the
 * usage ledger. A measured call with its credits; a call that overlapped another of its wallet, or
 * whose balance could not be read before and after it, without a cost: it was billed all the same,
 * so spending limits count `inference.unmeasuredRequestCredits` for it. `credits` is the measured
 * difference, undefined when there was none to take.
 */
export function recordBilledCall(recorder: UsageRecorder, who: string, entry: Omit<UsageRecord, 'credits'>, overlapped: boolean, credits: number | undefined): BilledSpend {
  if (overlapped || credits === undefined) {
    const reason: SpendNotMeasured = overlapped ? 'overlapped' : 'noReading';
    recorder.recordUnmeasured(entry, who, reason);
    return { notMeasured: reason };
  }
  recorder.record({ ...entry, credits });
  return { credits };
}
