import * as assert from 'node:assert/strict';
import { createMarkdown, fenceLanguage, renderMarkdown } from '../../../src/webview/chat/markdown/markdown';

const md = createMarkdown();
const render = (text: string) => renderMarkdown(md, text, { highlight: true });

describe('chat markdown dialect', () => {
  it('shows raw HTML from the model as text', () => {
    const html = render('<script>alert(1)</script>\n\n<img src=x onerror=alert(1)> <iframe src="https://evil.test"></iframe>');
    assert.doesNotMatch(html, /<script|<img|<iframe/);
    assert.match(html, /&lt;script&gt;/);
  });

  it('turns only http, https and mailto targets into links', () => {
    const html = render('[a](javascript:alert(1)) [b](data:text/html;base64,PHNjcmlwdD4=) [c](vbscript:x) [d](file:///etc/passwd) [e](https://ok.test/) [f](mailto:x@y.test) [g](JAVASCRIPT:alert(1))');
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(hrefs, ['https://ok.test/', 'mailto:x@y.test']);
  });

  it('never produces <img>: an image becomes a link the user may click, or plain text', () => {
    const html = render('![pixel](https://tracker.test/p.png) ![inline](data:image/png;base64,AAAA)');
    assert.doesNotMatch(html, /<img/);
    assert.match(html, /<a href="https:\/\/tracker.test\/p.png" class="image-link">\[image: pixel\]<\/a>/);
    assert.match(html, /!\[inline\]\(data:image/, 'an unsafe image target stays literal text');
    assert.doesNotMatch(html, /href="data:/);
  });

  it('expresses table alignment as a class, not an inline style (the CSP forbids inline styles)', () => {
    const html = render('| a | b |\n|:-:|--:|\n| 1 | 2 |');
    assert.doesNotMatch(html, /style=/);
    assert.match(html, /<th class="align-center">a<\/th>/);
    assert.match(html, /<td class="align-right">2<\/td>/);
  });

  it('keeps only a plain language word from a fence info string', () => {
    assert.equal(fenceLanguage('TypeScript {linenos}'), 'typescript');
    assert.equal(fenceLanguage('"><script>'), undefined);
    const html = render('```"><img src=x onerror=alert(1)>\ncode\n```');
    assert.doesNotMatch(html, /<img/);
    assert.match(html, /<pre><code class="hljs">code\n<\/code><\/pre>/);
  });

  it('leaves the streaming tail unhighlighted (fences are highlighted once, when they close)', () => {
    const html = renderMarkdown(md, '```js\nconst a = 1;\n```', { highlight: false });
    assert.equal(html, '<pre><code class="language-js">const a = 1;\n</code></pre>\n');
  });
});
