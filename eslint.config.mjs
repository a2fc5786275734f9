// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Import zones: the layers of src/README.md's map, checked on every import. ESLint's own
 * no-restricted-imports (through typescript-eslint's variant, which also sees `import type`) is
 * enough here: the zones are folders and imports are relative paths, so a regular expression per
 * folder depth says exactly "leaves this folder". No plugin or module resolver is needed.
 */
const VSCODE = { name: 'vscode', allowTypeImports: false };

/** An import that climbs `depth` folders or more (`../` repeated), i.e. leaves a zone whose files sit `depth` levels deep in it. */
const climbs = (depth) => `^(\\.\\./){${depth}}`;

/**
 * HTTP goes through core/api/transport.ts; undici is one adapter behind it (core/api/undiciTransport.ts), so that
 * the client's logic tests run on a fake and activation never loads the HTTP stack by accident.
 */
const UNDICI = { name: 'undici', allowTypeImports: false, message: 'Only src/core/api/undiciTransport.ts uses undici: depend on the Transport interface (core/api/transport.ts).' };
const UNDICI_ADAPTER = 'src/core/api/undiciTransport.ts';

/**
 * What the chat webview may take from the core: the protocol's folder (the messages, their
 * validation and the pure helpers that read them), and root helpers with no Node or VS Code in them.
 */
const WEBVIEW_CORE = ['chat/protocol/[A-Za-z]+', 'credits', 'numberParams', 'byteSize', 'chat/mentions/sizes'];
/** From a folder of src/webview (chat/, shared/): the shared folder, and those core modules. */
const WEBVIEW_OUTSIDE = `^\\.\\./(?!(shared/[A-Za-z]+|\\.\\./core/(${WEBVIEW_CORE.join('|')}))$)`;

const NEVER_TEST = {
  regex: '^(\\.\\./)+test/',
  message: 'src never imports test code: tests depend on the product, not the other way round.',
};

/**
 * core/api is the core's bottom layer (HTTP, the service's types and errors): from the rest of the
 * core it takes only root helpers, never another folder's code; the features build on it.
 */
const API_FILES = ['src/core/api/*.ts'];
const API_STAYS_BELOW = {
  regex: '^\\.\\./(?!\\.\\./)(?!(byteSize|logText|numberParams)$)',
  message: 'src/core/api imports no other core folder (the features build on it, never the reverse); from core\'s root only byteSize, logText and numberParams.',
};

/** src/core: plain Node. It imports nothing outside src/core, so it cannot reach VS Code through a host file. */
const coreZone = (depth, files = [`src/core/${'*/'.repeat(depth - 1)}*.ts`], others = [UNDICI], layer = []) => ({
  files,
  ...(files.includes(UNDICI_ADAPTER) ? {} : { ignores: [UNDICI_ADAPTER] }),
  rules: {
    '@typescript-eslint/no-restricted-imports': ['error', {
      paths: [{ ...VSCODE, message: 'src/core must not depend on the vscode API: it unit-tests in plain Node.' }, ...others],
      patterns: [{
        regex: climbs(depth),
        message: 'src/core imports nothing outside src/core (no host, webview, extension or test): the host adapts the core, never the reverse.',
      }, ...layer],
    }],
  },
});

/**
 * One private-member style in src: ECMAScript private names (`#name`), private at run time, so what a
 * class holds (a key, a secret store) never shows in a log, util.inspect, JSON.stringify or a
 * structured clone. TypeScript's `private` hides a member from the compiler only. A `private
 * constructor` has no `#` form and stays allowed.
 */
const TS_PRIVATE = [
  "TSParameterProperty[accessibility='private']",
  "PropertyDefinition[accessibility='private']",
  "TSAbstractPropertyDefinition[accessibility='private']",
  "MethodDefinition[accessibility='private'][kind!='constructor']",
  "TSAbstractMethodDefinition[accessibility='private']",
  "AccessorProperty[accessibility='private']",
  "TSAbstractAccessorProperty[accessibility='private']",
].map((selector) => ({
  selector,
  message: 'Use an ECMAScript private name (#name), not TypeScript\'s `private`: it is private at run time too (a parameter property becomes a `#` field assigned in the constructor).',
}));

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    // The host and extension.ts may use everything in src, but never test code.
    files: ['src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [UNDICI], patterns: [NEVER_TEST] }],
      // `import * as vscode from 'vscode'` becomes `__toESM(require('vscode'))` in esbuild's CommonJS
      // bundle: a copy of the API's ~300 properties for every importing file, ~20 ms of every
      // window's start for 40 files. `import vscode = require('vscode')` is a plain require.
      '@typescript-eslint/no-require-imports': ['error', { allow: ['^vscode$'] }],
      // The only no-restricted-syntax of src: a later entry for these files would replace this list, not add to it.
      'no-restricted-syntax': ['error', {
        selector: "ImportDeclaration[source.value='vscode'][importKind!='type']",
        message: "Write `import vscode = require('vscode');` (a plain require in the bundle; an ES import of it costs a copy of the whole API per file at start-up).",
      }, ...TS_PRIVATE],
    },
  },
  coreZone(1),
  coreZone(2),
  coreZone(3),
  coreZone(2, API_FILES, [UNDICI], [API_STAYS_BELOW]),
  coreZone(2, [UNDICI_ADAPTER], [], [API_STAYS_BELOW]),
  {
    // The webview runs in the browser: it imports its own files, browser packages, and from the
    // core only the protocol and the pure validation helpers, never vscode, the host or test code.
    files: ['src/webview/chat/*.ts', 'src/webview/shared/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [{ ...VSCODE, message: 'The webview runs in the browser and talks to the host only through the chat protocol.' }],
        patterns: [{
          regex: WEBVIEW_OUTSIDE,
          message: 'src/webview/chat and src/webview/shared import from outside their folder only src/webview/shared, core/chat/protocol/*, core/credits, core/numberParams, core/byteSize and core/chat/mentions/sizes (the protocol, and pure helpers such as how a long conversation is sent and shown).',
        }],
      }],
    },
  },
  {
    // The markdown renderer: browser code that knows nothing of the chat, its protocol or the core;
    // from the panel's chrome it uses only the DOM builders, the frame scheduler and the code-block toolbar.
    files: ['src/webview/chat/markdown/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [{ ...VSCODE, message: 'The renderer runs in the browser and knows nothing of VS Code.' }],
        patterns: [{
          regex: '^\\.\\./(?!(frames|codeBlocks|\\.\\./shared/dom)$)',
          message: 'src/webview/chat/markdown imports only its own folder and, from the chat\'s chrome, ../frames and ../codeBlocks, and the shared ../../shared/dom.',
        }],
      }],
    },
  },
  {
    // The usage view's bundle: the same rule one folder down; from the core, its protocol, the
    // report's types and pure helpers, and credit formatting.
    files: ['src/webview/usage/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [{ ...VSCODE, message: 'The webview runs in the browser and talks to the host only through its protocol.' }],
        patterns: [{
          regex: '^\\.\\./(?!(shared/[A-Za-z]+|\\.\\./core/(usage/(protocol|report)|credits))$)',
          message: 'src/webview/usage imports from outside its folder only src/webview/shared, core/usage/protocol, core/usage/report and core/credits.',
        }],
      }],
    },
  },
  {
    // What every host feature shares builds on the core and on itself, never on a feature: a feature
    // may be taken out (or loaded later) without the rest of the host noticing.
    files: ['src/host/shared/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [UNDICI],
        patterns: [NEVER_TEST, { regex: '^\\.\\./(?!\\.\\./)', message: 'src/host/shared imports the core and its own folder, never a host feature.' }],
      }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
