import type { MarkdownIt } from 'markdown-it';

/** Markdown whose block structure a later line can change: every streaming renderer must match its one-shot render. */
export const TRICKY_MARKDOWN = [
  '> quote\n-- more lazy text\n\nafter',
  'Title\n-----\n\ntext',
  'para\n- item\n\n  continued\n- second\n\n1. one\n\n2. two\n\nend',
  '| a | b |\n|:--|--:|\n| 1 | 2 |\n\nafter table',
  '```ts\nconst a = 1;\n```\n```\nplain\n```\ntext right after',
  '~~~~python\nprint("x")\n~~~\n~~~~\n\nafter',
  '    indented code\n\n    more\n\npara',
  'line one\r\nline two\r\n\r\n- a\r\n- b\r\n',
  '- a\n- b\n- c\n\n- d turns the list loose\n- e\n\nafter',
  '- tight\n- list\n* other marker\n* list\n\n3) ordered\n4) start\n\ntext',
  '- item with code:\n\n  ```js\n  let x = 1;\n  ```\n- next\n',
  '1. one\n2. two\n   - nested\n   - more\n3. three\n---\nafter hr',
  '| h | i |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n- list ends the table\n- b',
  '| h |\n|---|\n| only |\n',
  '| h |\n|---|\ntext without pipe\n\n| h |\n|---|',
  '```ts\nconst t = `multi\nline ${1}`;\n/* comment\n spanning */\nlet y = 2;\n```\nafter',
  '```python\ndef f():\n    """doc\n    string"""\n    return 1\n',
  '```\nunclosed with crlf\r\nline\r\n',
  '````md\n```\nnested fence text\n```\n````\n',
  '- a\n\n  para in a\n- b',
  '- a\n-\n- c\n',
  '```ts\nconst a = 1;\n ',
  '```ts\nconst a = 1;\n \n',
];

/** Runs `run` and returns it with the number of characters markdown-it parsed meanwhile. */
export function countingParsedChars<T>(md: MarkdownIt, run: () => T): { result: T; parsedChars: number } {
  let parsedChars = 0;
  const original = md.parse.bind(md);
  md.parse = (src, env) => {
    parsedChars += src.length;
    return original(src, env);
  };
  try {
    return { result: run(), parsedChars };
  } finally {
    md.parse = original;
  }
}
