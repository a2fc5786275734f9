/**
 * Per-environment settings a test changes while the emulator runs (in-process or over the control
 * API): the dress of code-suggestion answers. They start from the emulator's options and go back to
 * them on reset.
 */
import { isSuggestionStyle } from './suggestions';
import type { SuggestionStyle } from './types';

export function validateSuggestionStyle(value: unknown): SuggestionStyle {
  if (!isSuggestionStyle(value)) throw new Error('"style" must be "plain", "fenced" or "prose".');
  return value;
}
