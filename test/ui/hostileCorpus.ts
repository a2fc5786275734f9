import type { PageDocument, PageElement } from '../bench/webviewPage';

declare const document: PageDocument;

/**
 * Model output is hostile input. Every payload that could run tries to leave four marks: it pushes
 * its tag onto `window.__pwned` (or the parent's), sets `document.title` to PWNED, posts a `{pwned}`
 * message to the parent frame and to the extension (`acquireVsCodeApi().postMessage`, which throws
 * when the API was acquired already, so it comes last). Everything that could
 * load something points at `canary` (`<canary>/<tag>`), so a listener there sees any load that got
 * past both the sanitiser and the CSP.
 */
export function hostileCorpus(canary: string): string {
  const run = (tag: string, target = 'window') => `${target}.__pwned.push('${tag}');document.title='PWNED';parent.postMessage({pwned:'${tag}'},'*');acquireVsCodeApi().postMessage({pwned:'${tag}'})`;
  const at = (tag: string) => `${canary}/${tag}`;
  return [
    `<script>${run('script')}</script>`,
    `<img src="${at('img')}" onerror="${run('onerror')}"> <img srcset="${at('srcset')} 1x"> <input type="image" src="${at('input')}">`,
    `<svg onload="${run('svg')}"><script>${run('svg-script')}</script><image href="${at('svg-image')}"/></svg>`,
    `<iframe src="javascript:${run('iframe', 'parent')}"></iframe><iframe srcdoc="<script>${run('srcdoc', 'parent')}</script>"></iframe><iframe src="${at('iframe')}"></iframe>`,
    `<style>body { display: none } @import url(${at('import.css')});</style><link rel="stylesheet" href="${at('link.css')}"><link rel="prefetch" href="${at('prefetch')}">`,
    `<a href="javascript:${run('a')}">html link</a> <form action="${at('form')}"><button>go</button></form> <body onload="${run('body')}">`,
    `[click me](javascript:${run('md-link')}) [upper](JAVASCRIPT:${run('upper')}) [data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) [vb](vbscript:msgbox(1))`,
    `![pixel](${at('pixel.png')}) ![data](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)`,
    `<details open ontoggle="${run('toggle')}">x</details> <video poster="${at('poster')}"><source src="${at('video')}" onerror="${run('video')}"></video> <audio src="${at('audio')}" onerror="${run('audio')}"></audio>`,
    `<object data="${at('object')}"></object><embed src="${at('embed')}"><base href="${at('base/')}"><meta http-equiv="refresh" content="0;url=${at('meta')}">`,
    `<math><mtext><table><mglyph><style><img src="${at('mxss')}" onerror="${run('mxss')}">`,
    `\`\`\`html\n<script>${run('fence')}</script>\n\`\`\``,
    `\`\`\`"><img src=x onerror="${run('info')}">\ncode\n\`\`\``,
    `<div style="background:url(${at('bg.png')})">styled</div> <span style="position:fixed;inset:0">overlay</span>`,
    '[by reference][evil] and [x](https://ok.test/ "title\\" onmouseover=\\"window.__pwned.push(1)") <https://example.com/safe> plain https://example.com/auto',
    `[evil]: javascript:${run('reference')}`,
  ].join('\n\n');
}

/** The last words of the corpus as rendered: when they are on screen, the whole answer is. */
export const CORPUS_END = 'plain https://example.com/auto';

export interface DomFindings {
  /** Tags that run, load, embed, style or take input. */
  elements: string[];
  /** Event handler, style and srcdoc attributes. */
  handlers: string[];
  /** Every href/src/srcset/action/data/poster value. */
  urls: string[];
  hrefs: string[];
  text: string;
}

/** Runs in the webview document: what survived rendering and sanitising in the message list. */
export function inspectMessages(): DomFindings {
  const list = document.querySelector('.messages') as PageElement;
  const all = Array.from(list.querySelectorAll('*'));
  const forbidden = all.filter((el) => /^(script|iframe|img|image|svg|math|style|link|object|embed|form|video|audio|source|base|meta|details|input|textarea|body)$/i.test(el.tagName));
  const handlers = all.flatMap((el) => Array.from(el.attributes).filter((a) => /^on/i.test(a.name) || a.name === 'style' || a.name === 'srcdoc').map((a) => `${el.tagName}[${a.name}]`));
  const urls = all.flatMap((el) => ['src', 'srcset', 'action', 'data', 'poster', 'formaction', 'xlink:href'].map((name) => el.getAttribute(name)).filter((v): v is string => v !== null));
  const hrefs = all.map((el) => el.getAttribute('href')).filter((h): h is string => h !== null);
  return { elements: forbidden.map((el) => el.tagName), handlers, urls, hrefs, text: list.textContent ?? '' };
}
