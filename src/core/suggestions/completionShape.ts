import { cursorLineOf, isBlank } from './cursorLine';

/**
 * Whether a suggestion may span lines. Text after the cursor on its line means the user is inside a
 * line (an argument list, an expression): a block there would push that text down, so only the rest
 * of the line is offered. A block is offered where one is expected: on an empty or whitespace-only
 * line, or at the end of a line that opens one.
 */
export type CompletionMode = 'singleLine' | 'multiLine';

/**
 * A line's end that opens a block: a bracket (`{`, `(`, `[`), Python's and YAML's `:`, an arrow, or
 * a keyword that opens one in Ruby, Lua, shell or Pascal-like languages.
 */
const BLOCK_OPENER = /(?:[{([:]|=>|->|\b(?:do|then|else|begin))$/;

export function opensBlock(lineBeforeCursor: string): boolean {
  return BLOCK_OPENER.test(lineBeforeCursor.trimEnd());
}

export function completionModeAt(prefix: string, suffix: string): CompletionMode {
  const line = cursorLineOf(prefix, suffix);
  if (!isBlank(line.after)) return 'singleLine';
  return isBlank(line.before) || opensBlock(line.before) ? 'multiLine' : 'singleLine';
}

/**
 * Whether a suggestion is worth asking for here. Inside a word (a letter, digit or `_` right after
 * the cursor) the user is editing a name, and whatever the model inserts would split it: nothing is
 * sent, which is also where most keystrokes of an edit land.
 */
export function suggestionFitsAt(suffix: string): boolean {
  return !/^[\p{L}\p{N}_$]/u.test(suffix);
}
