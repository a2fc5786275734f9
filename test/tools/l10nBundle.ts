import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../harness/paths';

/** The English runtime-string bundle translators start from (the format of `@vscode/l10n-dev export`). */
export const BUNDLE_FILE = path.join(REPO_ROOT, 'media', 'l10n', 'bundle.l10n.json');

const CALL = /\bl10n\.t\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;

function unescape(literal: string): string {
  return literal.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|.)/g, (_, escape: string) => {
    if (escape.startsWith('u')) return String.fromCodePoint(parseInt(escape.replace(/[u{}]/g, ''), 16));
    return ({ n: '\n', t: '\t', r: '\r' } as Record<string, string>)[escape] ?? escape;
  });
}

/** Every string literal passed to `vscode.l10n.t` under src/, keyed by itself, sorted. */
export function extractRuntimeStrings(root = path.join(REPO_ROOT, 'src')): Record<string, string> {
  const found = new Set<string>();
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const text = fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    for (const match of text.matchAll(CALL)) {
      if (match[1] === '`' && match[2].includes('${')) throw new Error(`${entry.name}: l10n.t with a template placeholder; use {0} arguments: ${match[0]}`);
      found.add(unescape(match[2]));
    }
  }
  return Object.fromEntries([...found].sort().map((message) => [message, message]));
}

/** `npm run l10n` rewrites the bundle from the sources. */
if (require.main === module) {
  const bundle = extractRuntimeStrings();
  fs.mkdirSync(path.dirname(BUNDLE_FILE), { recursive: true });
  fs.writeFileSync(BUNDLE_FILE, `${JSON.stringify(bundle, null, 2)}\n`);
  console.log(`${path.relative(REPO_ROOT, BUNDLE_FILE)}: ${Object.keys(bundle).length} strings`);
}
