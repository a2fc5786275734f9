import type { MarkdownIt } from 'markdown-it';
import { createMarkdown } from './markdown/markdown';

/**
 * The info string of the fence a rendered code block came from (```ts src/x.ts → "ts src/x.ts").
 * The renderer keeps only the language on the DOM, so Apply reads the rest from the message's own
 * markdown at click time: the fences whose code is the block's, the one at the block's position
 * among the rendered blocks when several have the same code.
 */
let parser: MarkdownIt | undefined;

export function fenceInfoOf(markdown: string, code: string, blockIndex: number): string | undefined {
  parser ??= createMarkdown();
  const blocks = parser.parse(markdown, {}).filter((token) => token.type === 'fence' || token.type === 'code_block');
  const sameCode = (index: number) => {
    const content = blocks[index]?.content ?? '';
    return (content.endsWith('\n') ? content.slice(0, -1) : content) === code;
  };
  const index = sameCode(blockIndex) ? blockIndex : blocks.findIndex((_, i) => sameCode(i));
  const info = index < 0 ? undefined : blocks[index].info.trim();
  return info || undefined;
}

/** The position of `pre` among the code blocks of its rendered markdown. */
export function blockIndexOf(pre: Element): number {
  const container = pre.closest('.markdown') ?? pre.parentElement;
  return container ? Array.from(container.querySelectorAll('pre')).indexOf(pre as HTMLPreElement) : -1;
}
