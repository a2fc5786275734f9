import * as assert from 'node:assert/strict';
import { allowedClasses } from '../../../src/webview/chat/markdown/allowlist';
import { buildFromHighlighted } from '../../../src/webview/chat/markdown/highlightedDom';
import { highlightChunk } from '../../../src/webview/chat/markdown/markdown';
import { fakeNodeSink, fakeRoot, serialise } from '../fakes/nodeSink';

function built(html: string): string | undefined {
  const root = fakeRoot();
  return buildFromHighlighted(html, root, fakeNodeSink) ? root.children.map(serialise).join('') : undefined;
}

/** What the sanitiser keeps of the highlighter's HTML, written as serialise() writes it (' unescaped). */
const sanitised = (html: string) => html
  .replace(/<span class="([^"]*)">/g, (_, classes: string) => (allowedClasses(classes) ? `<span class="${allowedClasses(classes)}">` : '<span>'))
  .replace(/&#x27;/g, '\'');

describe('highlighted lines builder (a growing fence without a sanitiser call per frame)', () => {
  it('builds what the highlighter wrote, classes as the sanitiser keeps them, in every language the chat highlights and without one', () => {
    const samples: [string, string | undefined][] = [
      ['const a = "x" && b < c; // it\'s <b>\nfunction f<T>(x: T): T { return x; }\n', 'ts'],
      ['def f(x):\n    """doc & \'quotes\'"""\n    return x > 1\n', 'python'],
      ['<div class="a">&amp; <script>alert(1)</script></div>\n', 'html'],
      ['{"a": [1, 2, "<&>"]}\n', 'json'],
      ['echo "$HOME" > /tmp/x && ls | grep \'a\'\n', 'bash'],
      ['plain <text> & "quotes"\n', undefined],
    ];
    for (const [code, language] of samples) {
      const { html } = highlightChunk(code, language);
      assert.equal(built(html), sanitised(html), `${language}: ${html}`);
    }
  });

  it('refuses anything the highlighter does not write, so that the caller sanitises it at once', () => {
    for (const html of ['<b>x</b>', '<span class="a" onclick="x">x</span>', '&nbsp;', 'a & b', '<span class="a">open', 'x</span>', 'a\rb', '<img src=x onerror=alert(1)>', '<span class=a>x</span>']) {
      assert.equal(built(html), undefined, html);
    }
  });

  it('joins text split by entities into one node, as the HTML parser does', () => {
    const root = fakeRoot();
    assert.ok(buildFromHighlighted('a &amp; b &lt;c&gt;', root, fakeNodeSink));
    assert.deepEqual(root.children, [{ text: 'a & b <c>' }]);
  });
});
