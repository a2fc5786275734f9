import type { UsageEntry } from './ledger';

/** What the user's own measured answers with a model cost per 1,000 characters sent and received. */
export interface SpendEstimate {
  creditsPer1kChars: number;
  /** How many answers it rests on. */
  answers: number;
  /** Their mean length in characters: what a next answer's size is guessed at, before it is asked. */
  answerChars: number;
}

/** Fewer measured answers than this give no estimate: a figure from one or two would mislead. */
export const MIN_ESTIMATE_ANSWERS = 5;
/** The most recent answers the estimate averages: prices change, old answers stop saying much. */
export const ESTIMATE_WINDOW = 50;

/**
 * An estimate for the next answer with `model`, from the ledger alone (never a price table): the
 * credits the last answers with it were measured to cost, divided by the characters of their requests
 * and answers together. Undefined with fewer than MIN_ESTIMATE_ANSWERS such answers.
 */
export function spendEstimate(entries: readonly UsageEntry[], model: string): SpendEstimate | undefined {
  const answers = entries
    .filter((e): e is UsageEntry & { credits: number; chars: { in: number; out: number } } => e.kind === 'chat' && e.model === model && e.credits !== null && e.chars !== undefined && e.chars.in + e.chars.out > 0)
    .sort((a, b) => b.at - a.at)
    .slice(0, ESTIMATE_WINDOW);
  if (answers.length < MIN_ESTIMATE_ANSWERS) return undefined;
  const credits = answers.reduce((sum, e) => sum + e.credits, 0);
  const chars = answers.reduce((sum, e) => sum + e.chars.in + e.chars.out, 0);
  const answerChars = Math.round(answers.reduce((sum, e) => sum + e.chars.out, 0) / answers.length);
  return { creditsPer1kChars: Math.round((credits / chars) * 1000 * 1e6) / 1e6, answers: answers.length, answerChars };
}
