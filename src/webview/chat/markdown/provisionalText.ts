/**
 * Where the text of a cheap streaming frame goes (StreamingMarkdown.appendProvisionalText): text
 * appended between two parses is shown as text, after the provisional rendering's last text and
 * outside any inline formatting it ends with, so that it looks as the next parse will render it.
 */

/** Formatting that ends where it is closed: new provisional text goes after it, not inside it. */
const INLINE = new Set(['A', 'EM', 'STRONG', 'S', 'DEL', 'SPAN', 'BR', 'HR']);

/**
 * Where new provisional text goes: the last text of `node`'s last block (skipping formatting white
 * space between table cells and after list items), or that block itself when it ends with inline
 * formatting (`**bold**` then ` more` must not render bold) or holds no text yet.
 */
export function lastTextHolder(node: Node): Node {
  let current = node;
  for (;;) {
    if (current.nodeType === Node.TEXT_NODE) return current;
    let next: Node | null = current.lastChild;
    while (next && next.nodeType === Node.TEXT_NODE && !/\S/.test(next.textContent ?? '')) next = next.previousSibling;
    if (!next || (next.nodeType === Node.ELEMENT_NODE && isInline(next as Element))) return current;
    current = next;
  }
}

function isInline(element: Element): boolean {
  return INLINE.has(element.tagName) || (element.tagName === 'CODE' && element.parentElement?.tagName !== 'PRE');
}
