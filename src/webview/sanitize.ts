import DOMPurify from 'dompurify';
import { isSafeLink } from './markdown';

/**
 * The last line of defence between model output and the DOM. markdown-it already escapes raw HTML
 * and drops unsafe links; this allowlist makes sure that a renderer bug or a future option change
 * still cannot produce a script, an event handler, a style, a frame, SVG, a form or a remote load.
 */
const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'ul', 'ol', 'li', 'pre', 'code',
  'span', 'em', 'strong', 's', 'del', 'a', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
];
const ALLOWED_ATTR = ['href', 'title', 'class', 'start'];
const CLASS_ALLOWED = /^(?:hljs[\w-]*|language-[\w+#.-]+|align-(?:left|right|center)|image-link)$/;

let configured = false;

/**
 * Configured once: a config object passed to every sanitize() call is parsed again each time, which
 * was over half of the streaming render time.
 */
function configure(): void {
  if (configured) return;
  configured = true;
  DOMPurify.setConfig({
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
  });
  DOMPurify.addHook('uponSanitizeAttribute', (_node, data) => {
    if (data.attrName === 'class') {
      data.attrValue = data.attrValue.split(/\s+/).filter((c) => CLASS_ALLOWED.test(c)).join(' ');
      if (!data.attrValue) data.keepAttr = false;
    }
    if (data.attrName === 'href' && !isSafeLink(data.attrValue)) data.keepAttr = false;
  });
}

export function sanitizeToFragment(html: string): DocumentFragment {
  configure();
  return DOMPurify.sanitize(html) as unknown as DocumentFragment;
}

/** Table rows (`<tr>…`) parse only inside a table: sanitised there, returned as the body's nodes. */
export function sanitizeRowsToFragment(html: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const body = sanitizeToFragment(`<table><tbody>${html}</tbody></table>`).querySelector('tbody');
  if (body) fragment.append(...Array.from(body.childNodes));
  return fragment;
}
