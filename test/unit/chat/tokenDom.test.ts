import * as assert from 'node:assert/strict';
import { createMarkdown, renderTokens } from '../../../src/webview/chat/markdown/markdown';
import { buildFromTokens } from '../../../src/webview/chat/markdown/tokenDom';
import { fakeNodeSink, fakeRoot, serialise } from '../fakes/nodeSink';
import { longAnswer, longFence, longList, longTable } from '../../shared/answerCorpus';
import { TRICKY_MARKDOWN } from './trickyMarkdown';

const md = createMarkdown();

function built(text: string): string {
  const root = fakeRoot();
  buildFromTokens(md.parse(text, {}), root, fakeNodeSink);
  return root.children.map(serialise).join('');
}
const rendered = (text: string) => renderTokens(md, md.parse(text, {}), { highlight: false });

describe('token DOM builder (the streaming tail without HTML)', () => {
  it('builds exactly what markdown-it renders, for tricky constructs and long answers', () => {
    const texts = [...TRICKY_MARKDOWN, longAnswer(60_000, 7), longList(5_000), longTable(5_000), longFence(200),
      'Hard  \nbreak, `code`, ~~gone~~, <b>raw</b> & "quotes", https://example.com/a?b=1&c=2, a@b.co\n\n***\n\n> > nested\n\n###### h6',
      '![alt *text*](https://example.com/i.png "t") ![local](file:///etc/passwd) [x](javascript:alert(1)) <mailto:a@b.c>',
      '10. ten\n11. eleven\n\n| a |\n|:-:|\n| `|` |'];
    for (const text of texts) assert.equal(built(text), rendered(text), JSON.stringify(text.slice(0, 80)));
  });

  it('builds no element outside the allowlist and no attribute it refuses, whatever the tokens say', () => {
    const tokens = md.parse('[x](https://example.com)\n\n| a |\n|:--|\n| b |', {});
    const link = tokens[1].children?.find((t) => t.type === 'link_open');
    assert.ok(link);
    link.attrSet('href', 'javascript:alert(1)');
    link.attrSet('onclick', 'alert(1)');
    link.tag = 'script';
    tokens.find((t) => t.type === 'th_open')?.attrSet('class', 'align-left evil');
    const out = built('') + (() => {
      const root = fakeRoot();
      buildFromTokens(tokens, root, fakeNodeSink);
      return root.children.map(serialise).join('');
    })();
    assert.doesNotMatch(out, /script|onclick|javascript|evil/);
    assert.match(out, /<th class="align-left">a<\/th>/);
    assert.match(out, /<p>x<\/p>/, 'the refused element keeps its text, as the sanitiser does');
  });
});
