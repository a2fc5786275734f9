/**
 * Per-environment settings a test changes while the emulator runs (in-process or over the control
 * API): the pacing of chat answers and the dress of code-suggestion answers. Both start from the
 * emulator's options and go back to them on reset.
 */
import { isSuggestionStyle } from './suggestions';
import type { Pacing, SuggestionStyle } from './types';

/** Checks an untrusted partial Pacing (from the control endpoint or a test) and returns a clean copy. */
export function validatePacing(value: unknown): Partial<Pacing> {
  if (typeof value !== 'object' || value === null) throw new Error('Pacing must be an object.');
  const v = value as Record<string, unknown>;
  const pacing: Partial<Pacing> = {};
  for (const field of ['firstTokenDelayMs', 'tokensPerSecond'] as const) {
    const n = v[field];
    if (n === undefined) continue;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) throw new Error(`"${field}" must be a number of at least 0.`);
    pacing[field] = n;
  }
  return pacing;
}

export function validateSuggestionStyle(value: unknown): SuggestionStyle {
  if (!isSuggestionStyle(value)) throw new Error('"style" must be "plain", "fenced" or "prose".');
  return value;
}
