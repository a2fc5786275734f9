import { completionModeAt } from '../../../src/core/suggestions/completionShape';
import type { SuggestionContext } from '../../../src/core/suggestions/postProcess';

/** The cursor in a test's file text: written where the cursor stands, then taken out. */
export const CURSOR = '‸';

/** The context of a file written with the cursor in it, in the mode the cursor's line calls for. */
export function contextAt(file: string, indentUnit = '  '): SuggestionContext {
  const at = file.indexOf(CURSOR);
  if (at < 0 || file.indexOf(CURSOR, at + 1) >= 0) throw new Error('the file must hold the cursor once');
  const prefix = file.slice(0, at);
  const suffix = file.slice(at + CURSOR.length);
  return { prefix, suffix, mode: completionModeAt(prefix, suffix), indentUnit };
}
