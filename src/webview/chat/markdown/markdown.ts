import markdownIt, { type Env, type MarkdownIt, type Token } from 'markdown-it';
import hljs from 'highlight.js/lib/common';

/**
 * The markdown dialect the chat renders. Raw HTML is off (model output shows literally), links are
 * kept only for http/https/mailto, images never become <img> (a remote image is a tracking pixel
 * the user did not ask for), and table alignment becomes a class because the CSP has no
 * 'unsafe-inline' for style attributes. This module is DOM-free so it unit-tests in Node; the
 * sanitiser in sanitize.ts runs on its output anyway.
 */

export interface RenderEnv extends Env {
  /** Highlight fenced code. Off for the streaming tail: a fence is highlighted once, when it closes. */
  highlight: boolean;
}

const SAFE_LINK = /^(?:https?:|mailto:)/i;
const LANGUAGE = /^[\w+#.-]{1,40}$/;

export function isSafeLink(href: string): boolean {
  return SAFE_LINK.test(href.trim());
}

export function createMarkdown(): MarkdownIt {
  const md = markdownIt({ html: false, linkify: true, typographer: false, breaks: false });
  md.validateLink = isSafeLink;

  md.core.ruler.push('align_to_class', (state) => {
    for (const token of state.tokens) {
      if (token.type !== 'th_open' && token.type !== 'td_open') continue;
      const style = String(token.attrGet('style') ?? '');
      const align = style?.match(/^text-align:(left|right|center)$/)?.[1];
      if (!style) continue;
      token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
      if (align) token.attrJoin('class', `align-${align}`);
    }
  });

  md.renderer.rules.fence = (tokens, idx, _options, env) => {
    const token = tokens[idx];
    const language = fenceLanguage(token.info);
    const classes = language ? `language-${language}` : '';
    const code = env?.highlight ? highlight(token.content, language) : md.utils.escapeHtml(token.content);
    const cls = env?.highlight ? `${classes} hljs`.trim() : classes;
    return `<pre><code${cls ? ` class="${cls}"` : ''}>${code}</code></pre>\n`;
  };

  md.renderer.rules.image = (tokens, idx, _options, _env, self) => {
    const token = tokens[idx];
    const src = String(token.attrGet('src') ?? '');
    const alt = self.renderInlineAsText(token.children ?? [], md.options, _env) || 'image';
    const label = md.utils.escapeHtml(`[image: ${alt}]`);
    return isSafeLink(src) ? `<a href="${md.utils.escapeHtml(src)}" class="image-link">${label}</a>` : label;
  };
  return md;
}

export function fenceLanguage(info: string): string | undefined {
  const word = info.trim().split(/\s+/)[0] ?? '';
  return LANGUAGE.test(word) ? word.toLowerCase() : undefined;
}

function highlight(code: string, language: string | undefined): string {
  return highlightChunk(code, language).html;
}

/**
 * Highlights `code`; `atTopLevel` says the grammar ended outside any open construct (comment,
 * string...), so that the code that follows highlights the same alone as after this chunk. That is
 * what lets a streaming fence grow by appended lines without re-highlighting the lines before.
 */
export function highlightChunk(code: string, language: string | undefined): { html: string; atTopLevel: boolean } {
  if (language && hljs.getLanguage(language)) {
    try {
      const result = hljs.highlight(code, { language, ignoreIllegals: true }) as { value: string; _top?: { parent?: unknown } };
      // `_top` is the grammar mode the highlighter stopped in; only the language's root has no parent.
      return { html: result.value, atTopLevel: result._top !== undefined && result._top.parent === undefined };
    } catch {
      // fall through to plain text: a grammar bug must not lose the code block
    }
  }
  return { html: escapeHtml(code), atTopLevel: true };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

export function renderTokens(md: MarkdownIt, tokens: Token[], env: RenderEnv): string {
  return md.renderer.render(tokens, md.options, env);
}

export function renderMarkdown(md: MarkdownIt, text: string, env: RenderEnv): string {
  return renderTokens(md, md.parse(text, {}), env);
}
