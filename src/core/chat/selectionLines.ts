/**
 * The 1-based line range a selection covers, as people read it: a selection that ends at the very
 * start of a line (Shift+Down, triple-click) does not include that line.
 */
export function selectionLineRange(start: { line: number }, end: { line: number; character: number }): string {
  const last = end.character === 0 && end.line > start.line ? end.line - 1 : end.line;
  return last === start.line ? `${start.line + 1}` : `${start.line + 1}-${last + 1}`;
}
