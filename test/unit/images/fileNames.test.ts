import assert from 'node:assert/strict';
import { candidateFileNames, extensionForMimeType, FALLBACK_NAME, fileNameFromPrompt, MAX_NAME_CHARS, sidecarName } from '../../../src/core/images/fileNames';

// eslint-disable-next-line no-control-regex -- control characters are what the check looks for
const NOT_PORTABLE = /[<>:"/\\|?*\u0000-\u001f\u007f]/;

/** What Windows, macOS and Linux all accept as one path segment. */
function assertPortableName(name: string): void {
  assert.doesNotMatch(name, NOT_PORTABLE, `bad character in ${JSON.stringify(name)}`);
  assert.doesNotMatch(name, /[. ]$/, `trailing dot or space in ${JSON.stringify(name)}`);
  assert.doesNotMatch(name, /^\./, `hidden name ${JSON.stringify(name)}`);
  assert.doesNotMatch(name, /^(con|prn|aux|nul|com\d|lpt\d)$/i, `reserved name ${JSON.stringify(name)}`);
  assert.ok(name.length > 0);
  assert.ok(Buffer.byteLength(`${name}-999.png.json`) <= 255, `too long: ${name}`);
}

describe('fileNameFromPrompt', () => {
  it('turns a prompt into lower-case words joined by hyphens', () => {
    assert.equal(fileNameFromPrompt('A red Fox, jumping over the moon!'), 'a-red-fox-jumping-over-the-moon');
  });

  it('removes path separators and parent references, so a prompt cannot name a path', () => {
    for (const prompt of ['../../etc/passwd', '..\\..\\Windows\\System32\\drivers', '/abs/path', 'C:\\temp\\x', '~/.ssh/id_rsa', '\\\\server\\share']) {
      const name = fileNameFromPrompt(prompt);
      assertPortableName(name);
      assert.ok(!name.includes('..'), name);
    }
    assert.equal(fileNameFromPrompt('../../etc/passwd'), 'etc-passwd');
  });

  it('drops control characters and characters Windows forbids', () => {
    const name = fileNameFromPrompt('tab\there\nnew<line>: "quoted" | pipe? star* \u0000nul \u007fdel');
    assertPortableName(name);
    assert.equal(name, 'tab-here-new-line-quoted-pipe-star-nul-del');
  });

  it('renames Windows device names in any case', () => {
    for (const reserved of ['CON', 'nul', 'Com1', 'LPT9', 'aux', 'prn', 'com²']) {
      const name = fileNameFromPrompt(reserved);
      assertPortableName(name);
      assert.notEqual(name.toLowerCase(), reserved.toLowerCase());
    }
    assert.equal(fileNameFromPrompt('con'), `con-${FALLBACK_NAME}`);
    assert.equal(fileNameFromPrompt('console'), 'console', 'only the exact device names are reserved');
  });

  it('never ends in a dot, space or hyphen, and never starts with a dot', () => {
    for (const prompt of ['trailing dots...', 'trailing spaces   ', '.hidden', '...', ' - - ']) assertPortableName(fileNameFromPrompt(prompt));
  });

  it('falls back to a fixed name when nothing usable is left', () => {
    for (const prompt of ['', '   ', '!!!', '///', '🙂🙂', '\u0000\u0001']) assert.equal(fileNameFromPrompt(prompt), FALLBACK_NAME, JSON.stringify(prompt));
  });

  it('keeps letters of every script and cuts long prompts by code points', () => {
    assert.equal(fileNameFromPrompt('Café au lait 漢字 über'), 'café-au-lait-漢字-über');
    const long = fileNameFromPrompt('𝒜'.repeat(200));
    assert.equal(Array.from(long).length, MAX_NAME_CHARS);
    assert.ok(!/[\uD800-\uDBFF]$/.test(long), 'no lone high surrogate at the cut');
    assertPortableName(fileNameFromPrompt('word '.repeat(100)));
    assert.doesNotMatch(fileNameFromPrompt('word '.repeat(100)), /-$/);
  });

  it('normalises compatibility forms, so full-width separators do not survive', () => {
    const name = fileNameFromPrompt('ａｂｃ／．．／ｄｅｆ');
    assert.equal(name, 'abc-def');
  });
});

describe('candidate names and extensions', () => {
  it('numbers collisions from 2, then falls back to random suffixes', () => {
    const names = candidateFileNames('fox', 'png', () => 'r4nd');
    const first = Array.from({ length: 1000 }, () => names.next().value);
    assert.deepEqual(first.slice(0, 3), ['fox.png', 'fox-2.png', 'fox-3.png']);
    assert.equal(first[998], 'fox-999.png');
    assert.equal(first[999], 'fox-r4nd.png');
    assert.equal(new Set(first).size, first.length, 'no name is offered twice');
  });

  it('maps image types to extensions and unknown types to bin', () => {
    assert.equal(extensionForMimeType('image/png'), 'png');
    assert.equal(extensionForMimeType('IMAGE/JPEG'), 'jpg');
    assert.equal(extensionForMimeType('image/webp'), 'webp');
    assert.equal(extensionForMimeType('application/octet-stream'), 'bin');
    assert.equal(sidecarName('fox-2.png'), 'fox-2.png.json');
  });
});
