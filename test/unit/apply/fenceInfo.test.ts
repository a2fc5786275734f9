import assert from 'node:assert/strict';
import { fenceInfoOf } from '../../../src/webview/chat/fenceInfo';

describe('apply: the fence info string of a rendered code block', () => {
  const answer = [
    'First:',
    '```ts src/a.ts',
    'same();',
    '```',
    '- in a list:',
    '',
    '  ~~~python title="tools/b.py"',
    '  print(1)',
    '  ~~~',
    '```',
    'same();',
    '```',
    '',
    '    indented();',
  ].join('\n');

  it('finds the fence by the block\'s code, at its position when two hold the same code', () => {
    assert.equal(fenceInfoOf(answer, 'same();', 0), 'ts src/a.ts');
    assert.equal(fenceInfoOf(answer, 'same();', 2), undefined, 'the second fence with that code has no info string');
    assert.equal(fenceInfoOf(answer, 'print(1)', 1), 'python title="tools/b.py"');
    assert.equal(fenceInfoOf(answer, 'print(1)', 7), 'python title="tools/b.py"', 'a wrong position falls back to the code');
  });

  it('gives nothing for an indented block or code that is not in the answer', () => {
    assert.equal(fenceInfoOf(answer, 'indented();', 3), undefined);
    assert.equal(fenceInfoOf(answer, 'nowhere();', 0), undefined);
  });
});
