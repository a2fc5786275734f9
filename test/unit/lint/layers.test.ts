import * as assert from 'node:assert/strict';
import { ruleLines } from './ruleLines';

/** The import zones of eslint.config.mjs, checked on code that crosses each boundary. */
describe('lint: layer boundaries', function () {
  this.timeout(60_000);
  const problems = ruleLines('@typescript-eslint/no-restricted-imports');
  const lines = (...imports: string[]) => `${imports.join('\n')}\nexport const used = [${imports.map((_, i) => `i${i}`).join(', ')}];\n`;
  const named = (source: string, index: number) => `import * as i${index} from '${source}';`;

  it('keeps src/core free of everything outside it, at any depth', async () => {
    assert.deepEqual(await problems('src/core/zz.ts', lines(named('../host/config', 0), named('vscode', 1), named('./credits', 2), named('../webview/app', 3))), [1, 2, 4]);
    assert.deepEqual(await problems('src/core/chat/zz.ts', lines(named('../../host/services', 0), named('../credits', 1), named('../../../test/harness/wait', 2))), [1, 3]);
    assert.deepEqual(await problems('src/core/chat/zz.ts', 'import type * as v from \'vscode\';\nexport type V = typeof v;\n'), [1], 'not even types from vscode');
  });

  it('keeps core/api below the rest of the core: root helpers only, no other core folder', async () => {
    const code = lines(named('./errors', 0), named('../byteSize', 1), named('../usage/ledger', 2), named('../chat/conversation', 3), named('../../host/config', 4));
    assert.deepEqual(await problems('src/core/api/zz.ts', code), [3, 4, 5]);
    assert.deepEqual(await problems('src/core/usage/zz.ts', lines(named('../api/errors', 0))), [], 'the features build on it');
  });

  it('keeps host/shared free of the features it serves', async () => {
    const code = lines(named('./environments', 0), named('../../core/credits', 1), named('../chat/pickers', 2), named('../account/statusBar', 3));
    assert.deepEqual(await problems('src/host/shared/zz.ts', code), [3, 4]);
    assert.deepEqual(await problems('src/host/chat/zz.ts', lines(named('../shared/services', 0))), [], 'the features build on it');
  });

  it('lets the chat webview import only its folder, the shared one, the protocol and pure core helpers', async () => {
    const code = lines(named('../../core/chat/protocol/chatProtocol', 0), named('../../core/chat/protocol/chatMessageValidation', 1), named('../../core/api/errors', 2), named('../../host/config', 3), named('./composer', 4), named('vscode', 5),
      named('../../core/chat/chatEngine', 6), named('../../core/credits', 7), named('../shared/dom', 8), named('../usage/chart', 9));
    assert.deepEqual(await problems('src/webview/chat/zz.ts', code), [3, 4, 6, 7, 10]);
    assert.deepEqual(await problems('src/webview/shared/zz.ts', lines(named('../chat/app', 0), named('../../core/chat/protocol/chatProtocol', 1))), [1], 'the shared folder serves both views, and uses neither');
  });

  it('lets the usage webview import only its folder, the shared one and its protocol', async () => {
    const code = lines(named('../shared/dom', 0), named('../chat/app', 1), named('../../core/usage/protocol', 2), named('../../core/usage/ledger', 3), named('./chart', 4));
    assert.deepEqual(await problems('src/webview/usage/zz.ts', code), [2, 4]);
  });

  it('keeps the markdown renderer free of the chat, the core and VS Code', async () => {
    const code = lines(named('../../shared/dom', 0), named('../frames', 1), named('./blocks', 2), named('../app', 3), named('../../../core/chat/protocol/chatProtocol', 4), named('vscode', 5));
    assert.deepEqual(await problems('src/webview/chat/markdown/zz.ts', code), [4, 5, 6]);
  });

  it('lets only the undici adapter import undici, types included', async () => {
    const typeImport = 'import type { Dispatcher } from \'undici\';\nexport type D = Dispatcher;\n';
    for (const file of ['src/core/zz.ts', 'src/core/chat/zz.ts', 'src/host/zz.ts', 'src/extension2.ts']) {
      assert.deepEqual(await problems(file, typeImport), [1], file);
    }
    assert.deepEqual(await problems('src/core/api/undiciTransport.ts', lines(named('undici', 0), named('./transport', 1))), []);
    assert.deepEqual(await problems('src/core/api/undiciTransport.ts', lines(named('vscode', 0), named('../../host/config', 1))), [1, 2], 'the adapter is still in the core zone');
  });

  it('never lets src import test code', async () => {
    assert.deepEqual(await problems('src/host/zz.ts', lines(named('../../test/harness/wait', 0), named('../core/api/errors', 1))), [1]);
    assert.deepEqual(await problems('src/extension2.ts', lines(named('../test/harness/wait', 0))), [1]);
  });
});
