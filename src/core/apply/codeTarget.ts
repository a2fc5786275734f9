/**
 * Which file a code block from an answer names, if any. Kept to what models commonly write, so that
 * a comment or an info string that merely mentions a file is not taken for a target:
 * - the fence info string: ```ts src/x.ts, ```ts:src/x.ts, ```ts title="src/x.ts" (also file=,
 *   filename=, path=), or ```src/x.ts alone;
 * - the block's first line, when it is only a comment holding a path: `// src/x.ts`, `# x.py`,
 *   `-- q.sql`, `/* x.css *\/`, `<!-- x.html -->`, optionally as `File: src/x.ts`. That line is a
 *   label, not code: it is taken out of the code (proposal.ts puts it back when the file starts with it).
 */

export interface CodeBlock {
  code: string;
  /** The whole fence info string (language and the rest), when the block was fenced. */
  info?: string;
}

export interface BlockTarget {
  /** The path as the block wrote it (relative to the workspace, or absolute): resolved by workspacePath.ts. */
  path?: string;
  code: string;
  /** The first line that named the file, removed from `code`. */
  namingLine?: string;
}

const MAX_PATH_CHARS = 260;
const LABEL_PREFIX = String.raw`(?:(?:file(?:name)?|path)\s*:\s*)?`;
const NAMING_COMMENTS = [
  new RegExp(String.raw`^\s*(?://|#|--)\s*${LABEL_PREFIX}(\S+)\s*$`, 'i'),
  new RegExp(String.raw`^\s*/\*\s*${LABEL_PREFIX}(\S+)\s*\*/\s*$`, 'i'),
  new RegExp(String.raw`^\s*<!--\s*${LABEL_PREFIX}(\S+)\s*-->\s*$`, 'i'),
];
const INFO_ATTRIBUTE = /\b(?:title|file|filename|path)=(?:"([^"]+)"|'([^']+)'|(\S+))/i;
const LANGUAGE_AND_PATH = /^[\w+#-]+:(\S+)$/;

/**
 * A word that can only be a file path: no spaces, not a URI, not a shebang, and either a folder
 * separator or a file extension. `{1,3}` (line highlights), `TODO` or `node` are not.
 */
export function looksLikePath(word: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a path must not hold
  if (!word || word.length > MAX_PATH_CHARS || /[\s<>"|?*\u0000-\u001f]/.test(word)) return false;
  if (/^[!@{(]/.test(word) || /^[a-z][a-z0-9+.-]*:\/\//i.test(word)) return false;
  if (/^\.+$/.test(word.replace(/[\\/]/g, ''))) return false;
  return /[\\/]/.test(word) || /[^\\/.]\.[A-Za-z][A-Za-z0-9]{0,9}$/.test(word);
}

/** The path a fence info string names, if it names one. */
export function pathFromInfo(info: string | undefined): string | undefined {
  const text = info?.trim() ?? '';
  if (!text) return undefined;
  const attribute = INFO_ATTRIBUTE.exec(text);
  if (attribute) {
    const value = attribute[1] ?? attribute[2] ?? attribute[3];
    return looksLikePath(value) ? value : undefined;
  }
  const [first, second] = text.split(/\s+/);
  const joined = LANGUAGE_AND_PATH.exec(first)?.[1];
  if (joined && looksLikePath(joined)) return joined;
  if (second !== undefined) return looksLikePath(second) ? second : undefined;
  // A lone word is the language (`ts`, `c++`), unless it has a folder in it.
  return /[\\/]/.test(first) && looksLikePath(first) ? first : undefined;
}

/** The path a first-line comment names, if the line is only that. */
export function pathFromFirstLine(line: string): string | undefined {
  for (const pattern of NAMING_COMMENTS) {
    const word = pattern.exec(line)?.[1];
    if (word !== undefined) return looksLikePath(word) ? word : undefined;
  }
  return undefined;
}

/** The file a block names (its info string first, then its first line) and the code to propose. */
export function blockTarget(block: CodeBlock): BlockTarget {
  const fromInfo = pathFromInfo(block.info);
  if (fromInfo) return { path: fromInfo, code: block.code };
  const lineEnd = block.code.indexOf('\n');
  const firstLine = lineEnd < 0 ? block.code : block.code.slice(0, lineEnd);
  const fromLine = pathFromFirstLine(firstLine.replace(/\r$/, ''));
  if (!fromLine) return { code: block.code };
  return { path: fromLine, code: lineEnd < 0 ? '' : block.code.slice(lineEnd + 1), namingLine: firstLine.replace(/\r$/, '') };
}
