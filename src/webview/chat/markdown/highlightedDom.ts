import { allowedAttribute } from './allowlist';
import type { NodeSink } from './tokenDom';

/**
 * Builds a growing fence's highlighted lines as nodes without parsing HTML in the frame: a
 * DOMPurify call per frame was 350 ms of a 1 MB fast stream's frames. The highlighter
 * (highlight.js, or markdown.ts's escapeHtml without a language) writes only `<span class="…">`,
 * `</span>` and text with & < > " ' escaped. Anything else, or spans that do not balance, gives
 * false: the caller then sanitises the HTML at once. Classes go through the sanitiser's own check.
 * Like the token builder's (tokenDom.ts), these nodes are checked against the sanitiser's DOM with
 * the next batch (pendingSanitiser.ts). DOM-free (a sink makes the nodes) for the unit tests.
 */
const PART = /<span class="([^"<>&]*)">|<\/span>|([^<>&\r]+)|&(amp|lt|gt|quot|#x27);/y;
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'" };

export function buildFromHighlighted<N>(html: string, root: N, sink: NodeSink<N>): boolean {
  const open: N[] = [root];
  PART.lastIndex = 0;
  while (PART.lastIndex < html.length) {
    const part = PART.exec(html);
    if (!part) return false;
    const parent = open[open.length - 1];
    if (part[1] !== undefined) {
      const classes = allowedAttribute('class', part[1]);
      const span = sink.element('span', classes ? [['class', classes]] : []);
      sink.append(parent, span);
      open.push(span);
    } else if (part[0] === '</span>') {
      if (open.length === 1) return false;
      open.pop();
    } else {
      sink.text(parent, part[2] ?? ENTITIES[part[3]]);
    }
  }
  return open.length === 1;
}
