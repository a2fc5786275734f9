import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUNDLE_FILE, extractRuntimeStrings } from '../../tools/l10nBundle';
import { REPO_ROOT } from '../../harness/paths';

const read = (file: string) => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')) as Record<string, unknown>;

/** Every `%key%` string anywhere in the manifest. */
function placeholders(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') {
    const match = /^%(.+)%$/.exec(value);
    if (match) found.push(match[1]);
  } else if (Array.isArray(value)) {
    for (const item of value) placeholders(item, found);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) placeholders(item, found);
  }
  return found;
}

/**
 * The local endpoint's messages are HTTP response bodies for other programs (with a machine-readable
 * code beside them), like the service's own errors: protocol text, kept in English.
 */
const CORE_PROTOCOL_DIRS = ['src/core/localEndpoint/'];

/**
 * A quoted or template literal where the core builds text a user reads: an ApiError's or Error's
 * message, a `message`/`problem`/`reason`/`note`/`text`/`title`/`label` field, a link warning, or the
 * sentence handed to a message-building helper. Empty strings are not text.
 */
const LITERAL_MESSAGE = new RegExp('(?:' + [
  String.raw`new ApiError\(\s*'\w+',\s*`,
  String.raw`new Error\(\s*`,
  String.raw`\b(?:message|problem|reason|note|text|title|label):\s*`,
  String.raw`\b(?:warnings\.push|malformed|fail|refuse)\(\s*`,
  String.raw`\breturn\s+(?=['"\x60][A-Z][a-z]+ )`,
].join('|') + String.raw`)(['"\x60])(?!\1)`);

/** `file:line: text` of every code line (comments aside) of the .ts files under `dir` that matches `pattern`. */
function linesMatching(dir: string, pattern: RegExp, skipFile: (file: string) => boolean = () => false): string[] {
  const offenders: string[] = [];
  for (const entry of fs.readdirSync(path.join(REPO_ROOT, dir), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = path.relative(REPO_ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (skipFile(file)) continue;
    fs.readFileSync(path.join(REPO_ROOT, file), 'utf8').split('\n').forEach((line, index) => {
      if (!/^\s*(\*|\/\/)/.test(line) && pattern.test(line)) offenders.push(`${file}:${index + 1}: ${line.trim()}`);
    });
  }
  return offenders;
}

describe('localization', () => {
  const manifest = read('package.json');
  const nls = read('package.nls.json');

  it('every user-facing manifest string is a %key% that package.nls.json defines, and no key is unused', () => {
    const used = placeholders(manifest);
    assert.ok(used.length > 50, `${used.length} placeholders`);
    assert.deepEqual(used.filter((key) => typeof nls[key] !== 'string'), []);
    assert.deepEqual(Object.keys(nls).filter((key) => !used.includes(key)), []);
    const contributes = manifest.contributes as { commands: { title: string }[]; walkthroughs: { steps: { title: string; description: string }[] }[] };
    assert.deepEqual(contributes.commands.filter((c) => !/^%.+%$/.test(c.title)), []);
    assert.deepEqual(contributes.walkthroughs.flatMap((w) => w.steps).filter((s) => !/^%.+%$/.test(s.title) || !/^%.+%$/.test(s.description)), []);
  });

  it('the runtime bundle named by package.json holds exactly the strings the code passes to vscode.l10n.t', () => {
    assert.equal(path.join(REPO_ROOT, manifest.l10n as string, 'bundle.l10n.json'), BUNDLE_FILE);
    const bundle = JSON.parse(fs.readFileSync(BUNDLE_FILE, 'utf8')) as Record<string, string>;
    assert.deepEqual(bundle, extractRuntimeStrings(), 'regenerate with: npm run build:tests && npm run l10n');
  });

  it('the host shows no literal text: notifications, inputs and pickers go through vscode.l10n.t', () => {
    // A literal (quoted or template) as the message, title, prompt, placeholder or tooltip of a host UI
    // call; a codicon before an interpolated (already translated) text is allowed.
    const literalUi = /(?:show(?:Error|Warning|Information)Message\(|setStatusBarMessage\(|\b(?:title|prompt|placeHolder|placeholder|tooltip):\s*|\.(?:title|placeholder) = )(['"`])(?!\$\([\w-]+\) \$\{)/;
    assert.deepEqual(linesMatching('src/host', literalUi), []);
  });

  it('the webviews show no literal text: labels, buttons, placeholders and announcements go through l10n.t', () => {
    // Element text, accessible names, placeholders, action-button titles and live announcements: a
    // quoted literal that starts like a sentence, or a template (unless it only punctuates an
    // interpolated, already translated text), also as a branch of a condition.
    const literalUi = new RegExp(String.raw`(?:\btext:\s*|'aria-label':\s*|\bplaceholder(?::\s*| = )|\.title = |textContent = |announce(?:Now)?\(|actionButton\('\w+', '[\w -]+', |this\.(?:button|radio)\('\w+', (?:'[\w-]+', )?)`
      + String.raw`(?:[^,;{}]*?[?:]\s*)?(?:['"][A-Z(]|\x60(?!\$\{[^}]*\}\W*\x60))`);
    assert.deepEqual(linesMatching('src/webview', literalUi), []);
    for (const branch of ["text: assistant ? 'Assistant' : l10n.t('You')", "text: assistant ? l10n.t('Assistant') : 'You'", 'text: done ? `${n} done` : l10n.t(\'Busy\')']) {
      assert.match(branch, literalUi, 'a literal in a condition\'s branch is caught too');
    }
    assert.doesNotMatch("text: assistant ? l10n.t('Assistant') : l10n.t('You')", literalUi);
    assert.doesNotMatch('textContent = long ? `${text.slice(0, 9)}…` : text', literalUi);
  });

  it('the core builds no literal user-facing text: its messages go through l10n.t of @vscode/l10n', () => {
    const offenders = linesMatching('src/core', LITERAL_MESSAGE, (file) => CORE_PROTOCOL_DIRS.some((dir) => file.startsWith(dir)));
    assert.deepEqual(offenders, []);
  });

  it('walkthrough media and the icon exist', () => {
    const contributes = manifest.contributes as { walkthroughs: { steps: { media: Record<string, string> }[] }[] };
    for (const step of contributes.walkthroughs.flatMap((w) => w.steps)) {
      const file = step.media.markdown ?? step.media.svg ?? step.media.image;
      assert.ok(file && fs.existsSync(path.join(REPO_ROOT, file)), `missing ${file}`);
    }
    assert.ok(fs.existsSync(path.join(REPO_ROOT, manifest.icon as string)));
    assert.match(manifest.license as string, /^SEE LICENSE IN media\//);
    assert.ok(fs.existsSync(path.join(REPO_ROOT, (manifest.license as string).replace('SEE LICENSE IN ', ''))));
  });
});
