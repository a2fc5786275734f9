import assert from 'node:assert/strict';
import { suggestionIsComplete } from '../../../src/core/suggestions/streamCutoff';
import { cleanSuggestion } from '../../../src/core/suggestions/postProcess';
import { contextAt } from './context';

/** The first length of the streamed answer at which it is complete, or -1 when it never is. */
function completeAfter(answer: string, file: string, indentUnit = '  '): number {
  const context = contextAt(file, indentUnit);
  for (let length = 0; length <= answer.length; length++) {
    if (suggestionIsComplete(answer.slice(0, length), context)) return length;
  }
  return -1;
}

describe('suggestions: when a streamed answer holds the whole suggestion', () => {
  const statement = 'const count = ‸;\n';
  const body = 'function sum(a, b) {\n  ‸\n}\n';

  it('single line: complete once a line break follows text, not before', () => {
    const answer = 'items.length\nmore();';
    assert.equal(completeAfter(answer, statement), 'items.length\n'.length);
    assert.equal(completeAfter('\n\nitems.length\n', statement), '\n\nitems.length\n'.length, 'leading line breaks are not the end');
  });

  it('single line: a fence or a line of prose before the code is not the suggestion\'s line', () => {
    const fenced = '```ts\nitems.length\n```';
    assert.equal(completeAfter(fenced, statement), '```ts\nitems.length\n'.length);
    const introduced = 'Here is the completion:\nitems.length\n';
    assert.equal(completeAfter(introduced, statement), introduced.length);
  });

  it('multi-line: complete once a line dedents below the cursor, as soon as its first character says so', () => {
    const answer = 'const s = a + b;\n  return s;\n}\n\nfunction g() {}';
    assert.equal(completeAfter(answer, body), 'const s = a + b;\n  return s;\n}'.length);
  });

  it('multi-line: a line that only begins with the cursor\'s indentation, or a blank line still arriving, is not an end', () => {
    const context = contextAt(body);
    assert.equal(suggestionIsComplete('log(a);\n  ', context), false);
    assert.equal(suggestionIsComplete('log(a);\n', context), false);
    assert.equal(suggestionIsComplete('log(a);\n\n', context), false);
    assert.equal(suggestionIsComplete('log(a);\n\n\n', context), true, 'two blank lines in a row end the block');
  });

  it('multi-line after an opener: complete once its closing line is whole', () => {
    const answer = '\n  items.forEach((x) => {\n    log(x);\n  });\n}\nnext();';
    const file = 'function f(items) {‸';
    assert.equal(completeAfter(answer, file), answer.indexOf('\nnext') + 1);
    assert.equal(cleanSuggestion(answer, contextAt(file)), '\n  items.forEach((x) => {\n    log(x);\n  });\n}');
  });

  it('complete once a fence closes (a line at column 0 is no dedent here)', () => {
    const answer = '```\nlog(a);\nlog(b);\n```\nExplanation follows.';
    assert.equal(completeAfter(answer, 'a();\n‸\nb();\n'), answer.indexOf('```\nExplanation') + 4);
  });

  it('never complete while nothing but the answer\'s first characters arrived', () => {
    const context = contextAt(body);
    for (const streamed of ['', 'l', 'log(a);', '```', '```ts\n', 'Here is']) assert.equal(suggestionIsComplete(streamed, context), false, streamed);
  });

  it('stops where post-processing cuts: the complete prefix cleans to the same suggestion as the whole answer', () => {
    const answer = 'const s = a + b;\n  return s;\n}\n\nfunction g() {\n  return 2;\n}\n';
    const context = contextAt(body);
    const length = completeAfter(answer, body);
    assert.equal(cleanSuggestion(answer.slice(0, length), context), cleanSuggestion(answer, context));
  });
});
