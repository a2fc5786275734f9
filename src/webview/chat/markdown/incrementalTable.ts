import type { MarkdownIt, Token } from 'markdown-it';
import { completeLineCount, lineOffsets, topLevelBlocks, type Block } from './blocks';
import { blockHtml, commitOp, type ContainerStep, type RenderOp } from './renderOp';

/**
 * The table half of IncrementalMarkdown: a table that is still open grows by rows, each committed
 * once its line is complete; the head is parsed again with the rows that follow it, because a row
 * alone is not a table.
 */

export interface TableMode { kind: 'table'; head: string; committed: string }

/** Opens the container for the table that `tokens` (parsed from `text`) start with, once its body has a complete row. */
export function enterTable(md: MarkdownIt, tokens: Token[], block: Block, text: string, lineStarts: number[], complete: number): { open: RenderOp; mode: TableMode; rest: string } | undefined {
  const bodyOpen = tokens.findIndex((t) => t.type === 'tbody_open');
  const bodyClose = tokens.findIndex((t) => t.type === 'tbody_close');
  if (bodyOpen < 0 || bodyClose < 0 || (tokens[bodyOpen + 1].map?.[0] ?? complete) >= complete || lineStarts.length < 3) return undefined;
  return {
    open: { op: 'open', kind: 'table', prefix: blockHtml(md, tokens.slice(0, bodyOpen + 1)), suffix: blockHtml(md, tokens.slice(bodyClose, block.end + 1)) },
    mode: { kind: 'table', head: text.slice(0, lineStarts[2]), committed: '' },
    rest: text.slice(lineStarts[2]),
  };
}

export type TableStep =
  /** The text no longer starts with this table: it goes back to be rendered from the top level. */
  | { discard: true }
  | ({ discard: false } & ContainerStep);

/** Commits the complete rows of `pending` (the table's text after its head and the rows committed before). */
export function growTable(md: MarkdownIt, mode: TableMode, pending: string, final: boolean): TableStep {
  const text = mode.head + pending;
  const tokens = md.parse(text, {});
  const blocks = topLevelBlocks(tokens);
  const table = blocks[0];
  if (!table || tokens[table.start].type !== 'table_open') return { discard: true };
  const ops: RenderOp[] = [];
  const rows: number[] = [];
  let bodyClose = table.end;
  for (let i = table.start; i < table.end; i++) {
    if (tokens[i].type === 'tr_open' && tokens[i].level === 2 && (tokens[i].map?.[0] ?? 0) >= 2) rows.push(i);
    if (tokens[i].type === 'tbody_close') bodyClose = i;
  }
  const lineStarts = lineOffsets(text);
  const complete = completeLineCount(text, lineStarts);
  const ended = final || (blocks.length > 1 && blocks[1].line < complete);
  let done = 0;
  while (done < rows.length && (ended || (tokens[rows[done]].map?.[0] ?? complete) < complete)) done++;
  if (done > 0) ops.push(commitOp(md, tokens.slice(rows[0], done < rows.length ? rows[done] : bodyClose)));
  const lastDoneLine = done > 0 ? (tokens[rows[done - 1]].map?.[0] ?? 0) + 1 : 2;
  const consumed = ended ? (blocks.length > 1 ? lineStarts[blocks[1].line] : text.length) : (lastDoneLine < lineStarts.length ? lineStarts[lastDoneLine] : text.length);
  mode.committed += text.slice(mode.head.length, consumed);
  const rest = text.slice(consumed);
  if (ended) {
    ops.push({ op: 'close' });
    return { discard: false, ops, pending: rest, closed: true, tail: { op: 'tail' } };
  }
  const tail: RenderOp = { op: 'tail', tokens: tokens.slice(done < rows.length ? rows[done] : bodyClose, bodyClose), after: tokens.slice(blocks.length > 1 ? blocks[1].start : tokens.length) };
  return { discard: false, ops, pending: rest, closed: false, tail };
}
