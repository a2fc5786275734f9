import assert from 'node:assert/strict';
import {
  buildSuggestionPrompt, chooseMarker, DEFAULT_PROMPT_LIMITS, MIN_SNIPPET_CHARS, type PromptLimits, type SuggestionPromptInput,
  suggestionRequest, SUGGESTION_MAX_TOKENS, SUGGESTION_SYSTEM_PROMPT,
} from '../../../src/core/suggestions/prompt';

const lines = (count: number, label: string) => Array.from({ length: count }, (_, index) => `${label} line ${index};`).join('\n');

function input(overrides: Partial<SuggestionPromptInput> = {}): SuggestionPromptInput {
  return {
    prefix: `${lines(400, 'before')}\nconst x = `,
    suffix: `;\n${lines(400, 'after')}`,
    languageId: 'typescript',
    path: 'src/app.ts',
    mode: 'singleLine',
    recentSnippets: [
      { path: 'src/util.ts', text: lines(100, 'util') },
      { path: 'src/other.ts', text: lines(100, 'other') },
    ],
    ...overrides,
  };
}

function userMessage(prompt: ReturnType<typeof buildSuggestionPrompt>): string {
  return prompt.messages[1].content;
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('suggestions: the prompt for one suggestion', () => {
  it('asks, in a system message, for the inserted text only', () => {
    const prompt = buildSuggestionPrompt(input());
    assert.deepEqual(prompt.messages.map((message) => message.role), ['system', 'user']);
    assert.equal(prompt.messages[0].content, SUGGESTION_SYSTEM_PROMPT);
    for (const asked of ['only the text to insert', 'no code fences', 'no explanations', 'no repetition of the text before or after the cursor']) {
      assert.ok(SUGGESTION_SYSTEM_PROMPT.includes(asked), asked);
    }
  });

  it('names the file\'s workspace-relative path and language, and whether a line or a block is wanted', () => {
    const line = userMessage(buildSuggestionPrompt(input()));
    assert.ok(line.includes('File: src/app.ts') && line.includes('Language: typescript'));
    assert.ok(line.includes('the rest of the current line only'));
    const block = userMessage(buildSuggestionPrompt(input({ mode: 'multiLine' })));
    assert.ok(block.includes('the lines that complete the current block') && !block.includes('the rest of the current line only'));
  });

  it('keeps the user message within the budget, to the character', () => {
    for (const totalChars of [300, 1_000, 2_345, 8_000, 20_000]) {
      const limits = { ...DEFAULT_PROMPT_LIMITS, totalChars };
      assert.ok(userMessage(buildSuggestionPrompt(input(), limits)).length <= totalChars, String(totalChars));
    }
    // Text without line breaks is cut anywhere, so the budget is used to its last character.
    const long = (char: string) => char.repeat(20_000);
    const unbroken = input({ prefix: long('p'), suffix: long('s'), recentSnippets: [{ path: 'a.ts', text: long('a') }] });
    const limits: PromptLimits = { totalChars: 2_000, maxPrefixChars: 800, maxSuffixChars: 400, maxSnippets: 3, maxSnippetChars: 5_000 };
    const prompt = buildSuggestionPrompt(unbroken, limits);
    assert.equal(userMessage(prompt).length, 2_000);
    assert.equal(prompt.prefixWindow.length, 800);
    assert.equal(prompt.suffixWindow.length, 400);
  });

  it('shares the budget in order: the text before the cursor, then after it, then snippets', () => {
    const long = (char: string) => char.repeat(5_000);
    const base = input({ prefix: long('p'), suffix: long('s'), recentSnippets: [{ path: 'a.ts', text: long('a') }] });
    const fixed = userMessage(buildSuggestionPrompt(base, { ...DEFAULT_PROMPT_LIMITS, totalChars: 0 })).length;
    const share = (extra: number) => buildSuggestionPrompt(base, { totalChars: fixed + extra, maxPrefixChars: 400, maxSuffixChars: 300, maxSnippets: 3, maxSnippetChars: 1_000 });
    const small = share(250);
    assert.deepEqual([small.prefixWindow.length, small.suffixWindow.length, small.snippets.length], [250, 0, 0]);
    const middle = share(600);
    assert.deepEqual([middle.prefixWindow.length, middle.suffixWindow.length, middle.snippets.length], [400, 200, 0]);
    const large = share(2_000);
    assert.deepEqual([large.prefixWindow.length, large.suffixWindow.length], [400, 300]);
    assert.equal(large.snippets.length, 1);
    assert.ok(large.snippets[0].text.length >= MIN_SNIPPET_CHARS);
  });

  it('takes the text nearest the cursor, cut at line boundaries', () => {
    const prompt = buildSuggestionPrompt(input(), { ...DEFAULT_PROMPT_LIMITS, maxPrefixChars: 500, maxSuffixChars: 300 });
    assert.ok(input().prefix.endsWith(prompt.prefixWindow) && prompt.prefixWindow.length <= 500);
    assert.ok(prompt.prefixWindow.startsWith('before line '), 'the window starts at a line start');
    assert.ok(input().suffix.startsWith(prompt.suffixWindow) && prompt.suffixWindow.length <= 300);
    assert.ok(prompt.suffixWindow.endsWith(';') && !prompt.suffixWindow.endsWith('\n'), 'the window ends at a line end');
    assert.ok(userMessage(prompt).includes(`${prompt.prefixWindow}${prompt.cursorMarker}${prompt.suffixWindow}`));
  });

  it('marks the cursor with a token the file does not hold, so that it stands there once', () => {
    const plain = buildSuggestionPrompt(input());
    assert.equal(plain.cursorMarker, '<CURSOR>');
    const tricky = input({ prefix: 'const marker = "<CURSOR>";\nx = ', suffix: ' // <|cursor|>\n', recentSnippets: [{ path: 'b.ts', text: '<<<CURSOR>>>' }] });
    const prompt = buildSuggestionPrompt(tricky);
    assert.equal(prompt.cursorMarker, '⟦CURSOR⟧');
    const fileText = `${prompt.prefixWindow}${prompt.cursorMarker}${prompt.suffixWindow}`;
    assert.equal(occurrences(fileText, prompt.cursorMarker), 1);
    assert.equal(chooseMarker(['<CURSOR> <|cursor|> <<<CURSOR>>> ⟦CURSOR⟧ <CURSOR_1>']), '<CURSOR_2>');
  });

  it('leaves out the file\'s own snippet, a second one of a file, empty ones, and those past the count', () => {
    const prompt = buildSuggestionPrompt(input({
      recentSnippets: [
        { path: 'src/app.ts', text: 'own();' },
        { path: '.\\src\\app.ts', text: 'own again();' },
        { path: 'src/a.ts', text: 'a();' },
        { path: 'src/a.ts', text: 'older a();' },
        { path: 'src/blank.ts', text: '  \n ' },
        { path: 'src/b.ts', text: 'b();' },
        { path: 'src/c.ts', text: 'c();' },
        { path: 'src/d.ts', text: 'd();' },
      ],
    }));
    assert.deepEqual(prompt.snippets, [{ path: 'src/a.ts', text: 'a();' }, { path: 'src/b.ts', text: 'b();' }, { path: 'src/c.ts', text: 'c();' }]);
    const message = userMessage(prompt);
    assert.ok(!message.includes('own') && message.includes('--- src/a.ts ---\na();'));
  });

  it('cuts each snippet to its size at a line boundary, keeping its start', () => {
    const prompt = buildSuggestionPrompt(input(), { ...DEFAULT_PROMPT_LIMITS, maxSnippetChars: 100 });
    for (const snippet of prompt.snippets) {
      assert.ok(snippet.text.length <= 100 && snippet.text.endsWith(';'), snippet.text);
      assert.ok(input().recentSnippets.some((recent) => recent.text.startsWith(snippet.text)));
    }
    assert.equal(prompt.snippets.length, 2);
  });

  it('makes the chat request: the messages, no randomness, tokens bounded by the mode', () => {
    const prompt = buildSuggestionPrompt(input());
    assert.deepEqual(suggestionRequest('m', prompt, 'multiLine'), { model: 'm', messages: prompt.messages, temperature: 0, max_tokens: SUGGESTION_MAX_TOKENS.multiLine });
  });
});
