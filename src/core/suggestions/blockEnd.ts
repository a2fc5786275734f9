import type { CompletionMode } from './completionShape';
import { type CursorLine, isBlank, leadingWhitespace } from './cursorLine';
import { indentWidth, tabWidthOf } from './indentation';
import type { AnswerLines } from './modelChatter';

/**
 * Where a suggestion ends: after its first line in single-line mode; in multi-line mode where the
 * block it fills ends, since a model asked for a block often goes on with the code after it. The
 * same reading tells a stream that its suggestion is complete, so that it stops paying for tokens.
 */

/** Blank lines in a row that end a block: one blank line separates statements inside a block. */
export const BLANK_LINES_ENDING_A_BLOCK = 2;

/** A line that closes the block its opener began (`}`, `)`, `]`, `end`, a closing tag). */
const CLOSING_LINE = /^(?:[}\])]|end\b|<\/)/;

export interface ShapedLines {
  readonly lines: string[];
  /** The answer's lines after these are known to be no part of the suggestion, whatever arrives later. */
  readonly ended: boolean;
}

/**
 * The lines of the suggestion, from an answer already cleaned of chatter and echoes and, on a
 * whitespace-only line, placed at the cursor's indentation.
 */
export function cutToShape(answer: AnswerLines, cursor: CursorLine, mode: CompletionMode, indentUnit: string): ShapedLines {
  if (mode === 'singleLine') return firstLine(answer);
  const tabWidth = tabWidthOf(indentUnit);
  return isBlank(cursor.before)
    ? blockOnBlankLine(answer, indentWidth(cursor.before, tabWidth), tabWidth)
    : blockAfterOpener(answer, indentWidth(cursor.indentation, tabWidth), tabWidth);
}

/** The first line with text; a model that started on a new line meant it for the cursor. */
function firstLine({ lines, open }: AnswerLines): ShapedLines {
  const index = lines.findIndex((line) => !isBlank(line));
  if (index < 0) return { lines: [], ended: false };
  const line = index === 0 ? lines[0] : lines[index].trimStart();
  return { lines: [line], ended: !open || index < lines.length - 1 };
}

/** On a line of its own, the block is the lines down to the first one indented less than the cursor. */
function blockOnBlankLine({ lines, open }: AnswerLines, cursorColumns: number, tabWidth: number): ShapedLines {
  return walkBlock(lines, open, (line) => (columnsOf(line, tabWidth) < cursorColumns ? 'endBefore' : 'keep'));
}

/**
 * After a line that opens a block, the block is its body (indented deeper than the opener's line)
 * and the line that closes it at the opener's indentation; a line at that indentation or less that
 * closes nothing begins the code after the block.
 */
function blockAfterOpener({ lines, open }: AnswerLines, openerColumns: number, tabWidth: number): ShapedLines {
  // A model that began the body without a line break meant one: its first line is indented a level.
  const startsBody = lines.length > 0 && columnsOf(lines[0], tabWidth) >= openerColumns + tabWidth && !isBlank(lines[0]);
  const body = startsBody ? ['', ...lines] : lines;
  let sawBody = false;
  return walkBlock(body, open, (line) => {
    const columns = columnsOf(line, tabWidth);
    if (columns > openerColumns) {
      sawBody = true;
      return 'keep';
    }
    return sawBody && columns === openerColumns && CLOSING_LINE.test(line.trimStart()) ? 'endWith' : 'endBefore';
  });
}

type LineVerdict = 'keep' | 'endWith' | 'endBefore';

/** The first line, then each line with text as `verdict` judges it; a run of blank lines ends the block. */
function walkBlock(lines: readonly string[], open: boolean, verdict: (line: string) => LineVerdict): ShapedLines {
  const kept = lines.slice(0, 1);
  let blankRun = 0;
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index];
    const growing = open && index === lines.length - 1;
    if (isBlank(line)) {
      // A blank line still arriving may turn out to hold text.
      if (growing) break;
      if (++blankRun >= BLANK_LINES_ENDING_A_BLOCK) return { lines: kept.slice(0, kept.length - blankRun + 1), ended: true };
      kept.push(line);
      continue;
    }
    blankRun = 0;
    const decision = verdict(line);
    if (decision === 'endBefore') return { lines: kept, ended: true };
    kept.push(line);
    // A closing line still arriving may go on (`});`): the block ends once it is whole.
    if (decision === 'endWith') return { lines: kept, ended: !growing };
  }
  return { lines: kept, ended: false };
}

function columnsOf(line: string, tabWidth: number): number {
  return indentWidth(leadingWhitespace(line), tabWidth);
}
