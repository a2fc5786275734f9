import { type CompletionMode } from './completionShape';
import { cursorLineOf, isBlank, lineEndingOf, linesOf } from './cursorLine';
import { cutToShape } from './blockEnd';
import { withoutLineOverlap, withoutPrefixEcho, withoutSuffixLines } from './echoes';
import { inFileStyle, matchCursorIndentation } from './indentation';
import { unwrapAnswer } from './modelChatter';

/**
 * A chat model's answer turned into the text a suggestion shows. A chat endpoint has no
 * fill-in-the-middle mode: however the prompt asks, answers come fenced, introduced, re-indented,
 * repeating the file around the cursor or running past the block. Each cleaning step is one module;
 * this is their order, which matters: chatter first (a fence hides the indentation), then the file's
 * indentation style (echoes and block ends compare widths), echoes of the text before the cursor,
 * the cursor's indentation, the shape, and last the overlap with the text after the cursor (known
 * only once the suggestion's end is).
 */

export interface SuggestionContext {
  /** The text before the cursor (a window of it is enough: its last lines are read). */
  readonly prefix: string;
  /** The text after the cursor (its first lines are read). */
  readonly suffix: string;
  readonly mode: CompletionMode;
  /** One level of indentation as the editor inserts it: a tab, or its spaces. */
  readonly indentUnit: string;
}

export interface SuggestionReading {
  /** The text to show, in the file's line endings; undefined when nothing useful remains. */
  readonly suggestion: string | undefined;
  /** Whatever the model adds to this answer, the suggestion is already complete (see streamCutoff.ts). */
  readonly ended: boolean;
}

/** The text to show for a model's whole answer, or undefined when nothing useful remains. */
export function cleanSuggestion(raw: string, context: SuggestionContext): string | undefined {
  return readSuggestion(raw, context, false).suggestion;
}

/** `streaming`: the answer may still grow, so its last line is not taken as whole. */
export function readSuggestion(raw: string, context: SuggestionContext, streaming: boolean): SuggestionReading {
  const { prefix, suffix, mode, indentUnit } = context;
  const cursor = cursorLineOf(prefix, suffix);
  const unwrapped = unwrapAnswer({ lines: linesOf(raw), open: streaming });
  let lines = withoutPrefixEcho(inFileStyle(unwrapped.lines, indentUnit), prefix, cursor);
  if (isBlank(cursor.before)) lines = matchCursorIndentation(lines, cursor.before, indentUnit);
  const shaped = cutToShape({ lines, open: unwrapped.open }, cursor, mode, indentUnit);
  const kept = mode === 'singleLine' ? [withoutLineOverlap(shaped.lines[0] ?? '', cursor.after)] : withoutSuffixLines(shaped.lines, suffix, cursor.before);
  const suggestion = kept.map((line) => line.trimEnd()).join(lineEndingOf(prefix, suffix)).trimEnd();
  return { suggestion: isBlank(suggestion) ? undefined : suggestion, ended: unwrapped.closed || shaped.ended };
}
