import { escapeHtml } from '../../../src/webview/chat/markdown/markdown';
import type { NodeSink } from '../../../src/webview/chat/markdown/tokenDom';

/** A node tree for the DOM-free builders (tokenDom.ts, highlightedDom.ts), serialised the way markdown-it writes HTML. */
export type FakeNode = { tag: string; attrs: readonly (readonly [string, string])[]; children: FakeNode[] } | { text: string };

const VOID = new Set(['br', 'hr']);

/** Joins adjacent text and drops empty text, as the DOM sink does (pendingSanitiser.ts). */
export const fakeNodeSink: NodeSink<FakeNode> = {
  element: (tag, attrs) => ({ tag, attrs, children: [] }),
  text: (parent, text) => {
    if (!('children' in parent)) throw new Error('text has no children');
    const last = parent.children.at(-1);
    if (!text) return;
    if (last && 'text' in last) last.text += text;
    else parent.children.push({ text });
  },
  append: (parent, child) => {
    if (!('children' in parent)) throw new Error('text has no children');
    parent.children.push(child);
  },
};

export function fakeRoot(): FakeNode & { children: FakeNode[] } {
  return { tag: 'root', attrs: [], children: [] };
}

/** Void <br> and <hr>; & < > " escaped. */
export function serialise(node: FakeNode): string {
  if ('text' in node) return escapeHtml(node.text);
  const attrs = node.attrs.map(([name, value]) => ` ${name}="${escapeHtml(value)}"`).join('');
  return `<${node.tag}${attrs}>${VOID.has(node.tag) ? '' : `${node.children.map(serialise).join('')}</${node.tag}>`}`;
}
