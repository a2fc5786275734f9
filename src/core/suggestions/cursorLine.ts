/**
 * The line the cursor stands on, read from the text around it. Every suggestion decision (its shape,
 * its cleaning, when its stream may stop) looks at this line first, so it is read one way here.
 */

export interface CursorLine {
  /** The cursor's line up to the cursor. */
  readonly before: string;
  /** The cursor's line from the cursor to its end (without the line break). */
  readonly after: string;
  /** The line's leading whitespace, as the file writes it. */
  readonly indentation: string;
}

/** `prefix` and `suffix` are the text before and after the cursor; either may be a window of the file. */
export function cursorLineOf(prefix: string, suffix: string): CursorLine {
  const before = prefix.slice(prefix.lastIndexOf('\n') + 1);
  const lineEnd = suffix.search(/\r?\n/);
  const after = lineEnd < 0 ? suffix : suffix.slice(0, lineEnd);
  return { before, after, indentation: leadingWhitespace(before + after) };
}

export function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

export function isBlank(line: string): boolean {
  return line.trim() === '';
}

/** Lines of a text with any line ending (a model may answer with CRLF in a LF file or the reverse). */
export function linesOf(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** The line ending the file uses, judged from the text around the cursor. */
export function lineEndingOf(prefix: string, suffix: string): '\n' | '\r\n' {
  return prefix.includes('\r\n') || suffix.includes('\r\n') ? '\r\n' : '\n';
}
