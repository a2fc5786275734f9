import * as assert from 'node:assert/strict';
import {
  binaryRefusal, capRefusal, changesText, fileSizeRefusal, isBinary, maxBytesWithinCap, outsideWorkspaceRefusal, problemCount, problemsText,
  terminalCommandText, terminalPlainText,
} from '../../../../src/core/chat/mentions/mentionText';
import { formatChars } from '../../../../src/core/chat/mentions/sizes';
import { userContent } from '../../../../src/core/chat/conversation';

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('mentions: what a mention sends, and what refuses one', () => {
  it('takes UTF-8 text as text, and a NUL byte early or invalid UTF-8 as binary', () => {
    assert.equal(isBinary(utf8('const x = "héllo ✓ 𝄞";\n')), false);
    assert.equal(isBinary(new Uint8Array()), false);
    assert.equal(isBinary(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d])), true, 'a PNG header');
    assert.equal(isBinary(utf8('text\u0000more')), true);
    assert.equal(isBinary(new Uint8Array([0x63, 0x61, 0x66, 0xe9])), true, 'Latin-1 "café" is not UTF-8');
  });

  it('formats sizes as a chip shows them', () => {
    assert.deepEqual([0, 812, 1000, 12_345, 200_000, 1_500_000].map(formatChars), ['0 chars', '812 chars', '1K chars', '12.3K chars', '200K chars', '1.5M chars']);
  });

  it('refuses content over the cap, naming the size, the cap and the setting; content at the cap passes', () => {
    assert.equal(capRefusal('a.ts', 200_000, 200_000), undefined);
    assert.equal(capRefusal('big.log', 250_000, 200_000), 'big.log has 250K chars, over the context cap of 200K chars (setting inference.chat.maxContextCharacters). Select a part instead, or raise the cap.');
  });

  it('refuses a file from its size on disk only when it cannot fit (three bytes per character at most)', () => {
    assert.equal(maxBytesWithinCap(1000), 3000);
    assert.equal(fileSizeRefusal('x.txt', 3000, 1000), undefined, 'it may still fit: it is read and counted');
    assert.match(fileSizeRefusal('x.bin', 5 * 1024 * 1024, 200_000) ?? '', /^x\.bin is 5 MiB, over the context cap of 200K chars/);
  });

  it('says why a binary file or a link out of the workspace is refused', () => {
    assert.equal(binaryRefusal('logo.png'), 'logo.png is a binary file: only text can be attached.');
    assert.match(outsideWorkspaceRefusal('secrets.txt'), /^secrets\.txt resolves to a path outside the workspace/);
  });

  it('writes problems one per line, by file, errors first, with position, code and source', () => {
    const files = [
      { path: 'src/a.ts', problems: [
        { severity: 'warning' as const, line: 9, column: 1, message: "'x' is declared but never used.", source: 'ts', code: '6133' },
        { severity: 'error' as const, line: 3, column: 5, message: "Type 'string' is not assignable\n  to type 'number'.", source: 'ts', code: '2322' },
      ] },
      { path: 'README.md', problems: [{ severity: 'information' as const, line: 1, column: 1, message: 'Spelling' }] },
    ];
    assert.equal(problemsText(files), [
      "src/a.ts:3:5 error 2322: Type 'string' is not assignable to type 'number'. (ts)",
      "src/a.ts:9:1 warning 6133: 'x' is declared but never used. (ts)",
      'README.md:1:1 information: Spelling',
    ].join('\n'));
    assert.equal(problemCount(files), 3);
  });

  it('writes changes as the staged and unstaged diffs and the untracked files, naming the repository only when there are several', () => {
    const one = changesText([{ root: 'ws', staged: '', unstaged: 'diff --git a/a b/a\n-x\n+y\n', untracked: ['new.ts'] }]);
    assert.equal(one, '# Unstaged changes\ndiff --git a/a b/a\n-x\n+y\n\n# Untracked files\nnew.ts');
    const two = changesText([{ root: 'app', staged: 'S', unstaged: '', untracked: [] }, { root: 'lib', staged: '', unstaged: 'U', untracked: [] }]);
    assert.equal(two, '# Staged changes (app)\nS\n\n# Unstaged changes (lib)\nU');
    assert.equal(changesText([{ root: 'ws', staged: ' \n', unstaged: '', untracked: [] }]), '', 'no changes: nothing to send');
  });

  it("turns a terminal's output into plain text: no escape sequences, progress redraws collapsed", () => {
    const raw = '\u001b]633;C\u0007\u001b[32mPASS\u001b[0m test/a.ts\r\nDownloading 10%\rDownloading 100%\r\n\u001b[1;31merror\u001b[0m: boom\r\n';
    assert.equal(terminalPlainText(raw), 'PASS test/a.ts\nDownloading 100%\nerror: boom');
    assert.equal(terminalCommandText({ commandLine: 'true', output: '\u001b]633;D;0\u0007', exitCode: 0 }), '$ true\n(no output captured)\n(exit code 0)');
    assert.equal(terminalPlainText('\u001b[?2004l\rmention-42\r\r\n\u001b]633;D;0\u0007'), 'mention-42', 'a carriage return before the line end (as bash writes it) keeps the line');
    assert.equal(terminalCommandText({ commandLine: 'npm test', output: raw, exitCode: 1 }), '$ npm test\nPASS test/a.ts\nDownloading 100%\nerror: boom\n(exit code 1)');
  });

  it('sends each kind of context under its own heading, diffs fenced as diff', () => {
    const text = userContent({
      id: 'm', role: 'user', text: 'Why?', createdAt: 0, attachments: [
        { id: '1', kind: 'problems', label: 'Problems: a.ts (1)', detail: 'src/a.ts', content: 'src/a.ts:1:1 error: x' },
        { id: '2', kind: 'changes', label: 'Changes', detail: 'ws', content: '# Unstaged changes\n-a\n+b', languageId: 'diff' },
        { id: '3', kind: 'terminal', label: 'bash: last command', detail: 'bash (last command: make)', content: '$ make\nok' },
      ],
    });
    assert.equal(text, [
      'Problems (diagnostics) in src/a.ts:\n```\nsrc/a.ts:1:1 error: x\n```',
      'Working tree changes (git diff) in ws:\n```diff\n# Unstaged changes\n-a\n+b\n```',
      'Terminal bash (last command: make):\n```\n$ make\nok\n```',
      'Why?',
    ].join('\n\n'));
  });
});
