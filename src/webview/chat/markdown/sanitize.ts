import DOMPurify from 'dompurify';
import { allowedClasses, ALLOWED_ATTR, ALLOWED_TAGS, ALLOWED_URI } from './allowlist';
import { isSafeLink } from './markdown';

/**
 * The last line of defence between model output and the DOM. markdown-it already escapes raw HTML
 * and drops unsafe links; the allowlist (allowlist.ts) makes sure that a renderer bug or a future
 * option change still cannot produce a script, an event handler, a style, a frame, SVG, a form or
 * a remote load.
 */

let configured = false;

/**
 * Configured once: a config object passed to every sanitize() call is parsed again each time, which
 * was over half of the streaming render time.
 */
function configure(): void {
  if (configured) return;
  configured = true;
  DOMPurify.setConfig({
    ALLOWED_TAGS: [...ALLOWED_TAGS],
    ALLOWED_ATTR: [...ALLOWED_ATTR],
    ALLOWED_URI_REGEXP: ALLOWED_URI,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
  });
  DOMPurify.addHook('uponSanitizeAttribute', (_node, data) => {
    if (data.attrName === 'class') {
      data.attrValue = allowedClasses(data.attrValue);
      if (!data.attrValue) data.keepAttr = false;
    }
    if (data.attrName === 'href' && !isSafeLink(data.attrValue)) data.keepAttr = false;
  });
}

export function sanitizeToFragment(html: string): DocumentFragment {
  configure();
  return DOMPurify.sanitize(html) as unknown as DocumentFragment;
}

/**
 * A container's empty shell (`<ul>\n</ul>\n`, a fence's `<pre><code class="language-ts hljs">`…)
 * is sanitised once and cloned after: a DOMPurify call parses into a new document, 0.05–0.35 ms
 * however short its input (measured in a streaming chat page), and the shells of an answer's
 * lists and fences repeat (a 200 KB answer opened 183 containers). Long shells (a table's header)
 * are rarely repeated and not kept.
 */
const SHELLS_KEPT = 32;
const SHELL_CHARS_KEPT = 256;
const shells = new Map<string, DocumentFragment>();

export function sanitizeShellToFragment(html: string): DocumentFragment {
  if (html.length > SHELL_CHARS_KEPT) return sanitizeToFragment(html);
  let shell = shells.get(html);
  if (!shell) {
    if (shells.size >= SHELLS_KEPT) shells.clear();
    // Moved into this document, so that the sanitiser's parse document is not kept alive.
    shell = document.createDocumentFragment();
    shell.append(sanitizeToFragment(html));
    shells.set(html, shell);
  }
  return shell.cloneNode(true) as DocumentFragment;
}

/** Table rows (`<tr>…`) parse only inside a table: the HTML to sanitise them in. */
export function rowsInTable(html: string): string {
  return `<table><tbody>${html}</tbody></table>`;
}

/** The rows of a table made by rowsInTable, moved out into a fragment (none when it lost its body). */
export function rowsOutOfTable(table: ParentNode): DocumentFragment {
  const body = table.querySelector('tbody');
  return body ? childrenToFragment(body) : document.createDocumentFragment();
}

export function sanitizeRowsToFragment(html: string): DocumentFragment {
  return rowsOutOfTable(sanitizeToFragment(rowsInTable(html)));
}

export function childrenToFragment(parent: Node): DocumentFragment {
  const fragment = document.createDocumentFragment();
  while (parent.firstChild) fragment.appendChild(parent.firstChild);
  return fragment;
}
