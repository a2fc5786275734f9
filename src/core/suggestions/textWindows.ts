/**
 * Bounded windows of a text, cut at a line boundary where the window holds one: a model reads a
 * whole line better than half of one. A window never exceeds its size, so a budget holds exactly.
 */

/** At most `size` characters from the end of `text` (the text before the cursor, near it). */
export function tailWindow(text: string, size: number): string {
  if (size <= 0) return '';
  if (text.length <= size) return text;
  const cut = text.slice(text.length - size);
  const lineStart = cut.indexOf('\n');
  return lineStart < 0 ? cut : cut.slice(lineStart + 1);
}

/** At most `size` characters from the start of `text` (the text after the cursor, a snippet). */
export function headWindow(text: string, size: number): string {
  if (size <= 0) return '';
  if (text.length <= size) return text;
  const cut = text.slice(0, size);
  const lineEnd = cut.lastIndexOf('\n');
  return lineEnd < 0 ? cut : cut.slice(0, cut[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd);
}
