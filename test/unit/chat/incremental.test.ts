import * as assert from 'node:assert/strict';
import { IncrementalMarkdown } from '../../../src/webview/chat/markdown/incremental';
import type { RenderOp } from '../../../src/webview/chat/markdown/renderOp';
import type { Token } from 'markdown-it';
import { createMarkdown, renderMarkdown, renderTokens } from '../../../src/webview/chat/markdown/markdown';
import { batchedAppends, longAnswer, longFence, longList, longTable, streamDeltas } from '../../shared/answerCorpus';
import { seededRandom } from '../../shared/seededRandom';
import { countingParsedChars, TRICKY_MARKDOWN } from './trickyMarkdown';

const md = createMarkdown();

interface Streamed { html: string; ops: RenderOp[]; parsedChars: number }

/**
 * Applies the engine's operations to strings the way StreamingMarkdown applies them to the DOM:
 * a container's children go between its prefix and suffix; provisional output is ignored.
 */
function stream(deltas: string[], options: { reparseChars?: number } = {}): Streamed {
  const { result, parsedChars } = countingParsedChars(md, () => {
    const engine = new IncrementalMarkdown(md, options.reparseChars ?? 0);
    const root: string[] = [];
    let container: { prefix: string; children: string[]; suffix: string } | undefined;
    const ops: RenderOp[] = [];
    const apply = (op: RenderOp) => {
      ops.push(op);
      if (op.op === 'append') (container ? container.children : root).push(op.html);
      if (op.op === 'open') container = { prefix: op.prefix, children: [], suffix: op.suffix };
      if (op.op === 'close' && container) root.push(container.prefix + container.children.join('') + container.suffix);
      if (op.op === 'close' || op.op === 'discard') container = undefined;
    };
    for (const delta of deltas) {
      engine.append(delta);
      engine.update(false).forEach(apply);
    }
    engine.update(true).forEach(apply);
    assert.equal(container, undefined, 'no container is left open once the answer is final');
    return { html: root.join(''), ops };
  });
  return { ...result, parsedChars };
}

function randomSplits(text: string, rand: () => number, max = 5): string[] {
  const deltas: string[] = [];
  for (let i = 0; i < text.length;) {
    const n = 1 + Math.floor(rand() * max);
    deltas.push(text.slice(i, i + n));
    i += n;
  }
  return deltas;
}

const oneShot = (text: string) => renderMarkdown(md, text, { highlight: true });

/** An operation with its tokens written as the HTML they render (the provisional tail is not highlighted). */
function asHtml(op: RenderOp | undefined): unknown {
  if (op?.op === 'append') return { op: 'append', html: op.html };
  if (op?.op !== 'tail') return op;
  const html = (tokens: Token[] | undefined) => (tokens ? renderTokens(md, tokens, { highlight: false }) : undefined);
  return Object.fromEntries(Object.entries({ op: 'tail', html: html(op.tokens), text: op.text, after: html(op.after) }).filter(([, v]) => v !== undefined));
}


describe('IncrementalMarkdown, webview/chat/markdown/incremental.ts (lists, tables and fences grow in place)', () => {
  it('produces exactly the one-shot HTML for every random split of tricky constructs', () => {
    const rand = seededRandom(99);
    for (const text of TRICKY_MARKDOWN) {
      for (let trial = 0; trial < 25; trial++) assert.equal(stream(randomSplits(text, rand)).html, oneShot(text), JSON.stringify(text));
      assert.equal(stream([...text]).html, oneShot(text), `one character at a time: ${JSON.stringify(text)}`);
      assert.equal(stream([text]).html, oneShot(text), `one append: ${JSON.stringify(text)}`);
    }
  });

  it('matches the one-shot HTML for long answers, lists, tables and fences in batcher-sized appends, with and without the re-parse throttle', () => {
    const texts = [longAnswer(40_000, 11), longList(8_000), longTable(8_000), longFence(400), longAnswer(20_000, 5)];
    for (const text of texts) {
      for (const tokensPerSecond of [1000, 20]) {
        const appends = batchedAppends(text, tokensPerSecond);
        assert.equal(stream(appends).html, oneShot(text));
        assert.equal(stream(appends, { reparseChars: 64 }).html, oneShot(text));
      }
    }
  });

  it('commits list items, table rows and fence lines as they finish, not at the end of the block', () => {
    for (const [name, text, kind] of [['list', longList(6_000), 'list'], ['table', longTable(6_000), 'table'], ['fence', longFence(300), 'fence']] as const) {
      const { ops } = stream(streamDeltas(text, 3));
      assert.ok(ops.some((op) => op.op === 'open' && op.kind === kind), `${name}: opened as a growing container`);
      const appends = ops.filter((op) => op.op === 'append').length;
      assert.ok(appends > 20, `${name}: committed in ${appends} pieces`);
    }
  });

  it('parses a bounded amount per append: a 20 KB list, table or fence costs a few times its size, not its square', () => {
    for (const text of [longList(20_000), longTable(20_000), longFence(1000), longAnswer(20_000, 3)]) {
      const { parsedChars } = stream(batchedAppends(text, 20));
      // Re-parsing the open block per append would parse ~ n^2 / (2 * 5 chars) = tens of millions of chars.
      assert.ok(parsedChars < text.length * 60, `parsed ${parsedChars} chars for a ${text.length}-char answer`);
    }
  });

  it('shows text appended between parses as provisional text, and parses again when a line ends or enough arrived', () => {
    const engine = new IncrementalMarkdown(md, 8);
    engine.append('Hello');
    assert.deepEqual(asHtml(engine.update(false).at(-1)), { op: 'tail', html: '<p>Hello</p>\n' });
    engine.append(' world');
    assert.deepEqual(engine.update(false), [{ op: 'tailText', text: ' world' }]);
    engine.append('!!');
    assert.deepEqual(asHtml(engine.update(false).at(-1)), { op: 'tail', html: '<p>Hello world!!</p>\n' });
    engine.append('\n\nNext\n');
    const ops = engine.update(false);
    assert.deepEqual(asHtml(ops[0]), { op: 'append', html: '<p>Hello world!!</p>\n' });
  });

  it('brings back the white space a parse trimmed from the end of the open line, except in code', () => {
    const engine = new IncrementalMarkdown(md, 8);
    engine.append('**Model** answers with ');
    assert.deepEqual(asHtml(engine.update(false).at(-1)), { op: 'tail', html: '<p><strong>Model</strong> answers with</p>\n' });
    engine.append('a short');
    assert.deepEqual(engine.update(false), [{ op: 'tailText', text: ' a short' }], 'not "witha short"');
    engine.append(' example');
    assert.deepEqual(engine.update(false), [{ op: 'tailText', text: ' example' }], 'once only');
    const code = new IncrementalMarkdown(md, 8);
    code.append('```ts\nconst a =  ');
    code.update(false);
    code.append('1');
    assert.deepEqual(code.update(false), [{ op: 'tailText', text: '1' }], 'a fence line is text with its own spaces');
    const indented = new IncrementalMarkdown(md, 8);
    indented.append('    code  ');
    indented.update(false);
    indented.append('x');
    assert.deepEqual(indented.update(false), [{ op: 'tailText', text: 'x' }], 'indented code keeps its spaces');
  });

  it('never re-parses plain text appended to an open line, however long: it shows exactly as a parse would', () => {
    const engine = new IncrementalMarkdown(md, 8);
    engine.append('Hello');
    assert.deepEqual(asHtml(engine.update(false).at(-1)), { op: 'tail', html: '<p>Hello</p>\n' });
    for (let i = 0; i < 50; i++) {
      engine.append(' plain words, then more of them');
      assert.deepEqual(engine.update(false), [{ op: 'tailText', text: ' plain words, then more of them' }], `append ${i}`);
    }
  });

  it('re-parses once an append may render as more than its text, including a construct split between appends', () => {
    const cases: [string, string][] = [
      ['see **bo', 'ld** now'], ['a `co', 'de` span'], ['a [li', 'nk](https://x.y) here'], ['Tom &', 'amp; Jerry'], ['a <http', '://x.y> link'],
      ['visit example.', 'com today'], ['mail me@', 'example.com'], ['x ~~gone', '~~ y'], ['an \\', '* escape'], ['a | b', ' | c'], ['snake_', 'case_name'],
      ['https', '://example.com/a'], ['split \u00e9\ud83d', '\ude00 *x*'],
    ];
    for (const [first, second] of cases) {
      const engine = new IncrementalMarkdown(md, 4);
      engine.append('Intro words ' + first);
      engine.update(false);
      engine.append(second + ' and padding');
      const ops = engine.update(false);
      assert.ok(ops.some((op) => op.op === 'tail'), `${JSON.stringify(first + second)}: parsed again, got ${JSON.stringify(ops)}`);
    }
  });

  it('re-parses text that starts a line (a list item, heading, quote or indented code may begin there)', () => {
    for (const start of ['- item', '# Head', '> quote', '    code', '1. one', '---', 'plain']) {
      const engine = new IncrementalMarkdown(md, 4);
      engine.append('Intro\n');
      engine.update(false);
      engine.append(start + ' text');
      assert.ok(engine.update(false).some((op) => op.op === 'tail'), JSON.stringify(start));
    }
  });

  it('inside an open code fence, parses only when a line ends', () => {
    const engine = new IncrementalMarkdown(md, 4);
    engine.append('```ts\nconst a = 1;\n');
    engine.update(false);
    engine.append('const b = `x` * [1] <');
    assert.deepEqual(engine.update(false), [{ op: 'tailText', text: 'const b = `x` * [1] <' }]);
    engine.append('2;\n');
    assert.ok(engine.update(false).some((op) => op.op === 'tail'));
  });

  it('matches the one-shot HTML for adversarial text in random splits with the default re-parse throttle', () => {
    const rand = seededRandom(7);
    const adversarial = [
      'Plain start *emph* and _under_ and `code` and <b>raw</b> & &amp; | a | b |\n\n| h | i |\n|---|---|\n| `x|y` | **b** |\n',
      'Trailing spaces  \nhard break -- dashes https://example.com/path and www.example.org and me@example.com.\n',
      '- item *one\n- item* two\n\n  continued __strong__\n\n1) first\n2) second `tick\n',
      'caf\u00e9 \ud83d\ude00 emoji \u2014 **b\u00f6ld** \u4e2d\u6587 `\u00e9`\n\n> quote *x*\n> more\n',
    ];
    for (const text of adversarial) {
      for (let trial = 0; trial < 25; trial++) assert.equal(stream(randomSplits(text, rand, 9), { reparseChars: 64 }).html, oneShot(text), JSON.stringify(text));
    }
  });
});
