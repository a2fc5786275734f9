import { opensBlock } from './completionShape';
import { isBlank, leadingWhitespace } from './cursorLine';

/**
 * Indentation in the file's own style. A model often answers with spaces in a file indented with
 * tabs (or the reverse); its lines are rewritten with the file's indentation unit before anything
 * compares widths, so that a dedent is measured the same way on both sides.
 */

/** A tab's width when the file indents with tabs and nothing says otherwise. */
export const DEFAULT_TAB_WIDTH = 4;

/** The model's spaces per level when its answer does not show one (only used to turn spaces into tabs). */
const DEFAULT_MODEL_LEVEL = 4;

/** The width of one tab: a unit of spaces is also the editor's tab size; a tab unit has no width of its own. */
export function tabWidthOf(indentUnit: string): number {
  return indentUnit.includes('\t') || indentUnit.length === 0 ? DEFAULT_TAB_WIDTH : indentUnit.length;
}

/** Columns of a run of leading whitespace. */
export function indentWidth(whitespace: string, tabWidth: number): number {
  let columns = 0;
  for (const char of whitespace) columns += char === '\t' ? tabWidth : 1;
  return columns;
}

/** Whitespace `columns` wide in the unit's style. */
export function indentOf(columns: number, indentUnit: string): string {
  if (!indentUnit.includes('\t')) return ' '.repeat(Math.max(0, columns));
  const tabWidth = tabWidthOf(indentUnit);
  return '\t'.repeat(Math.floor(columns / tabWidth)) + ' '.repeat(Math.max(0, columns % tabWidth));
}

/**
 * The model's lines with their leading whitespace in the file's style: spaces turn into tabs at the
 * model's own level (a model that indents by 2 meant one level by 2 spaces), tabs into the unit's
 * spaces.
 */
export function inFileStyle(lines: readonly string[], indentUnit: string): string[] {
  const tabWidth = tabWidthOf(indentUnit);
  const toTabs = indentUnit.includes('\t');
  const modelLevel = toTabs ? modelSpacesPerLevel(lines) : tabWidth;
  return lines.map((line) => {
    const whitespace = leadingWhitespace(line);
    if (!whitespace) return line;
    const levels = indentWidth(whitespace, modelLevel) / modelLevel;
    const columns = toTabs ? Math.round(levels * tabWidth) : indentWidth(whitespace, tabWidth);
    return indentOf(columns, indentUnit) + line.slice(whitespace.length);
  });
}

/**
 * The greatest common step of the model's space indentations: 4 and 8 are levels of 4, and a lone 8
 * is more often two levels of 4 than one of 8. Odd alignments (1 or 3) say nothing about levels.
 */
function modelSpacesPerLevel(lines: readonly string[]): number {
  let step = 0;
  for (const line of lines) {
    if (isBlank(line)) continue;
    const spaces = /^ */.exec(line)?.[0].length ?? 0;
    if (spaces > 0) step = greatestCommonDivisor(step, spaces);
  }
  if (step < 2) return DEFAULT_MODEL_LEVEL;
  return step > DEFAULT_MODEL_LEVEL && step % DEFAULT_MODEL_LEVEL === 0 ? DEFAULT_MODEL_LEVEL : step;
}

function greatestCommonDivisor(a: number, b: number): number {
  return b === 0 ? a : greatestCommonDivisor(b, a % b);
}

/**
 * The lines placed at the cursor on a whitespace-only line, where the cursor already stands at the
 * line's indentation. Lines after the first are the model's as the file would show them. Its first
 * line often carries the indentation again (the model wrote the whole line): what the cursor
 * already has is taken off it. A first line indented less than the cursor means the model placed
 * the whole block too far left: every line moves right by the difference.
 */
export function matchCursorIndentation(lines: readonly string[], cursorIndentation: string, indentUnit: string): string[] {
  const first = lines.findIndex((line) => !isBlank(line));
  if (first < 0) return [...lines];
  const tabWidth = tabWidthOf(indentUnit);
  const cursorColumns = indentWidth(cursorIndentation, tabWidth);
  const whitespace = leadingWhitespace(lines[first]);
  const firstColumns = indentWidth(whitespace, tabWidth);
  const content = lines[first].slice(whitespace.length);
  if (firstColumns >= cursorColumns) return [indentOf(firstColumns - cursorColumns, indentUnit) + content, ...lines.slice(first + 1)];
  if (firstColumns === 0 && !writtenFromColumnZero(lines, first, cursorColumns, tabWidth)) return [content, ...lines.slice(first + 1)];
  const shift = cursorColumns - firstColumns;
  return [content, ...lines.slice(first + 1).map((line) => (isBlank(line) ? line : shifted(line, shift, indentUnit, tabWidth)))];
}

/**
 * Whether the model wrote the whole block as if it started at column 0: its first line opens a block
 * (`for item in items:`, `if (ready) {`) and the line inside it is not indented past the cursor, as
 * it would be in the file.
 */
function writtenFromColumnZero(lines: readonly string[], first: number, cursorColumns: number, tabWidth: number): boolean {
  if (!opensBlock(lines[first])) return false;
  const inside = lines.slice(first + 1).find((line) => !isBlank(line));
  return inside !== undefined && indentWidth(leadingWhitespace(inside), tabWidth) <= cursorColumns;
}

function shifted(line: string, columns: number, indentUnit: string, tabWidth: number): string {
  const whitespace = leadingWhitespace(line);
  return indentOf(indentWidth(whitespace, tabWidth) + columns, indentUnit) + line.slice(whitespace.length);
}
