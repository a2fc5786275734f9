import type { MarkdownIt, Token } from 'markdown-it';
import { renderTokens } from './markdown';

/**
 * What the DOM-free streaming renderer (incremental.ts and its fence and table halves) asks the DOM
 * side (answerDom.ts) to do; its own module so that the renderer's two halves share it without
 * importing each other.
 */
export type ContainerKind = 'list' | 'table' | 'fence';

export type RenderOp =
  /**
   * Final HTML, appended to the open container's slot (rows of a table, lines of a fence) or the
   * answer; with the tokens it was rendered from (not for highlighted code), which can be shown
   * before the HTML is sanitised.
   */
  | { op: 'append'; html: string; tokens?: Token[] }
  /** A container whose children follow: `prefix + children + suffix` is its final HTML. */
  | { op: 'open'; kind: ContainerKind; prefix: string; suffix: string }
  | { op: 'close' }
  /** Drop the open container and what it holds: its text goes back to be rendered again. */
  | { op: 'discard' }
  /** The provisional rendering of the open part: `tokens` or `text` in the slot (or the answer), `after` behind the container. */
  | { op: 'tail'; tokens?: Token[]; text?: string; after?: Token[] }
  /** More provisional text, appended to the last text of the provisional rendering. */
  | { op: 'tailText'; text: string };

/** One growth of an open container (fence, table): what it committed, and what is left. */
export interface ContainerStep {
  ops: RenderOp[];
  /** The text not consumed: what follows a closed container, or the open one's unfinished lines. */
  pending: string;
  closed: boolean;
  /** The provisional rendering of the open container's uncommitted lines. */
  tail: RenderOp;
}

/** The HTML of finished tokens (highlighted code included). */
export function blockHtml(md: MarkdownIt, tokens: Token[]): string {
  return tokens.length ? renderTokens(md, tokens, { highlight: true }) : '';
}

/** Finished blocks as an append; highlighted code has no tokens to show before its HTML is sanitised. */
export function commitOp(md: MarkdownIt, tokens: Token[]): RenderOp {
  const code = tokens.some((t) => t.type === 'fence' || t.type === 'code_block');
  return { op: 'append', html: blockHtml(md, tokens), tokens: code ? undefined : tokens };
}
