import type { MarkdownIt, Token } from 'markdown-it';
import { completeLineCount, lineOffsets, loosen, openTokensAlone, splitTail, splitTokens, tightness, topLevelBlocks } from './blocks';
import { enterFence, growFence, type FenceMode } from './incrementalFence';
import { enterTable, growTable, type TableMode } from './incrementalTable';
import { blockHtml, commitOp, type ContainerStep, type RenderOp } from './renderOp';

/**
 * The DOM-free half of the streaming renderer: turns a growing answer into render operations whose
 * total cost follows the answer's bytes, not its frames. Finished top-level blocks are committed
 * once (see blocks.ts). The one block still open is the quadratic risk, so three kinds grow in
 * place instead of being re-parsed whole: a list commits each item once the next one starts, a
 * table each row once its line is complete, a code fence each run of lines once the highlighter
 * is back at its top level. Whatever is still open is parsed again only when a line ends, or
 * when text that may render as more than itself (SIGNIFICANT) arrived, once `reparseChars` and
 * half the open part's length came in (by bytes, not time: re-parsing then costs at most about
 * twice the open part's bytes, whatever the model's speed); in between, new text is appended as
 * text. Concatenating the committed HTML gives exactly the one-shot render of the final text.
 */

interface ListMode { kind: 'list'; type: string; marker: string; tight: boolean | undefined; committed: string }
type Mode = ListMode | TableMode | FenceMode;

const NEWLINE = /[\r\n]/;
/**
 * Text that may render as more than itself inside a line: emphasis, code, links, images, strikes,
 * escapes, entities, autolinks, cells, and linkify's `http:`, `a@b`, `example.com` (typographer is
 * off). Tested with the previous character, so that a construct split between appends is seen.
 */
const SIGNIFICANT = /[\\`*_~[\]<>&!|:@]|\.\S/;

export class IncrementalMarkdown {
  #pending = '';
  /** Text appended since the last full pass (shown as text until the next pass). */
  #fresh = '';
  #sawNewline = true;
  /** Characters appended since the last full pass. */
  #sinceParse = 0;
  /** Appended text may render as more than itself (SIGNIFICANT, or a line starts); until then, text is what a parse shows. */
  #dirty = false;
  /** The last character appended (reading `pending`, built by `+=`, would flatten it). */
  #last = '';
  #mode: Mode | undefined;
  /** After a discard, the open block is rendered as a whole until it is committed. */
  #blocked = false;
  #tail: RenderOp = { op: 'tail' };
  /**
   * White space that ended the open line at the last parse: markdown-it trims it from a paragraph,
   * a heading or a cell, so the text appended next must bring it back ("with" + " " + "a", not "witha").
   */
  #trimmedSpace = '';
  /** What follows a commit, already parsed by the pass that committed (see openTokensAlone). */
  #parsedRest: Token[] | undefined;

  readonly #md: MarkdownIt;
  /** The open part's formatting (bold, links…) catches up at least this often. */
  readonly #reparseChars: number;

  constructor(
    md: MarkdownIt,
    reparseChars = 64,
  ) {
    this.#md = md;
    this.#reparseChars = reparseChars;
  }

  append(text: string): void {
    if (!this.#last || this.#last === '\n' || this.#last === '\r' || SIGNIFICANT.test(this.#last + text)) this.#dirty = true;
    this.#last = text.at(-1) ?? this.#last;
    this.#pending += text;
    this.#fresh += text;
    this.#sinceParse += text.length;
    if (NEWLINE.test(text)) this.#sawNewline = true;
  }

  reset(text: string): void {
    this.#pending = text;
    this.#fresh = '';
    this.#sawNewline = true;
    this.#dirty = true;
    this.#last = text.at(-1) ?? '';
    this.#mode = undefined;
    this.#blocked = false;
    this.#trimmedSpace = '';
    this.#parsedRest = undefined;
  }

  /** Characters of the open part: what the provisional rendering (the last `tail` op) shows. */
  get openChars(): number {
    return this.#pending.length + (this.#mode?.kind === 'fence' ? this.#mode.code.length : 0);
  }

  /** The operations that bring the DOM up to date; with `final`, everything is committed. */
  update(final: boolean): RenderOp[] {
    // Inside a code fence only a line's end changes anything: its lines are text until committed.
    const stale = this.#dirty && this.#mode?.kind !== 'fence';
    if (!final && !this.#sawNewline && (!stale || this.#sinceParse < Math.max(this.#reparseChars, (this.#pending.length - this.#sinceParse) / 2))) {
      if (!this.#fresh) return [];
      const text = this.#trimmedSpace + this.#fresh;
      this.#fresh = '';
      this.#trimmedSpace = '';
      return [{ op: 'tailText', text }];
    }
    this.#fresh = '';
    this.#sawNewline = false;
    this.#dirty = false;
    this.#sinceParse = 0;
    const ops: RenderOp[] = [];
    for (let guard = 0; guard < 10_000; guard++) {
      const again = !this.#mode ? this.#blocksPass(final, ops)
        : this.#mode.kind === 'list' ? this.#listPass(this.#mode, final, ops)
          : this.#mode.kind === 'table' ? this.#tablePass(this.#mode, final, ops)
            : this.#fencePass(this.#mode, final, ops);
      if (!again) break;
    }
    ops.push(final ? { op: 'tail' } : this.#tail);
    // Code keeps its white space (a fence's open lines are text, not parsed).
    const code = this.#mode?.kind === 'fence' || (this.#tail.op === 'tail' && this.#tail.tokens?.some((t) => t.type === 'code_block' || t.type === 'fence'));
    this.#trimmedSpace = final || code ? '' : (/[ \t]+$/.exec(this.#pending)?.[0] ?? '');
    return ops;
  }

  /** Top level: commit finished blocks; let a list, table or fence that is still open grow in place. */
  #blocksPass(final: boolean, ops: RenderOp[]): boolean {
    const text = this.#pending;
    const parsed = this.#parsedRest;
    this.#parsedRest = undefined;
    const split = parsed ? splitTokens(parsed, text, final) : splitTail(this.#md, text, final);
    if (split.finalLength > 0 || split.finalTokens.length > 0) {
      ops.push(commitOp(this.#md, split.finalTokens));
      this.#pending = text.slice(split.finalLength);
      this.#blocked = false;
      this.#tail = { op: 'tail' };
      if (this.#pending && split.openTokens.length) this.#parsedRest = openTokensAlone(split);
      return this.#pending.length > 0;
    }
    const tokens = split.openTokens;
    const blocks = topLevelBlocks(tokens);
    this.#tail = { op: 'tail', tokens };
    if (this.#blocked || blocks.length !== 1 || blocks[0].line !== 0) return false;
    const lineStarts = lineOffsets(text);
    const complete = completeLineCount(text, lineStarts);
    if (complete === 0 || text.endsWith('\r')) return false;
    const first = tokens[0];
    if (first.type === 'fence' && /^(`{3,}|~{3,})/.test(text)) return this.#enterFence(first, text, lineStarts, ops);
    if (first.type === 'bullet_list_open' || first.type === 'ordered_list_open') {
      ops.push({ op: 'open', kind: 'list', prefix: blockHtml(this.#md, [first]), suffix: blockHtml(this.#md, [tokens[blocks[0].end]]) });
      this.#mode = { kind: 'list', type: first.type, marker: tokens[1].markup, tight: undefined, committed: '' };
      return true;
    }
    const table = first.type === 'table_open' ? enterTable(this.#md, tokens, blocks[0], text, lineStarts, complete) : undefined;
    if (!table) return false;
    ops.push(table.open);
    this.#mode = table.mode;
    this.#pending = table.rest;
    return true;
  }

  #enterFence(fence: Token, text: string, lineStarts: number[], ops: RenderOp[]): boolean {
    const entered = enterFence(this.#md, fence, text, lineStarts);
    ops.push(entered.open);
    this.#mode = entered.mode;
    this.#pending = entered.rest;
    return true;
  }

  /** Puts the container's text back in front and renders it again from the top level. */
  #discard(mode: Mode, prefix: string, ops: RenderOp[], block: boolean): true {
    ops.push({ op: 'discard' });
    this.#pending = prefix + mode.committed + this.#pending;
    this.#mode = undefined;
    this.#blocked = block;
    return true;
  }

  #listPass(mode: ListMode, final: boolean, ops: RenderOp[]): boolean {
    const text = this.#pending;
    const tokens = this.#md.parse(text, {});
    const blocks = topLevelBlocks(tokens);
    const list = blocks[0];
    if (!list || tokens[list.start].type !== mode.type || tokens[list.start + 1]?.markup !== mode.marker) return this.#discard(mode, '', ops, true);
    const level = tokens[list.start].level;
    const tight = tightness(tokens, list, level);
    // Tightness belongs to the whole list: items committed tight must be rendered again once it is loose.
    if (tight === false && mode.tight === true && mode.committed) return this.#discard(mode, '', ops, false);
    if (tight !== undefined && mode.tight !== false) mode.tight = tight;
    if (mode.tight === false) loosen(tokens, list, level);
    const items: number[] = [];
    for (let i = list.start; i < list.end; i++) if (tokens[i].type === 'list_item_open' && tokens[i].level === level + 1) items.push(i);
    const lineStarts = lineOffsets(text);
    const complete = completeLineCount(text, lineStarts);
    const ended = final || (blocks.length > 1 && blocks[1].line < complete);
    let open = items.length;
    if (!ended) {
      open = 0;
      for (let k = 1; k < items.length; k++) if ((tokens[items[k]].map?.[0] ?? complete) < complete) open = k;
    }
    const after = ended ? blocks.length > 1 ? lineStarts[blocks[1].line] : text.length : undefined;
    if (open > 0) {
      ops.push(commitOp(this.#md, tokens.slice(items[0], open < items.length ? items[open] : list.end)));
      const length = after ?? lineStarts[tokens[items[open]].map?.[0] ?? 0];
      mode.committed += text.slice(0, length);
      this.#pending = text.slice(length);
    }
    if (ended) {
      if (open === 0) this.#pending = text.slice(after);
      ops.push({ op: 'close' });
      this.#mode = undefined;
      return true;
    }
    // The open items and what follows, from the same parse (already loosened with the list).
    const from = open > 0 ? items[open] : list.start + 1;
    this.#tail = { op: 'tail', tokens: tokens.slice(from, list.end), after: tokens.slice(list.end + 1) };
    return false;
  }

  #tablePass(mode: TableMode, final: boolean, ops: RenderOp[]): boolean {
    const step = growTable(this.#md, mode, this.#pending, final);
    return step.discard ? this.#discard(mode, mode.head, ops, true) : this.#grown(step, ops);
  }

  #fencePass(mode: FenceMode, final: boolean, ops: RenderOp[]): boolean {
    return this.#grown(growFence(this.#md, mode, this.#pending, final), ops);
  }

  /** Takes a container's growth: its operations, the text left, and the top level again once it closed. */
  #grown(step: ContainerStep, ops: RenderOp[]): boolean {
    ops.push(...step.ops);
    this.#pending = step.pending;
    if (step.closed) {
      this.#mode = undefined;
      return true;
    }
    this.#tail = step.tail;
    return false;
  }
}
