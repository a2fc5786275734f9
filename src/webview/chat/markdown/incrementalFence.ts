import type { MarkdownIt, Token } from 'markdown-it';
import type { ContainerStep, RenderOp } from './renderOp';
import { fenceLanguage, highlightChunk, renderTokens } from './markdown';

/**
 * The code fence half of IncrementalMarkdown: a fence that is still open grows by runs of
 * highlighted lines, each run committed once the highlighter is back at its top level, so no
 * line is highlighted twice (a comment spanning lines waits until it ends).
 */

export interface FenceMode { kind: 'fence'; opening: string; closing: RegExp; language: string | undefined; code: string; failedAt: number; committed: string }

/** Opens the container for `fence`, whose opening line starts `text`. */
export function enterFence(md: MarkdownIt, fence: Token, text: string, lineStarts: number[]): { open: RenderOp; mode: FenceMode; rest: string } {
  const empty = Object.assign(Object.create(Object.getPrototypeOf(fence) as object) as Token, fence, { content: '' });
  const html = renderTokens(md, [empty], { highlight: true });
  const cut = html.lastIndexOf('</code>');
  const marker = fence.markup;
  // lineOffsets() lists no start for an empty last line.
  const firstLineEnd = lineStarts.length > 1 ? lineStarts[1] : text.length;
  return {
    open: { op: 'open', kind: 'fence', prefix: html.slice(0, cut), suffix: html.slice(cut) },
    mode: {
      kind: 'fence',
      closing: new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`),
      language: fenceLanguage(fence.info),
      code: '',
      failedAt: 0,
      opening: text.slice(0, firstLineEnd),
      committed: text.slice(0, firstLineEnd),
    },
    rest: text.slice(firstLineEnd),
  };
}


/** Commits the complete lines of `text` (the fence's text after what was committed before). */
export function growFence(md: MarkdownIt, mode: FenceMode, text: string, final: boolean): ContainerStep {
  const ops: RenderOp[] = [];
  const newline = /\r\n|\r(?!$)|\n/g;
  let start = 0;
  let code = '';
  let closedAt = -1;
  for (let m = newline.exec(text); m; m = newline.exec(text)) {
    if (m[0] === '\r' && m.index === text.length - 1) break;
    const line = text.slice(start, m.index);
    if (mode.closing.test(line)) {
      closedAt = m.index + m[0].length;
      break;
    }
    code += line.replace(/\0/g, '\uFFFD') + '\n';
    start = m.index + m[0].length;
  }
  mode.code += code;
  if (closedAt >= 0 || final) {
    if (closedAt < 0) {
      // Unclosed at the end of the answer: markdown-it decides the last lines (it drops a trailing
      // line of white space), so the rest is parsed as the fence it is.
      const rest = mode.code + text.slice(start);
      mode.code = md.parse(mode.opening + rest, {})[0]?.content ?? rest;
    }
    if (mode.code) ops.push({ op: 'append', html: highlightChunk(mode.code, mode.language).html });
    ops.push({ op: 'close' });
    return { ops, pending: closedAt >= 0 ? text.slice(closedAt) : '', closed: true, tail: { op: 'tail' } };
  }
  mode.committed += text.slice(0, start);
  const pending = text.slice(start);
  // Retry an unfinished construct (a comment spanning lines) only once it has doubled: linear overall.
  if (mode.code && mode.code.length >= 2 * mode.failedAt) {
    const chunk = highlightChunk(mode.code, mode.language);
    if (chunk.atTopLevel) {
      ops.push({ op: 'append', html: chunk.html });
      mode.code = '';
      mode.failedAt = 0;
    } else {
      mode.failedAt = mode.code.length;
    }
  }
  return { ops, pending, closed: false, tail: { op: 'tail', text: mode.code + pending } };
}
