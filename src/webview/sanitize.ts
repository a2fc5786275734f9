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
