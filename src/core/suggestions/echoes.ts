import { type CursorLine, isBlank, linesOf } from './cursorLine';

/**
 * Text a model repeats although the file already has it. Asked for the text at the cursor, models
 * still often start with the line they were shown before it, or run on into the text after it;
 * shown as ghost text, either would be inserted twice.
 */

/** How many lines before the cursor a model is seen to repeat at the start of its answer. */
const ECHOED_LINES_CHECKED = 3;
/** How many lines after the cursor a model is seen to run on into. */
const SUFFIX_LINES_CHECKED = 10;
/** A repeated start of the rest of the line shorter than this, with no bracket to explain it, may be new text. */
const MIN_WORDY_OVERLAP = 3;

/**
 * The answer's lines without the lines before the cursor it repeats and, on its first line, without
 * the part of the cursor's line it repeats.
 */
export function withoutPrefixEcho(lines: readonly string[], prefix: string, cursor: CursorLine): string[] {
  let rest = [...lines];
  if (isBlank(cursor.before)) rest = withoutEchoedLines(rest, prefix, cursor);
  const typed = cursor.before.trimStart();
  const first = rest[0]?.trimStart() ?? '';
  if (typed && first.startsWith(typed)) rest[0] = first.slice(typed.length);
  return rest;
}

/** The lines before the cursor's line that the answer starts with, compared without indentation. */
function withoutEchoedLines(lines: string[], prefix: string, cursor: CursorLine): string[] {
  const before = linesOf(prefix.slice(0, prefix.length - cursor.before.length)).slice(0, -1);
  const shown = before.slice(-ECHOED_LINES_CHECKED).map((line) => line.trim());
  for (let count = Math.min(shown.length, lines.length - 1); count > 0; count--) {
    const repeated = lines.slice(0, count).map((line) => line.trim());
    if (repeated.every((line, index) => line !== '' && line === shown[shown.length - count + index])) return lines.slice(count);
  }
  return lines;
}

/**
 * A single line without its end where it repeats the start of the rest of the cursor's line. The
 * end is taken for a repeat when it is the whole rest of the line, when it closes a bracket or a
 * quote the suggestion did not open (the file's closing bracket is already there), or when it is
 * a few characters holding a word; a suggestion that closes its own bracket keeps it.
 */
export function withoutLineOverlap(line: string, after: string): string {
  const rest = after.trimEnd();
  for (let length = Math.min(line.length, rest.length); length > 0; length--) {
    const overlap = rest.slice(0, length);
    if (!line.endsWith(overlap)) continue;
    const kept = line.slice(0, line.length - length);
    if (closesOutside(kept + overlap, overlap)) return kept;
    const brackets = /[()[\]{}"'`]/.test(overlap);
    if (!brackets && (overlap === rest || (/\w/.test(overlap) && overlap.length >= MIN_WORDY_OVERLAP))) return kept;
  }
  return line;
}

const PAIRS: ReadonlyArray<readonly [string, string]> = [['(', ')'], ['[', ']'], ['{', '}']];
const QUOTES = ['"', "'", '`'];

/** Every bracket or quote `overlap` holds is one `text` closes without having opened it. */
function closesOutside(text: string, overlap: string): boolean {
  let closes = false;
  for (const [opening, closing] of PAIRS) {
    if (!overlap.includes(closing) && !overlap.includes(opening)) continue;
    if (count(text, opening) >= count(text, closing)) return false;
    closes = true;
  }
  for (const quote of QUOTES) {
    if (!overlap.includes(quote)) continue;
    if (count(text, quote) % 2 === 0) return false;
    closes = true;
  }
  return closes;
}

function count(text: string, char: string): number {
  let found = 0;
  for (const each of text) if (each === char) found++;
  return found;
}

/**
 * The lines without the last ones that repeat the file's next lines after the cursor (blank lines
 * skipped). Lines are compared with their indentation, the first placed after `lineStart` (the
 * cursor's line up to the cursor): a closing brace of the suggestion's own block is not the file's.
 */
export function withoutSuffixLines(answer: readonly string[], suffix: string, lineStart: string): string[] {
  const next = linesOf(suffix).slice(1).filter((line) => !isBlank(line)).slice(0, SUFFIX_LINES_CHECKED).map((line) => line.trimEnd());
  const lines = trimBlankEnd([...answer]);
  const asInFile = lines.map((line, index) => (index === 0 ? lineStart + line : line).trimEnd());
  for (let count = Math.min(next.length, lines.length); count > 0; count--) {
    const tail = asInFile.slice(lines.length - count);
    if (tail.every((line, index) => line === next[index])) return trimBlankEnd(lines.slice(0, lines.length - count));
  }
  return lines;
}

function trimBlankEnd(lines: string[]): string[] {
  while (lines.length > 0 && isBlank(lines[lines.length - 1])) lines.pop();
  return lines;
}
