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

const ALLOWED_TAG_SET = new Set(ALLOWED_TAGS);
const ALLOWED_ATTR_SET = new Set(ALLOWED_ATTR);
const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';
let scratch: HTMLTemplateElement | undefined;

/**
 * The provisional rendering of a stream's unfinished block, replaced on the next parse: the same
 * allowlist as DOMPurify's, applied by a walk of an inert template's content. DOMPurify builds a new
 * document per call (~0.15–0.25 ms, most of a streamed frame's script); everything that stays on
 * screen is still sanitised by DOMPurify. Nothing here can run or load: a template's content has no
 * browsing context, and anything outside the allowlist is removed, content included, before the
 * nodes reach the page.
 */
export function sanitizeProvisional(html: string): DocumentFragment {
  scratch ??= document.createElement('template');
  scratch.innerHTML = html;
  const content = scratch.content;
  for (const element of Array.from(content.querySelectorAll('*'))) {
    if (element.namespaceURI !== HTML_NAMESPACE || !ALLOWED_TAG_SET.has(element.localName)) {
      element.remove();
      continue;
    }
    for (const { name, value } of Array.from(element.attributes)) {
      if (!ALLOWED_ATTR_SET.has(name) || (name === 'href' && !isSafeLink(value))) element.removeAttribute(name);
      else if (name === 'class') {
        const kept = value.split(/\s+/).filter((c) => CLASS_ALLOWED.test(c)).join(' ');
        if (kept) element.setAttribute(name, kept);
        else element.removeAttribute(name);
      }
    }
  }
  const fragment = document.createDocumentFragment();
  fragment.append(...Array.from(content.childNodes));
  return fragment;
}
