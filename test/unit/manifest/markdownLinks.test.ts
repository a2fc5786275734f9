import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../harness/paths';

/** Folders of build output, dependencies and results: not the repository's own pages. */
const SKIPPED = new Set(['node_modules', 'out', 'dist', '.git', 'test-results', '.vscode-test']);

function markdownFiles(dir = REPO_ROOT): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : markdownFiles(path.join(dir, entry.name));
    return entry.isFile() && entry.name.endsWith('.md') ? [path.join(dir, entry.name)] : [];
  });
}

/** The text outside fenced code blocks. */
function withoutFences(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The text outside fenced code blocks and inline code, where a link is a link. */
function prose(text: string): string {
  return withoutFences(text).replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchors for a page's headings: lower case, punctuation but hyphens dropped, spaces as hyphens, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, heading] of withoutFences(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading.replace(/<[^>]+>/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count ? `${base}-${count}` : base);
  }
  return found;
}

/** Every relative link and anchor in every Markdown page of the repository resolves (issue 36: docs drift). */
describe('links in every .md of the repository', () => {
  const pages = markdownFiles();

  it('finds the pages', () => {
    for (const page of ['README.md', 'src/README.md', 'test/README.md']) assert.ok(pages.includes(path.join(REPO_ROOT, page)), page);
  });

  it('resolves each relative link to a file, and each anchor to a heading of its page', () => {
    const broken: string[] = [];
    for (const page of pages) {
      const text = fs.readFileSync(page, 'utf8');
      for (const [, target] of prose(text).matchAll(/!?\[[^\]]*\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const resolved = file ? path.resolve(path.dirname(page), decodeURIComponent(file)) : page;
        const where = `${path.relative(REPO_ROOT, page)}: ${target}`;
        if (!fs.existsSync(resolved)) {
          broken.push(`${where} (no such file)`);
          continue;
        }
        if (anchor && resolved.endsWith('.md') && !anchors(fs.readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor))) broken.push(`${where} (no such heading)`);
      }
    }
    assert.deepEqual(broken, []);
  });
});
