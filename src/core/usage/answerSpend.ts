import { creditsSpent } from '../credits';

/** A balance the service reported, and when it arrived (milliseconds since the epoch). */
export interface BalanceReading {
  credits: number;
  at: number;
}

/**
 * What one streamed answer cost, from the balance before it and a reading taken after it was billed
 * (a stream reports the balance before billing: only the reserve is taken then). Undefined when the
 * reading cannot tell: none, one from before the answer ended (still the stream's pre-billing one),
 * or a higher balance (a top-up or another window's activity in between makes the difference meaningless).
 */
export function answerSpend(balanceBefore: number, settled: BalanceReading | undefined, answeredAt: number): number | undefined {
  if (!settled || settled.at < answeredAt || settled.credits > balanceBefore) return undefined;
  return creditsSpent(balanceBefore, settled.credits);
}

/**
 * Whether a balance that arrived with a response replaces the one known. A response reports the
 * balance as the service read it at some time after its request left. One whose request left before
 * the known balance arrived may have been read before it (a model list sent before an answer,
 * answered after it, reports the balance from before the answer was billed); taking it would make
 * the next call's spend include the answer's. A known balance from the future (the clock went back)
 * is replaced.
 */
export function replacesBalance(knownAt: number | undefined, response: { sentAt?: number; receivedAt: number }): boolean {
  if (knownAt === undefined || response.sentAt === undefined || knownAt > response.receivedAt) return true;
  return response.sentAt >= knownAt;
}
