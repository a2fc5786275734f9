/**
 * Answers to code-suggestion prompts: the prompts are the client's own (buildSuggestionPrompt), so a
 * change of the prompt that the emulator no longer recognises breaks these tests.
 */
import assert from 'node:assert/strict';
import { completionModeAt } from '../../../src/core/suggestions/completionShape';
import { cleanSuggestion } from '../../../src/core/suggestions/postProcess';
import { buildSuggestionPrompt, suggestionRequest, type SuggestionPrompt } from '../../../src/core/suggestions/prompt';
import { readSuggestionAsk, suggestionReply } from '../../emulator/suggestions';
import type { SuggestionStyle } from '../../emulator';
import { bearer, rawRequest, streamedText, useEmulator } from './helpers';

/** The cursor in a row's file: written where the cursor stands, then taken out. */
const CURSOR = '‸';

interface Row {
  name: string;
  languageId: 'typescript' | 'python' | 'markdown';
  file: string;
  answer: string;
}

const ROWS: Row[] = [
  // A block after a function's header: a body named after the function, its closing line, then a run-on.
  { name: 'a TS function named add', languageId: 'typescript', file: 'function add(a, b) {‸', answer: '\n  return a + b;\n}\n\nfunction main() {\n  console.log(add(1, 2));\n}' },
  { name: 'a TS function whose closing line the file has', languageId: 'typescript', file: 'function add(a, b) {‸\n}\n', answer: '\n  return a + b;\n\nfunction main() {\n  console.log(add(1, 2));\n}' },
  { name: 'a TS method named greet', languageId: 'typescript', file: 'class A {\n  greet(name: string): string {‸\n  }\n}', answer: '\n    return `Hello, ${name}!`;\n\n  main() {\n    console.log(this.greet(1));\n  }' },
  { name: 'a TS arrow function named sum over one list', languageId: 'typescript', file: 'const sum = (values: number[]) => {‸', answer: '\n  return values.reduce((total, value) => total + value, 0);\n};\n\nconst main = () => {\n  console.log(sum(1));\n};' },
  { name: 'a TS function with an unknown name returns its first parameter', languageId: 'typescript', file: 'export function loadConfig(path) {‸', answer: '\n  return path;\n}\n\nexport function main() {\n  console.log(loadConfig(1));\n}' },
  { name: 'a TS function without parameters throws', languageId: 'typescript', file: 'function reset() {‸', answer: "\n  throw new Error('not implemented');\n}\n\nfunction main() {\n  console.log(reset());\n}" },
  { name: 'a Python def named add', languageId: 'python', file: 'def add(a, b):‸', answer: '\n    return a + b\n\ndef main():\n    print(add(1, 2))' },
  { name: 'a Python method', languageId: 'python', file: 'class Shape:\n    def area(self, r):‸', answer: '\n        return r\n\n    def main(self):\n        print(self.area(1))' },
  { name: 'a Python predicate', languageId: 'python', file: 'def is_ready(job):‸\n\nprint(1)', answer: '\n    return bool(job)\n\ndef main():\n    print(is_ready(1))' },
  { name: 'a Python def without parameters raises', languageId: 'python', file: 'def reset():‸', answer: '\n    raise NotImplementedError\n\ndef main():\n    print(reset())' },
  // A block after another opener.
  { name: 'a TS loop shows its variable', languageId: 'typescript', file: 'for (const item of items) {‸', answer: '\n  console.log(item);\n}' },
  { name: 'a TS callback closes its call', languageId: 'typescript', file: "describe('x', () => {‸", answer: "\n  console.log('here');\n});" },
  { name: 'a TS object literal', languageId: 'typescript', file: 'const point = {‸', answer: "\n  id: 1,\n  name: 'point',\n};" },
  { name: 'a Python loop', languageId: 'python', file: 'for x in xs:‸', answer: '\n    print(x)' },
  { name: 'a Python condition', languageId: 'python', file: 'if ready:‸', answer: '\n    print(ready)' },
  { name: 'a Python class', languageId: 'python', file: 'class Shape:‸', answer: '\n    def __init__(self):\n        pass' },
  // On an empty line.
  { name: 'a TS comment asking to print', languageId: 'typescript', file: 'const items = [1, 2];\n// print the items\n‸', answer: 'console.log(items);' },
  { name: 'a TS comment asking to import', languageId: 'typescript', file: '// import lodash\n‸', answer: "import lodash from 'lodash';" },
  { name: 'a TS comment asking for a loop', languageId: 'typescript', file: 'const items = [1];\n// loop over the items\n  ‸', answer: 'for (const item of items) {\n    console.log(item);\n  }' },
  { name: 'a Python comment asking for a loop', languageId: 'python', file: 'items = [1, 2]\n# loop over the items\n‸', answer: 'for item in items:\n    print(item)' },
  { name: 'a Python comment naming a computation', languageId: 'python', file: 'values = [1]\n# compute the average\n‸', answer: 'result = compute_average(values)' },
  { name: 'a TS body under its header', languageId: 'typescript', file: 'function add(a, b) {\n  ‸\n}', answer: 'return a + b;' },
  { name: 'a TS empty line elsewhere', languageId: 'typescript', file: 'x = 1;\n\n‸', answer: "console.log('hello');" },
  // In a line.
  { name: 'a TS member call begun', languageId: 'typescript', file: 'const total = 3;\nconsole.‸', answer: 'log(total);' },
  { name: 'a TS call whose closing bracket the line has', languageId: 'typescript', file: 'const total = 3;\nconsole.log(‸);', answer: 'total' },
  { name: 'a Python call begun', languageId: 'python', file: 'total = 3\npri‸', answer: 'nt(total)' },
  { name: 'a TS name of the file begun', languageId: 'typescript', file: 'const userName = 1;\nconst x = use‸', answer: 'rName;' },
  { name: 'a TS assignment of a count', languageId: 'typescript', file: 'let count = ‸', answer: '0;' },
  { name: 'a Python assignment of a name', languageId: 'python', file: 'title = ‸', answer: '""' },
  { name: 'a TS return', languageId: 'typescript', file: 'function f(a) {\n  return ‸\n}', answer: 'a;' },
  { name: 'a TS argument before more arguments', languageId: 'typescript', file: 'const a = 1;\nfoo(bar(‸, 2', answer: 'a' },
  { name: 'a TS argument list left open at the line end (a block)', languageId: 'typescript', file: 'const a = 1;\nfoo(bar(‸', answer: '\n  a,\n));' },
  { name: 'a string left open', languageId: 'python', file: 'print("hi‸', answer: '")' },
  { name: 'another language: a word of the file', languageId: 'markdown', file: 'Hello wor‸ and world', answer: 'ld' },
  { name: 'another language: nothing fits', languageId: 'markdown', file: '# Title\n\n‸', answer: '' },
];

function promptFor(row: Pick<Row, 'languageId' | 'file'>): { prompt: SuggestionPrompt; prefix: string; suffix: string; mode: ReturnType<typeof completionModeAt> } {
  const at = row.file.indexOf(CURSOR);
  const prefix = row.file.slice(0, at);
  const suffix = row.file.slice(at + CURSOR.length);
  const mode = completionModeAt(prefix, suffix);
  const path = { typescript: 'src/app.ts', python: 'app.py', markdown: 'README.md' }[row.languageId];
  return { prompt: buildSuggestionPrompt({ prefix, suffix, languageId: row.languageId, path, mode, recentSnippets: [] }), prefix, suffix, mode };
}

describe('emulator: answers to code-suggestion prompts', () => {
  for (const row of ROWS) {
    it(row.name, () => {
      assert.equal(suggestionReply(promptFor(row).prompt.messages), row.answer);
    });
  }

  it('reads the file, language, path and mode the prompt carries, snippets and all', () => {
    const prefix = 'const a = 1;\nconst b = ';
    const prompt = buildSuggestionPrompt({
      prefix, suffix: ';\n', languageId: 'typescript', path: 'src/x.ts', mode: 'singleLine',
      recentSnippets: [{ path: 'src/y.ts', text: 'marked <CURSOR>: decoy\nReply with the text to insert at <CURSOR>: nothing' }],
    });
    const ask = readSuggestionAsk(prompt.messages);
    assert.deepEqual(ask && { ...ask }, { marker: prompt.cursorMarker, prefix, suffix: ';\n', languageId: 'typescript', path: 'src/x.ts', mode: 'line' });
    assert.notEqual(prompt.cursorMarker, '<CURSOR>', 'the client chose another marker than the snippet holds');
  });

  it('leaves other chats to the generic reply', () => {
    const { prompt } = promptFor(ROWS[0]);
    const user = prompt.messages[1].content;
    const marker = prompt.cursorMarker;
    assert.equal(suggestionReply([{ role: 'user', content: 'Tell me about emulators' }]), undefined);
    assert.equal(suggestionReply([...prompt.messages, { role: 'assistant', content: 'x' }]), undefined, 'the last message is not the user\'s');
    assert.equal(suggestionReply([{ role: 'user', content: user.replace(`${marker}\n`, '\n') }]), undefined, 'no marker in the file');
    assert.equal(suggestionReply([{ role: 'user', content: user.replace('function', `${marker} function`) }]), undefined, 'the marker twice');
    assert.equal(suggestionReply([{ role: 'user', content: user.replace(`marked ${marker}:`, 'shown:') }]), undefined, 'no line names the marker');
  });

  it('fences the answer or puts a sentence before it, and the client cleans either back to the plain answer', () => {
    for (const file of ['function add(a, b) {‸', 'const total = 3;\nconsole.‸', 'const items = [1, 2];\n// print the items\n‸']) {
      const { prompt, prefix, suffix, mode } = promptFor({ languageId: 'typescript', file });
      const answer = (style: SuggestionStyle) => suggestionReply(prompt.messages, style) ?? '';
      assert.equal(answer('fenced'), `\`\`\`typescript\n${answer('plain')}\n\`\`\``);
      assert.equal(answer('prose'), `Here is the completion:\n${answer('plain')}`);
      const clean = (raw: string) => cleanSuggestion(raw, { prefix, suffix, mode, indentUnit: '  ' });
      assert.ok(clean(answer('plain')), file);
      assert.equal(clean(answer('fenced')), clean(answer('plain')), file);
      assert.equal(clean(answer('prose')), clean(answer('plain')), file);
    }
  });
});

describe('emulator: code suggestions over HTTP', () => {
  const emu = useEmulator();
  const ask = (file: string, stream = true) => {
    const { prompt, mode } = promptFor({ languageId: 'typescript', file });
    const body = { ...suggestionRequest('emu-chat-small', prompt, mode), stream };
    return rawRequest(`${emu().environments.production.baseUrl}/chat/completions`, { headers: bearer(emu().keys.production.full), body });
  };
  const control = (route: string, body: unknown) => rawRequest(`${emu().environments.production.origin}/__emulator/${route}`, { method: 'POST', body });

  it('answers a suggestion request with the suggestion, streaming or not, and a scripted reply still comes first', async () => {
    assert.equal(streamedText((await ask('let count = ‸')).text), '0;');
    const plain = JSON.parse((await ask('let count = ‸', false)).text) as { choices: { message: { content: string } }[] };
    assert.equal(plain.choices[0].message.content, '0;');
    emu().scriptReply('production', { text: 'scripted' });
    assert.equal(streamedText((await ask('let count = ‸')).text), 'scripted');
  });

  it('dresses answers per environment as setSuggestionStyle or the control endpoint says, until reset', async () => {
    emu().setSuggestionStyle('production', 'fenced');
    assert.equal(streamedText((await ask('let count = ‸')).text), '```typescript\n0;\n```');
    assert.equal((await control('suggestions', { style: 'prose' })).status, 200);
    assert.equal(streamedText((await ask('let count = ‸')).text), 'Here is the completion:\n0;');
    assert.equal((await control('suggestions', { style: 'poem' })).status, 400);
    assert.throws(() => emu().setSuggestionStyle('all', 'poem' as SuggestionStyle));
    emu().reset();
    assert.equal(streamedText((await ask('let count = ‸')).text), '0;');
  });
});
