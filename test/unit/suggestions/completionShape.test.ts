import assert from 'node:assert/strict';
import { completionModeAt, opensBlock } from '../../../src/core/suggestions/completionShape';
import { CURSOR } from './context';

function modeAt(file: string) {
  const at = file.indexOf(CURSOR);
  return completionModeAt(file.slice(0, at), file.slice(at + CURSOR.length));
}

describe('suggestions: one line or a block', () => {
  it('offers one line where text follows the cursor on its line', () => {
    for (const file of ['console.log(‸);\n', 'const x = ‸ + 1;', '  ‸return x;\n', 'function f() {‸}\n', 'if (‸) {\n  x();\n}']) {
      assert.equal(modeAt(file), 'singleLine', file);
    }
  });

  it('offers a block on an empty or whitespace-only line', () => {
    for (const file of ['‸', 'a();\n‸\nb();', 'function f() {\n    ‸\n}', 'function f() {\n\t‸   \n}', 'x\r\n  ‸\r\ny']) {
      assert.equal(modeAt(file), 'multiLine', JSON.stringify(file));
    }
  });

  it('offers a block at the end of a line that opens one, and one line at the end of any other', () => {
    for (const file of ['function f() {‸\n}', 'def f(x):‸', 'items.map((x) =>‸', 'call(‸', 'const list = [ ‸ ', 'if x then‸', 'each do‸\nend']) {
      assert.equal(modeAt(file), 'multiLine', file);
    }
    for (const file of ['const x = 1;‸\n', 'return total‸', 'undo‸', '// a comment‸']) {
      assert.equal(modeAt(file), 'singleLine', file);
    }
  });

  it('knows a block opener from the line before the cursor, trailing spaces aside', () => {
    assert.ok(opensBlock('class A {  ') && opensBlock('  else') && opensBlock('match x:'));
    assert.ok(!opensBlock('thenable') && !opensBlock('x = y') && !opensBlock(''));
  });
});
