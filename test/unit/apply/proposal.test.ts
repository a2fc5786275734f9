import assert from 'node:assert/strict';
import { blockKind, eolOf, hasElision, minimalReplacement, proposedText, type TextReplacement } from '../../../src/core/apply/proposal';

const apply = (base: string, edit: TextReplacement | undefined) => (edit ? base.slice(0, edit.start) + edit.text + base.slice(edit.end) : base);

describe('apply: the proposed text', () => {
  it('replaces a whole file and keeps its last line break', () => {
    assert.equal(proposedText('a\nb\n', 'x\ny', { kind: 'whole' }, { eol: '\n' }), 'x\ny\n');
    assert.equal(proposedText('a\nb', 'x\ny', { kind: 'whole' }, { eol: '\n' }), 'x\ny');
    assert.equal(proposedText('', 'x', { kind: 'whole' }, { eol: '\n', newFile: true }), 'x\n', 'a new file ends with a line break');
  });

  it('writes the file\'s own line breaks', () => {
    assert.equal(proposedText('a\r\nb\r\n', 'x\ny', { kind: 'whole' }, { eol: eolOf('a\r\nb\r\n') }), 'x\r\ny\r\n');
    assert.equal(eolOf('a\nb'), '\n');
  });

  it('keeps the naming comment when the file starts with it, and only then', () => {
    assert.equal(proposedText('// src/x.ts\nold\n', 'new', { kind: 'whole' }, { eol: '\n', namingLine: '// src/x.ts' }), '// src/x.ts\nnew\n');
    assert.equal(proposedText('old\n', 'new', { kind: 'whole' }, { eol: '\n', namingLine: '// src/x.ts' }), 'new\n');
  });

  it('replaces a selection, giving whole selected lines whole lines back', () => {
    const base = 'one\ntwo\nthree\n';
    assert.equal(proposedText(base, 'TWO', { kind: 'replace', start: 4, end: 8 }, { eol: '\n' }), 'one\nTWO\nthree\n');
    assert.equal(proposedText(base, 'W', { kind: 'replace', start: 5, end: 6 }, { eol: '\n' }), 'one\ntWo\nthree\n');
  });

  it('inserts at the cursor, on its own line at a line start', () => {
    const base = 'one\ntwo\n';
    assert.equal(proposedText(base, 'new', { kind: 'insert', offset: 4 }, { eol: '\n' }), 'one\nnew\ntwo\n');
    assert.equal(proposedText(base, '!', { kind: 'insert', offset: 3 }, { eol: '\n' }), 'one!\ntwo\n');
    assert.equal(proposedText(base, 'end', { kind: 'insert', offset: base.length }, { eol: '\n' }), 'one\ntwo\nend');
  });
});

describe('apply: whole file or fragment', () => {
  const file = Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n');
  it('takes a block with most of the file\'s lines for the whole file', () => {
    assert.equal(blockKind(file.replace('line 3', 'LINE 3'), file), 'whole');
    assert.equal(blockKind('anything', ''), 'whole', 'an empty or new file');
    assert.equal(blockKind('anything', ' \n\n'), 'whole');
  });

  it('takes a short block, or one that leaves code out, for a fragment', () => {
    assert.equal(blockKind('line 3', file), 'fragment');
    assert.equal(blockKind(`${file}\n// ... existing code ...`, file), 'fragment');
    const small = 'function f() {\n  return 1;\n}\n';
    assert.equal(blockKind('  return 2;\n}', small), 'fragment', 'the last two of three lines');
    assert.equal(blockKind('function f() {\n  return 2;\n', small), 'whole', 'most lines, starting as the file starts');
    assert.equal(blockKind('function g() {\n  return 2;\n}', small), 'whole', 'as long as the file');
  });

  it('recognises the ways models leave code out, not spreads or ranges', () => {
    for (const code of ['a\n// ... existing code ...\nb', '# ...', '...', '  …  ', '<!-- ... -->', '{/* ... */}', '... rest of the file', '/* …unchanged */']) assert.ok(hasElision(code), code);
    for (const code of ['f(...args);', '  ...rest,', 'x = [1, 2, ...]', 'for i in 1...3']) assert.ok(!hasElision(code), code);
  });
});

describe('apply: one minimal edit', () => {
  it('replaces only what differs', () => {
    assert.deepEqual(minimalReplacement('abcXdef', 'abcYYdef'), { start: 3, end: 4, text: 'YY' });
    assert.deepEqual(minimalReplacement('abc', 'abcd'), { start: 3, end: 3, text: 'd' });
    assert.deepEqual(minimalReplacement('aaa', 'aa'), { start: 2, end: 3, text: '' });
    assert.equal(minimalReplacement('same', 'same'), undefined);
  });

  it('never splits a CRLF pair or a surrogate pair', () => {
    const base = 'a\r\nb';
    const edit = minimalReplacement(base, 'a\nb');
    assert.ok(edit && !(base[edit.start - 1] === '\r' && base[edit.start] === '\n'));
    assert.equal(apply(base, edit), 'a\nb');
    const emoji = minimalReplacement('x😀', 'x😃');
    assert.deepEqual(emoji, { start: 1, end: 3, text: '😃' });
  });

  it('always yields the proposal when applied', () => {
    const pairs: [string, string][] = [['', 'x'], ['x', ''], ['ab\r\ncd\r\n', 'ab\r\nXd\r\n'], ['one\ntwo\n', 'one\ntwo\ntwo\n'], ['aXa', 'aa']];
    for (const [base, proposed] of pairs) assert.equal(apply(base, minimalReplacement(base, proposed)), proposed);
  });
});
