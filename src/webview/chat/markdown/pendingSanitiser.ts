import type { Token } from 'markdown-it';
import { childrenToFragment, rowsInTable, rowsOutOfTable, sanitizeRowsToFragment, sanitizeToFragment } from './sanitize';
import { buildFromHighlighted } from './highlightedDom';
import { buildFromTokens, type NodeSink } from './tokenDom';

/**
 * Committed pieces of a streaming answer shown first from their tokens (tokenDom.ts, no HTML) or,
 * for a growing fence, from the highlighter's spans (highlightedDom.ts), then checked against the sanitiser's DOM of their HTML in batches: one DOMPurify call per batch
 * instead of one per list item or paragraph, which was most of a slow model's streaming script.
 * A piece equal to the sanitiser's DOM stays (replacing it with an equal copy cost a frame the
 * style, layout and paint of the whole batch again); any other is replaced by the sanitiser's.
 */

/**
 * A batch is checked once this much of its HTML has gathered, or its first piece has waited
 * SANITISE_MAX_WAIT_MS (a slow model's), or the answer ends. Each DOMPurify call parses into a new
 * document: at 1 KB a 1 MB answer made a thousand of them. At 8 KB a fast model's 1 MB answer went
 * from 1.39–1.47x the browser's own reveal to 1.19x (median of 4 rounds alternated with the 1 KB
 * bundle, render bench, two runs), main-thread CPU from 1.22x to 1.16x.
 */
const SANITISE_BATCH_CHARS = 8192;
const SANITISE_MAX_WAIT_MS = 2_000;

const DOM_SINK: NodeSink<Node> = {
  element: (tag, attrs) => {
    const element = document.createElement(tag);
    for (const [name, value] of attrs) element.setAttribute(name, value);
    return element;
  },
  text: (parent, value) => {
    if (!value) return;
    const last = parent.lastChild;
    // Not yet in the document: growing a text node here costs nothing to lay out.
    if (last?.nodeType === Node.TEXT_NODE) (last as Text).appendData(value);
    else parent.appendChild(document.createTextNode(value));
  },
  append: (parent, child) => parent.appendChild(child),
};

export function tokensToFragment(tokens: Token[]): DocumentFragment {
  const fragment = document.createDocumentFragment();
  buildFromTokens(tokens, fragment, DOM_SINK);
  return fragment;
}

/** A fence's highlighted lines (highlightedDom.ts); undefined when the HTML is not the highlighter's. */
export function highlightedToFragment(html: string): DocumentFragment | undefined {
  const fragment = document.createDocumentFragment();
  return buildFromHighlighted(html, fragment, DOM_SINK) ? fragment : undefined;
}

/** A committed piece shown from its tokens; `owner` is the container it went into, if any. */
interface Piece<Owner> {
  html: string;
  nodes: Node[];
  rows: boolean;
  owner: Owner | undefined;
}

export class PendingSanitiser<Owner> {
  #pieces: Piece<Owner>[] = [];
  #chars = 0;
  #firstAddedAt = 0;

  add(html: string, nodes: Node[], rows: boolean, owner: Owner | undefined): void {
    if (!this.#pieces.length) this.#firstAddedAt = performance.now();
    this.#pieces.push({ html, nodes, rows, owner });
    this.#chars += html.length;
  }

  /** Whether the batch should be checked now (in the next idle time). */
  get due(): boolean {
    return this.#chars >= SANITISE_BATCH_CHARS || (this.#pieces.length > 0 && performance.now() - this.#firstAddedAt >= SANITISE_MAX_WAIT_MS);
  }

  /** The pieces inside a container that was taken out of the DOM. */
  drop(owner: Owner | undefined): void {
    this.#pieces = this.#pieces.filter((p) => p.owner !== owner);
  }

  clear(): void {
    this.#pieces = [];
    this.#chars = 0;
  }

  /**
   * Checks the pieces against the sanitiser's DOM of their HTML, in one sanitiser call: each piece
   * wrapped in an element of its own (rows in a table, which is where they parse). A node equal to
   * the sanitiser's stays; any other gives its place to the sanitiser's node.
   */
  flush(): void {
    const pieces = this.#pieces;
    if (!pieces.length) return;
    this.clear();
    const wrapped = pieces.map((p) => (p.rows ? rowsInTable(p.html) : `<span>${p.html}</span>`)).join('');
    const wrappers = Array.from(sanitizeToFragment(wrapped).childNodes);
    pieces.forEach((piece, i) => {
      const wrapper = wrappers.length === pieces.length ? wrappers[i] : undefined;
      // Pieces the sanitiser's HTML parse did not keep apart (never seen): sanitised alone.
      const fragment = wrapper ? (piece.rows ? rowsOutOfTable(wrapper as Element) : childrenToFragment(wrapper))
        : piece.rows ? sanitizeRowsToFragment(piece.html) : sanitizeToFragment(piece.html);
      // Node for node where the counts agree (always, as the builder renders what markdown-it
      // writes), so that a piece that spans two segments stays split where it was.
      const replacements = Array.from(fragment.childNodes);
      if (replacements.length === piece.nodes.length) {
        piece.nodes.forEach((node, k) => {
          if (!node.isEqualNode(replacements[k])) node.parentNode?.replaceChild(replacements[k], node);
        });
        return;
      }
      const first = piece.nodes[0];
      first.parentNode?.insertBefore(fragment, first);
      for (const node of piece.nodes) node.parentNode?.removeChild(node);
    });
  }
}
