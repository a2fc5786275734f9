import { isBlank } from './cursorLine';

/**
 * What a chat model wraps around the text it was asked for, in spite of the system prompt: a code
 * fence (with or without a language), a line of prose before it ("Here is the completion:") and
 * prose after it. Taken off here, before any other cleaning looks at the lines.
 */

/** A model's answer as lines; `open` while it streams: its last line may still grow. */
export interface AnswerLines {
  readonly lines: readonly string[];
  readonly open: boolean;
}

export interface Unwrapped extends AnswerLines {
  /** A closing fence (or a fence after the code) ended the answer: nothing after it is the suggestion. */
  readonly closed: boolean;
}

const FENCE = /^\s*(`{3,}|~{3,})/;
const BARE_FENCE = /^\s*(`{3,}|~{3,})\s*$/;

/**
 * A line that introduces the answer. Only lines of this shape are taken for prose, with a space in
 * them, so that a YAML key (`output:`) or a label in the code is not taken off.
 */
const PROSE_OPENING = /^(?:sure|certainly|of course|okay|ok|here(?:'s| is| are)|below is|this (?:is|completes)|the (?:completion|code|inserted text|text to insert|rest|missing)|completion|inserted text|insertion|output|answer)\b/i;
const PROSE_ENDING = /[:.!]$/;
/** Before a fence, any line that ends with a colon and holds no code characters introduces it. */
const CODE_CHARACTERS = /[;{}()=<>[\]]/;

export function isProseLine(line: string, beforeFence = false): boolean {
  const text = line.trim();
  if (PROSE_OPENING.test(text) && PROSE_ENDING.test(text) && /\s/.test(text)) return true;
  return beforeFence && text.endsWith(':') && !CODE_CHARACTERS.test(text);
}

/** The answer without its fence and the prose around it. */
export function unwrapAnswer(answer: AnswerLines): Unwrapped {
  const { lines, open } = answer;
  const complete = (index: number) => !open || index < lines.length - 1;
  // Before a fence, any line ending in a colon introduces it; without one, such a line is code
  // (Python's `for item in items:`), and only a line of prose's own shape is taken off.
  const fence = firstAfter(lines, 0, complete, (line) => isBlank(line) || isProseLine(line, true));
  const opener = fence < lines.length ? FENCE.exec(lines[fence]) : null;
  if (opener) return fencedBody(lines, open, fence, opener[1]);
  const start = firstAfter(lines, 0, complete, (line) => isBlank(line) || isProseLine(line));
  return bodyUntilBareFence(lines.slice(lastProseBefore(lines, start) < 0 ? 0 : start), open);
}

/** The first line from `index` that `skipped` does not take (only whole lines are taken while streaming). */
function firstAfter(lines: readonly string[], index: number, complete: (index: number) => boolean, skipped: (line: string) => boolean): number {
  let next = index;
  while (next < lines.length && complete(next) && skipped(lines[next])) next++;
  return next;
}

/** The last line of prose before `end`; -1 when only blank lines are there (they stay, as the cursor's line break). */
function lastProseBefore(lines: readonly string[], end: number): number {
  for (let index = end - 1; index >= 0; index--) if (!isBlank(lines[index])) return index;
  return -1;
}

/** The lines between an opening fence and the first closing one of the same kind (prose after it dropped). */
function fencedBody(lines: readonly string[], open: boolean, opener: number, marker: string): Unwrapped {
  for (let index = opener + 1; index < lines.length; index++) {
    if (open && index === lines.length - 1) break;
    const closer = BARE_FENCE.exec(lines[index]);
    if (closer && closer[1][0] === marker[0] && closer[1].length >= marker.length) {
      return { lines: lines.slice(opener + 1, index), open: false, closed: true };
    }
  }
  return { lines: lines.slice(opener + 1), open, closed: false };
}

/** A model that answered without an opening fence but closed one after the code: the rest is prose. */
function bodyUntilBareFence(lines: readonly string[], open: boolean): Unwrapped {
  const end = lines.findIndex((line, index) => BARE_FENCE.test(line) && (!open || index < lines.length - 1));
  return end < 0 ? { lines, open, closed: false } : { lines: lines.slice(0, end), open: false, closed: true };
}
