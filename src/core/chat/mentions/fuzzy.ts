/**
 * Fuzzy matching for the `#` mention picker: the query's characters must appear in order; a match
 * scores higher where they start words (after `/`, `.`, `-`, `_`, a space, or at a lower-to-upper
 * case step), follow one another, and fall in a path's file name rather than its folders. Plain
 * code, so that the ranking is unit-tested without VS Code.
 */

export interface FuzzyMatch {
  score: number;
  /** Indexes in the candidate of the matched characters, ascending (for highlighting). */
  positions: number[];
}

/** `/`, `\\`, `.`, `-`, `_` and space, by character code: this runs for every character of 20,000 paths per keystroke. */
const WORD_SEPARATORS = new Set([47, 92, 46, 45, 95, 32]);
const BASE_POINT = 1;
const WORD_START_BONUS = 8;
const CONSECUTIVE_BONUS = 5;
const FIRST_CHARACTER_BONUS = 4;
/** Matching entirely within the file name beats any match spread over the folders. */
export const FILE_NAME_BONUS = 100;

function isWordStart(text: string, index: number): boolean {
  if (index === 0) return true;
  const previous = text.charCodeAt(index - 1);
  if (WORD_SEPARATORS.has(previous)) return true;
  const current = text.charCodeAt(index);
  // A lower-case ASCII letter then an upper-case one: the E of chatEngine.
  return previous >= 97 && previous <= 122 && current >= 65 && current <= 90;
}

/**
 * An in-order match of `query` in `candidate` (case-insensitive), or undefined when some character
 * is missing. For each query character it prefers the next word start over a nearer mid-word
 * occurrence (`cs` → `ChatSettings`, not `chatsettings`); when that preference leaves the rest of
 * the query unmatched, the plain leftmost match is taken.
 */
export function fuzzyMatch(query: string, candidate: string): FuzzyMatch | undefined {
  const needle = query.toLowerCase();
  if (!needle) return { score: 0, positions: [] };
  const haystack = candidate.toLowerCase();
  const positions = positionsOf(needle, haystack, candidate, true) ?? positionsOf(needle, haystack, candidate, false);
  return positions && { score: scoreOf(candidate, positions), positions };
}

function positionsOf(needle: string, haystack: string, candidate: string, preferWordStarts: boolean): number[] | undefined {
  const positions: number[] = [];
  let from = 0;
  for (const char of needle) {
    let chosen = haystack.indexOf(char, from);
    if (chosen < 0) return undefined;
    if (preferWordStarts && !isWordStart(candidate, chosen) && positions.at(-1) !== chosen - 1) {
      for (let i = chosen + 1; i < haystack.length; i++) {
        if (haystack[i] === char && isWordStart(candidate, i)) {
          chosen = i;
          break;
        }
      }
    }
    positions.push(chosen);
    from = chosen + 1;
  }
  return positions;
}

function scoreOf(candidate: string, positions: number[]): number {
  let score = 0;
  positions.forEach((position, i) => {
    score += BASE_POINT;
    if (isWordStart(candidate, position)) score += WORD_START_BONUS;
    if (i > 0 && positions[i - 1] === position - 1) score += CONSECUTIVE_BONUS;
  });
  if (positions[0] === 0) score += FIRST_CHARACTER_BONUS;
  // Between equal matches, the shorter candidate is the closer one.
  return score - candidate.length / 1000;
}

/** A workspace-relative path: the file name is tried first; a query with a separator matches the whole path. */
export function matchPath(query: string, path: string): FuzzyMatch | undefined {
  const trimmed = query.trim();
  const nameStart = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1;
  if (!/[\\/]/.test(trimmed)) {
    const inName = fuzzyMatch(trimmed, path.slice(nameStart));
    if (inName) return { score: inName.score + FILE_NAME_BONUS, positions: inName.positions.map((p) => p + nameStart) };
  }
  return fuzzyMatch(trimmed.replace(/\\/g, '/'), path.replace(/\\/g, '/'));
}
