import { isSafeLink } from './markdown';

/**
 * What model output may become in the chat's DOM: the sanitiser's configuration (sanitize.ts) and
 * the token builder's vocabulary (tokenDom.ts). No script, event handler, style, frame, SVG, form
 * or remote load; links only to http(s) and mailto; classes only the renderer's own.
 */
export const ALLOWED_TAGS: readonly string[] = [
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'ul', 'ol', 'li', 'pre', 'code',
  'span', 'em', 'strong', 's', 'del', 'a', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
];
export const ALLOWED_ATTR: readonly string[] = ['href', 'title', 'class', 'start'];
export const ALLOWED_URI = /^(?:https?:|mailto:)/i;
const CLASS_ALLOWED = /^(?:hljs[\w-]*|language-[\w+#.-]+|align-(?:left|right|center)|image-link)$/;

/** The class names kept of `value` ('' when none is). */
export function allowedClasses(value: string): string {
  return value.split(/\s+/).filter((c) => CLASS_ALLOWED.test(c)).join(' ');
}

/** The value an attribute keeps, or undefined when it is dropped. */
export function allowedAttribute(name: string, value: string): string | undefined {
  switch (name) {
    case 'href':
      return ALLOWED_URI.test(value.trim()) && isSafeLink(value) ? value : undefined;
    case 'class':
      return allowedClasses(value) || undefined;
    case 'title':
    case 'start':
      return value;
    default:
      return undefined;
  }
}
