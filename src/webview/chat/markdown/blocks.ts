import type { MarkdownIt, Token } from 'markdown-it';

/**
 * Splits the uncommitted tail of a streaming answer into blocks that are final (can be rendered once
 * and never touched again) and the rest, which is re-parsed on the next frame.
 *
 * Markdown block structure is decided line by line, and a later line can only change the block that
 * is still open: so every top-level block before the last one is final, provided the next block
 * starts on a complete line (a half-received line such as `-` can look like a list that the rest of
 * the line turns into a lazy paragraph continuation). A fenced code block is final as soon as its
 * closing fence line is complete, even when it is the last block.
 */

export interface TailSplit {
  /** Tokens of the final blocks, in order; render them once. */
  finalTokens: Token[];
  /** Characters of the tail that the final blocks (and the blank lines after them) cover. */
  finalLength: number;
  /** Tokens of the still-open blocks, already parsed: render these for this frame. */
  openTokens: Token[];
  /** Source lines the final blocks (and the blank lines after them) cover. */
  finalLines: number;
}

/** A top-level block: its first and last token indexes and its source lines [line, endLine). */
export interface Block { start: number; end: number; line: number; endLine: number }

export function splitTail(md: MarkdownIt, tail: string, final: boolean): TailSplit {
  return splitTokens(md.parse(tail, {}), tail, final);
}

/** splitTail for tokens already parsed from `tail`. */
export function splitTokens(tokens: Token[], tail: string, final: boolean): TailSplit {
  const nothingFinal = { finalTokens: [], finalLength: 0, openTokens: tokens, finalLines: 0 };
  if (final) return { finalTokens: tokens, finalLength: tail.length, openTokens: [], finalLines: 0 };
  const blocks = topLevelBlocks(tokens);
  if (blocks.length === 0) return nothingFinal;

  const lineStarts = lineOffsets(tail);
  const completeLines = completeLineCount(tail, lineStarts);
  let finalBlocks = 0;
  for (let i = 0; i < blocks.length - 1; i++) {
    if (blocks[i + 1].line < completeLines) finalBlocks = i + 1;
  }
  const last = blocks[blocks.length - 1];
  if (finalBlocks === blocks.length - 1 && isClosedFence(tokens[last.start], tail, lineStarts, completeLines)) {
    finalBlocks = blocks.length;
  }
  if (finalBlocks === 0) return nothingFinal;

  const boundaryLine = finalBlocks < blocks.length ? blocks[finalBlocks].line : blocks[finalBlocks - 1].endLine;
  const finalLength = boundaryLine < lineStarts.length ? lineStarts[boundaryLine] : tail.length;
  const cut = finalBlocks < blocks.length ? blocks[finalBlocks].start : tokens.length;
  return { finalTokens: tokens.slice(0, cut), finalLength, openTokens: tokens.slice(cut), finalLines: boundaryLine };
}

/**
 * The open blocks' tokens as a parse of the text after the final ones gives them, so that what
 * follows a commit is not parsed again (that second parse was a quarter of a fast stream's
 * parses): markdown-it decides block structure line by line, and the open part starts a new
 * top-level block, so only its line numbers differ; they are made to count from its start (the
 * tokens are this split's own). One difference is left: a link to a reference defined in a final
 * block resolves here and not in a parse of the rest alone; an answer with a definition is
 * rendered again whole when it ends (streamingMarkdown.ts).
 */
export function openTokensAlone(split: TailSplit): Token[] {
  for (const token of split.openTokens) {
    if (token.map) token.map = [token.map[0] - split.finalLines, token.map[1] - split.finalLines];
  }
  return split.openTokens;
}

export function topLevelBlocks(tokens: Token[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < tokens.length) {
    const open = tokens[i];
    let end = i;
    if (open.nesting === 1) {
      let depth = 0;
      for (end = i; end < tokens.length; end++) {
        depth += tokens[end].nesting;
        if (depth === 0) break;
      }
    }
    const map = open.map ?? [0, 0];
    blocks.push({ start: i, end, line: map[0], endLine: map[1] });
    i = end + 1;
  }
  return blocks;
}

/** Start offset of every line, splitting like markdown-it's normaliser (\r\n, \r and \n). */
export function lineOffsets(text: string): number[] {
  const starts = [0];
  const newline = /\r\n?|\n/g;
  for (let m = newline.exec(text); m; m = newline.exec(text)) starts.push(m.index + m[0].length);
  if (starts[starts.length - 1] === text.length && text.length > 0) starts.pop();
  return starts;
}

/** How many lines of `text` are complete (a half-received last line can still change meaning). */
export function completeLineCount(text: string, lineStarts: number[]): number {
  return text.endsWith('\n') || text.endsWith('\r') ? lineStarts.length : lineStarts.length - 1;
}

function isClosedFence(token: Token, tail: string, lineStarts: number[], completeLines: number): boolean {
  if (token.type !== 'fence' || !token.map) return false;
  const closingLine = token.map[1] - 1;
  if (closingLine <= token.map[0] || closingLine >= completeLines) return false;
  const lineEnd = closingLine + 1 < lineStarts.length ? lineStarts[closingLine + 1] : tail.length;
  const line = tail.slice(lineStarts[closingLine], lineEnd).trim();
  const marker = token.markup[0];
  return line.length >= token.markup.length && [...line].every((c) => c === marker);
}

/** true/false when the tokens show whether the list is tight, undefined when no item has a paragraph. */
export function tightness(tokens: Token[], list: Block, level: number): boolean | undefined {
  for (let i = list.start; i < list.end; i++) {
    if (tokens[i].type === 'paragraph_open' && tokens[i].level === level + 2) return tokens[i].hidden;
  }
  return undefined;
}

export function loosen(tokens: Token[], list: Block, level: number): void {
  for (let i = list.start; i < list.end; i++) {
    const t = tokens[i];
    if ((t.type === 'paragraph_open' || t.type === 'paragraph_close') && t.level === level + 2) t.hidden = false;
  }
}
