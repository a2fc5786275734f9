import * as assert from 'node:assert/strict';
import { ruleLines } from './ruleLines';

/** eslint.config.mjs keeps src to one private-member style: ECMAScript private names (#), not TypeScript's `private`. */
describe('lint: private members are # names in src', function () {
  this.timeout(60_000);
  const problems = ruleLines('no-restricted-syntax');
  const TS_PRIVATE = [
    'export class A {',
    '  private a = 1;',
    '  private readonly b: number;',
    '  constructor(private readonly c: number, readonly d: number) {',
    '    this.b = c + d;',
    '  }',
    '  private m(): number {',
    '    return this.a + this.b + this.c + this.n;',
    '  }',
    '  private get n(): number {',
    '    return this.m();',
    '  }',
    '  private accessor e = 2;',
    '}',
    '',
  ].join('\n');

  it('refuses each form of the `private` modifier in src, in every layer', async () => {
    for (const file of ['src/core/zz.ts', 'src/host/shared/zz.ts', 'src/webview/chat/zz.ts', 'src/extension2.ts']) {
      assert.deepEqual(await problems(file, TS_PRIVATE), [2, 3, 4, 7, 10, 13], file);
    }
  });

  it('accepts # names, public parameter properties and a private constructor (which has no # form)', async () => {
    const code = [
      'export class A {',
      '  #a = 1;',
      '  readonly #c: number;',
      '  static make(): A {',
      '    return new A(1, 2);',
      '  }',
      '  private constructor(c: number, readonly d: number) {',
      '    this.#c = c;',
      '  }',
      '  get #n(): number {',
      '    return this.#a + this.#c + this.d;',
      '  }',
      '  total(): number {',
      '    return this.#n;',
      '  }',
      '}',
      '',
    ].join('\n');
    assert.deepEqual(await problems('src/core/zz.ts', code), []);
  });

  it('keeps the other no-restricted-syntax rule of src beside it', async () => {
    assert.deepEqual(await problems('src/host/zz.ts', `import * as vscode from 'vscode';\nexport const v = vscode;\n${TS_PRIVATE}`), [1, 4, 5, 6, 9, 12, 15]);
  });

  it('leaves test code alone', async () => {
    assert.deepEqual(await problems('test/unit/zz.ts', TS_PRIVATE), []);
  });
});
