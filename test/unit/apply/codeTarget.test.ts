import assert from 'node:assert/strict';
import { blockTarget, looksLikePath, pathFromFirstLine, pathFromInfo } from '../../../src/core/apply/codeTarget';

describe('apply: the file a code block names', () => {
  it('reads a path from the fence info string in the forms models write', () => {
    assert.equal(pathFromInfo('ts src/x.ts'), 'src/x.ts');
    assert.equal(pathFromInfo('typescript:src/app/main.ts'), 'src/app/main.ts');
    assert.equal(pathFromInfo('ts title="src/x y.ts"'), undefined, 'a space is never part of a path we accept');
    assert.equal(pathFromInfo('python title="tools/run.py"'), 'tools/run.py');
    assert.equal(pathFromInfo("js filename='web/app.js' {1,3}"), 'web/app.js');
    assert.equal(pathFromInfo('src/x.ts'), 'src/x.ts');
    assert.equal(pathFromInfo('  ts   README.md  '), 'README.md');
  });

  it('takes a lone language, line highlights or a URI for what they are, not a path', () => {
    for (const info of [undefined, '', 'ts', 'c++', 'objective-c', 'ts {1,3}', 'js https://example.com/x.js', 'sh !/bin/sh', 'x.ts']) {
      assert.equal(pathFromInfo(info), undefined, String(info));
    }
  });

  it('reads a first line that is only a comment holding a path', () => {
    assert.equal(pathFromFirstLine('// src/x.ts'), 'src/x.ts');
    assert.equal(pathFromFirstLine('# tools/run.py'), 'tools/run.py');
    assert.equal(pathFromFirstLine('-- db/schema.sql'), 'db/schema.sql');
    assert.equal(pathFromFirstLine('/* styles/app.css */'), 'styles/app.css');
    assert.equal(pathFromFirstLine('<!-- index.html -->'), 'index.html');
    assert.equal(pathFromFirstLine('// File: src/x.ts'), 'src/x.ts');
    assert.equal(pathFromFirstLine('  #   filename: main.py  '), 'main.py');
  });

  it('does not take ordinary first lines for a path', () => {
    for (const line of ['#!/bin/bash', '#!/usr/bin/env node', '// TODO: fix', '// see lodash.debounce', '#include <stdio.h>', 'import x from "./x.js";', '// @ts-check', '# 1.5', '']) {
      assert.equal(pathFromFirstLine(line), undefined, line);
    }
  });

  it('prefers the info string and then keeps the first line as code', () => {
    assert.deepEqual(blockTarget({ code: '// other.ts\nx();', info: 'ts src/x.ts' }), { path: 'src/x.ts', code: '// other.ts\nx();' });
  });

  it('takes the naming line out of the code and says what it was', () => {
    assert.deepEqual(blockTarget({ code: '// src/x.ts\r\nexport const x = 1;\n', info: 'ts' }), { path: 'src/x.ts', code: 'export const x = 1;\n', namingLine: '// src/x.ts' });
    assert.deepEqual(blockTarget({ code: '# a.py' }), { path: 'a.py', code: '', namingLine: '# a.py' });
    assert.deepEqual(blockTarget({ code: 'x = 1' }), { code: 'x = 1' });
  });

  it('knows a path from a word', () => {
    assert.ok(looksLikePath('src/x.ts') && looksLikePath('x.py') && looksLikePath('a\\b') && looksLikePath('Makefile/'));
    assert.ok(!looksLikePath('..') && !looksLikePath('./') && !looksLikePath('node') && !looksLikePath('a b.ts') && !looksLikePath('x'.repeat(300) + '.ts'));
  });
});
