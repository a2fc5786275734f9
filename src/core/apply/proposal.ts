/**
 * The text a code block proposes for a file, and the one edit that turns the file's text into it.
 * Offsets are UTF-16 offsets into the text, as `TextDocument.positionAt` takes them.
 */

export type ApplyMode =
  | { kind: 'whole' }
  | { kind: 'replace'; start: number; end: number }
  | { kind: 'insert'; offset: number };

export type Eol = '\n' | '\r\n';

/** Lines such as `// ... existing code ...` or a lone `...`: the model left code out, so the block is not the whole file. */
const ELISION = [
  /^\s*(?:\/\/|#|--|\/\*|<!--|\{\/\*)\s*(?:\.{3}|…)/m,
  /^\s*(?:\.{3}|…)\s*$/m,
  /^\s*(?:\.{3}|…)\s+\(?(?:existing|rest|remaining|unchanged|previous|other)\b/im,
];
/** A block with at least this share of the file's non-blank lines (and no elision) is taken for the whole file. */
const WHOLE_FILE_SHARE = 0.6;

const nonBlank = (text: string) => text.split('\n').map((line) => line.trim()).filter((line) => line !== '');

export function hasElision(code: string): boolean {
  return ELISION.some((pattern) => pattern.test(code));
}

/**
 * Whether the block reads as the whole file (it then replaces the file without a question) or as a
 * fragment (the user chooses where it goes). An empty or new file takes any block whole; otherwise
 * the block must leave nothing out, have most of the file's lines, and start as the file starts
 * unless it is at least as long: the last two lines of a three-line file are a fragment.
 */
export function blockKind(code: string, base: string): 'whole' | 'fragment' {
  const baseLines = nonBlank(base);
  if (baseLines.length === 0) return 'whole';
  if (hasElision(code)) return 'fragment';
  const codeLines = nonBlank(code);
  if (codeLines.length < WHOLE_FILE_SHARE * baseLines.length) return 'fragment';
  return codeLines[0] === baseLines[0] || codeLines.length >= baseLines.length ? 'whole' : 'fragment';
}

export function eolOf(text: string): Eol {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

function withEol(text: string, eol: Eol): string {
  const lf = text.replace(/\r\n/g, '\n');
  return eol === '\n' ? lf : lf.replace(/\n/g, '\r\n');
}

const endsWithLineBreak = (text: string) => text.endsWith('\n');
const atLineStart = (text: string, offset: number) => offset === 0 || text[offset - 1] === '\n';

/**
 * The file's text after the block is applied. A whole-file block keeps the file's last line break
 * (the chat's code blocks carry none) and the naming comment when the file starts with it; a
 * fragment at the start of a line before more text gets its own line.
 */
export function proposedText(base: string, code: string, mode: ApplyMode, options: { eol: Eol; namingLine?: string; newFile?: boolean }): string {
  const { eol, namingLine } = options;
  let body = withEol(code, eol);
  if (mode.kind === 'whole') {
    const firstLine = base.split(/\r?\n/, 1)[0];
    if (namingLine !== undefined && firstLine === namingLine) body = `${namingLine}${eol}${body}`;
    if ((options.newFile || endsWithLineBreak(base)) && body !== '' && !endsWithLineBreak(body)) body += eol;
    return body;
  }
  const start = mode.kind === 'replace' ? mode.start : mode.offset;
  const end = mode.kind === 'replace' ? mode.end : mode.offset;
  const replacesWholeLines = mode.kind === 'replace' && atLineStart(base, end) && end > start;
  const insertsBeforeText = mode.kind === 'insert' && atLineStart(base, start) && start < base.length;
  if ((replacesWholeLines || insertsBeforeText) && body !== '' && !endsWithLineBreak(body)) body += eol;
  return base.slice(0, start) + body + base.slice(end);
}

export interface TextReplacement {
  start: number;
  end: number;
  text: string;
}

/**
 * The smallest single replacement that turns `base` into `proposed` (common start and end kept), so
 * that accepting moves no cursor, fold or marker outside the change; undefined when they are equal.
 * Never splits a CRLF pair or a surrogate pair.
 */
export function minimalReplacement(base: string, proposed: string): TextReplacement | undefined {
  if (base === proposed) return undefined;
  const limit = Math.min(base.length, proposed.length);
  let prefix = 0;
  while (prefix < limit && base.charCodeAt(prefix) === proposed.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < limit - prefix && base.charCodeAt(base.length - 1 - suffix) === proposed.charCodeAt(proposed.length - 1 - suffix)) suffix++;
  const splits = (text: string, at: number) => at > 0 && at < text.length
    && ((text[at - 1] === '\r' && text[at] === '\n') || (/[\uD800-\uDBFF]/.test(text[at - 1]) && /[\uDC00-\uDFFF]/.test(text[at])));
  while (prefix > 0 && (splits(base, prefix) || splits(proposed, prefix))) prefix--;
  while (suffix > 0 && (splits(base, base.length - suffix) || splits(proposed, proposed.length - suffix))) suffix--;
  return { start: prefix, end: base.length - suffix, text: proposed.slice(prefix, proposed.length - suffix) };
}
