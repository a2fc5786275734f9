import type { MarkdownIt, Token } from 'markdown-it';
import type { AnswerDom } from './answerDom';
import { topLevelBlocks, type Block } from './blocks';
import { renderTokens } from './markdown';

/** Top-level blocks one slice renders (one sanitiser call each). */
const SLICE_BLOCKS = 8;

/**
 * A final answer rendered a slice at a time (a long answer rendered as it is scrolled near, over
 * several frames): parsed once, then its top-level blocks rendered SLICE_BLOCKS at a time. The
 * one-shot render commits the same tokens as one piece; with raw HTML off every top-level block's
 * HTML is whole, so the pieces sanitise and place into the same DOM (a Chromium test holds every
 * answer of a long conversation equal to its one-shot render). Its tokens live only while it builds.
 */
export class AnswerSlices {
  readonly #tokens: Token[];
  readonly #blocks: Block[];
  #next = 0;
  /** The top-level nodes committed so far. */
  readonly committed: Node[] = [];

  readonly #md: MarkdownIt;

  constructor(md: MarkdownIt, text: string) {
    this.#md = md;
    this.#tokens = md.parse(text, {});
    this.#blocks = topLevelBlocks(this.#tokens);
  }

  /**
   * Renders slices into `dom` until `deadline` (a `performance.now()` time; one slice at least);
   * true once every block is rendered.
   */
  renderUntil(dom: AnswerDom, deadline: number): boolean {
    do {
      const blocks = this.#blocks.slice(this.#next, this.#next + SLICE_BLOCKS);
      if (!blocks.length) break;
      this.#next += blocks.length;
      const html = renderTokens(this.#md, this.#tokens.slice(blocks[0].start, blocks[blocks.length - 1].end + 1), { highlight: true });
      dom.apply({ op: 'append', html }, this.committed, false);
    } while (performance.now() < deadline);
    return this.#next >= this.#blocks.length;
  }
}
