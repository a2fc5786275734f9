import type { Token } from 'markdown-it';
import { allowedAttribute, ALLOWED_TAGS } from './allowlist';
import { fenceLanguage, isSafeLink } from './markdown';

/**
 * Builds the streaming answer's provisional DOM straight from markdown-it's tokens, the way
 * markdown-it's HTML renderer (with our rules in markdown.ts) would write it, without producing
 * or parsing any HTML: model text only ever becomes text nodes, elements come from the sanitiser's
 * own tag list and attributes from its attribute checks. That is what lets a streaming frame show
 * the open block formatted without a sanitiser pass (DOMPurify builds a document per call, most of
 * a streaming frame's script). What stays in the answer equals the sanitiser's DOM: committed
 * nodes are checked against DOMPurify's in batches, and one that differs is replaced by it
 * (pendingSanitiser.ts).
 *
 * DOM-free (a sink makes the nodes) so that a unit test can hold its output against
 * markdown-it's HTML for the same tokens.
 */
export interface NodeSink<N> {
  element(tag: string, attrs: readonly (readonly [string, string])[]): N;
  /**
   * Appends text to `parent` as the HTML parser would: to its last child when that is text, and
   * nothing when it is empty (markdown-it writes an empty text token before a leading `**`).
   * Adjacent or empty text nodes made a node unequal to the sanitiser's, which then replaced it:
   * 4% of a 1 MB answer's blocks, each laid out again.
   */
  text(parent: N, value: string): void;
  append(parent: N, child: N): void;
}

export function buildFromTokens<N>(tokens: readonly Token[], root: N, sink: NodeSink<N>): void {
  // Parents of the open tokens.
  const stack: N[] = [root];
  const top = () => stack[stack.length - 1];
  const newline = () => sink.text(top(), '\n');
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    switch (token.type) {
      case 'inline':
        buildInline(token.children ?? [], top(), sink);
        continue;
      case 'fence':
      case 'code_block': {
        const language = token.type === 'fence' ? fenceLanguage(token.info) : undefined;
        const pre = sink.element('pre', []);
        const code = sink.element('code', language ? [['class', `language-${language}`]] : []);
        sink.text(code, token.content);
        sink.append(pre, code);
        sink.append(top(), pre);
        newline();
        continue;
      }
      case 'html_block':
        sink.text(top(), token.content);
        continue;
    }
    if (token.hidden) continue;
    // markdown-it's renderToken: a line break between a hidden paragraph and the next block tag...
    if (token.block && token.nesting !== -1 && i > 0 && tokens[i - 1].hidden) newline();
    tag(token, stack, sink);
    // ...and one after a block tag, unless an inline child or its own empty closing tag follows.
    if (token.block && !(token.nesting === 1 && i + 1 < tokens.length && followsInline(token, tokens[i + 1]))) newline();
  }
}

function followsInline(open: Token, next: Token): boolean {
  return next.type === 'inline' || next.hidden || (next.nesting === -1 && next.tag === open.tag);
}

function buildInline<N>(tokens: readonly Token[], parent: N, sink: NodeSink<N>): void {
  const stack: N[] = [parent];
  const top = () => stack[stack.length - 1];
  for (const token of tokens) {
    switch (token.type) {
      case 'text':
      case 'html_inline':
        sink.text(top(), token.content);
        continue;
      case 'softbreak':
        sink.text(top(), '\n');
        continue;
      case 'hardbreak':
        sink.append(top(), sink.element('br', []));
        sink.text(top(), '\n');
        continue;
      case 'code_inline': {
        const code = sink.element('code', []);
        sink.text(code, token.content);
        sink.append(top(), code);
        continue;
      }
      case 'image': {
        // As markdown.ts's image rule: a link to the image, or its label, never an <img>.
        const src = String(token.attrGet('src') ?? '');
        const label = `[image: ${inlineText(token.children ?? []) || 'image'}]`;
        if (isSafeLink(src)) {
          const link = sink.element('a', [['href', src], ['class', 'image-link']]);
          sink.text(link, label);
          sink.append(top(), link);
        } else {
          sink.text(top(), label);
        }
        continue;
      }
    }
    tag(token, stack, sink);
  }
}

const TAGS = new Set(ALLOWED_TAGS);

/**
 * An element token: its element (when the allowlist has the tag) joins the current parent, and an
 * opening one becomes the parent; a closing one ends it. A refused tag leaves its parent in place
 * (its content is kept, as the sanitiser keeps it).
 */
function tag<N>(token: Token, stack: N[], sink: NodeSink<N>): void {
  if (token.nesting === -1) {
    if (stack.length > 1) stack.pop();
    return;
  }
  const parent = stack[stack.length - 1];
  const element = TAGS.has(token.tag) ? sink.element(token.tag, attributes(token)) : undefined;
  if (element !== undefined) sink.append(parent, element);
  if (token.nesting === 1) stack.push(element ?? parent);
}

/** markdown-it's renderInlineAsText: the text an image's alt is made of. */
function inlineText(tokens: readonly Token[]): string {
  let text = '';
  for (const token of tokens) {
    if (token.type === 'text' || token.type === 'html_inline') text += token.content;
    else if (token.type === 'image') text += inlineText(token.children ?? []);
    else if (token.type === 'softbreak' || token.type === 'hardbreak') text += '\n';
  }
  return text;
}

function attributes(token: Token): [string, string][] {
  const kept: [string, string][] = [];
  for (const [name, value] of token.attrs ?? []) {
    const allowed = allowedAttribute(name, String(value));
    if (allowed !== undefined) kept.push([name, allowed]);
  }
  return kept;
}
