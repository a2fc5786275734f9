import assert from 'node:assert/strict';
import { cleanSuggestion } from '../../../src/core/suggestions/postProcess';
import { contextAt } from './context';

interface Row {
  name: string;
  /** The file, with the cursor written as ‸. */
  file: string;
  raw: string;
  expected: string | undefined;
  indentUnit?: string;
}

const STATEMENT = 'const count = ‸;\n';
const BODY = 'function sum(a, b) {\n  ‸\n}\n';

const ROWS: Row[] = [
  { name: 'a plain answer', file: STATEMENT, raw: 'items.length', expected: 'items.length' },
  { name: 'a fence', file: STATEMENT, raw: '```\nitems.length\n```', expected: 'items.length' },
  { name: 'a fence with a language', file: STATEMENT, raw: '```typescript\nitems.length\n```\n', expected: 'items.length' },
  { name: 'a tilde fence', file: STATEMENT, raw: '~~~ts\nitems.length\n~~~', expected: 'items.length' },
  { name: 'a fence the answer never closed (cut off)', file: STATEMENT, raw: '```js\nitems.length', expected: 'items.length' },
  { name: 'prose before a fence', file: STATEMENT, raw: 'Here is the completion:\n```ts\nitems.length\n```', expected: 'items.length' },
  { name: 'a label before a fence', file: STATEMENT, raw: 'Inserted at the cursor:\n\n```ts\nitems.length\n```', expected: 'items.length' },
  { name: 'prose after a fence', file: STATEMENT, raw: '```ts\nitems.length\n```\nThis counts the items.', expected: 'items.length' },
  { name: 'a closing fence after unfenced code, then prose', file: BODY, raw: 'return a + b;\n```\nThis adds them.', expected: 'return a + b;' },
  { name: 'prose before the code, no fence', file: STATEMENT, raw: "Sure! Here's the code:\nitems.length", expected: 'items.length' },
  { name: 'a prose line, a blank line, then the code', file: BODY, raw: 'Here is the rest of the function:\n\nreturn a + b;', expected: 'return a + b;' },
  { name: 'prose and nothing else', file: STATEMENT, raw: 'Here is the completion:', expected: undefined },
  { name: 'a YAML key is code, not prose', file: 'build:\n  ‸\n', raw: 'output: dist', expected: 'output: dist' },
  { name: 'the line before the cursor echoed', file: 'function sum(a, b) {\n  return ‸\n}\n', raw: 'return a + b;', expected: 'a + b;' },
  { name: 'the line before the cursor echoed with its indentation', file: 'function sum(a, b) {\n  return ‸\n}\n', raw: '  return a + b;', expected: 'a + b;' },
  { name: 'the previous line echoed on a line of its own', file: BODY, raw: 'function sum(a, b) {\n  return a + b;\n}', expected: 'return a + b;' },
  { name: 'the rest of the line repeated', file: 'console.log(‸);\n', raw: "'ready');", expected: "'ready'" },
  { name: 'the whole line echoed, before and after the cursor', file: '  console.log(‸);\n', raw: "  console.log('ready');", expected: "'ready'" },
  { name: 'a closing bracket the file already has', file: 'console.log(‸)\n', raw: "'ready')", expected: "'ready'" },
  { name: 'a bracket the suggestion opened is kept', file: 'wrap(‸)\n', raw: 'inner()', expected: 'inner()' },
  { name: 'a semicolon the line already ends with', file: STATEMENT, raw: 'items.length;', expected: 'items.length' },
  { name: 'only the text after the cursor', file: 'wrap(‸)\n', raw: ')', expected: undefined },
  { name: 'lines after the cursor repeated at the end', file: 'function f() {\n  ‸\n  return x;\n}\n', raw: 'const x = 1;\n  return x;\n}', expected: 'const x = 1;' },
  { name: 'a re-indented first line', file: 'function f() {\n    ‸\n}\n', raw: '    const x = 1;\n    return x;', expected: 'const x = 1;\n    return x;', indentUnit: '    ' },
  { name: 'a block placed too far left', file: 'class A {\n  m() {\n    ‸\n  }\n}\n', raw: '  const a = 1;\n  return a;', expected: 'const a = 1;\n    return a;' },
  { name: 'several lines where one is wanted', file: 'if (‸) {\n', raw: 'ready\n  && !busy', expected: 'ready' },
  { name: 'the single line starts on a new line', file: STATEMENT, raw: '\nitems.length', expected: 'items.length' },
  { name: 'the block ends where a line dedents', file: BODY, raw: 'const s = a + b;\n  return s;\n}\n\nfunction g() {\n  return 2;\n}', expected: 'const s = a + b;\n  return s;' },
  { name: 'a run of blank lines ends the block', file: BODY, raw: 'log(a);\n  log(b);\n\n\n  log(c);', expected: 'log(a);\n  log(b);' },
  { name: 'one blank line inside the block is kept', file: BODY, raw: 'log(a);\n\n  log(b);', expected: 'log(a);\n\n  log(b);' },
  { name: 'after an opener: the body and its closing line', file: 'function f() {‸', raw: '\n  return 1;\n}\n\nf();', expected: '\n  return 1;\n}' },
  { name: 'after an opener: the body began without a line break', file: 'function f() {‸', raw: '  return 1;\n}', expected: '\n  return 1;\n}' },
  { name: 'after an opener: the closing line the file already has', file: 'function f() {‸\n}\n', raw: '\n  return 1;\n}', expected: '\n  return 1;' },
  { name: 'a Python block opener without a fence is code, not prose', file: 'def show(items):\n    ‸\n', raw: 'for item in items:\n    print(item)', expected: 'for item in items:\n        print(item)', indentUnit: '    ' },
  { name: 'an else: line without a fence is code too', file: 'if ready:\n    go()\n‸\n', raw: 'else:\n    wait()', expected: 'else:\n    wait()', indentUnit: '    ' },
  { name: 'a label before a fence is still taken off', file: 'def show(items):\n    ‸\n', raw: 'The loop:\n```python\nfor item in items:\n    print(item)\n```', expected: 'for item in items:\n        print(item)', indentUnit: '    ' },
  { name: 'after a Python opener: the body, not the code after it', file: 'def area(r):‸\n', raw: '\n    return 3.14 * r * r\n\nprint(area(2))', expected: '\n    return 3.14 * r * r', indentUnit: '    ' },
  { name: 'an empty answer', file: STATEMENT, raw: '', expected: undefined },
  { name: 'a whitespace answer', file: BODY, raw: '  \n\n\t \n', expected: undefined },
  { name: 'an empty fence', file: STATEMENT, raw: '```\n```', expected: undefined },
  { name: 'CRLF in the answer, LF in the file', file: STATEMENT, raw: '```ts\r\nitems.length\r\n```\r\n', expected: 'items.length' },
  { name: 'a CRLF file gets CRLF', file: 'function f() {\r\n  ‸\r\n}\r\n', raw: 'const x = 1;\n  return x;', expected: 'const x = 1;\r\n  return x;' },
  { name: 'spaces in a file indented with tabs', file: 'function f() {\n\t‸\n}\n', raw: '    const x = 1;\n    if (x) {\n        return x;\n    }', expected: 'const x = 1;\n\tif (x) {\n\t\treturn x;\n\t}', indentUnit: '\t' },
  { name: 'tabs in a file indented with spaces', file: 'if (ok) {\n  ‸\n}\n', raw: '\tstart();\n\tstop();', expected: 'start();\n  stop();' },
  { name: 'trailing whitespace', file: STATEMENT, raw: 'items.length   \n', expected: 'items.length' },
  { name: 'trailing whitespace on every line', file: BODY, raw: 'log(a);  \n  log(b);\t\n', expected: 'log(a);\n  log(b);' },
];

describe('suggestions: cleaning a model\'s answer', () => {
  for (const row of ROWS) {
    it(row.name, () => {
      assert.equal(cleanSuggestion(row.raw, contextAt(row.file, row.indentUnit)), row.expected);
    });
  }
});
