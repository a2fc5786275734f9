/**
 * Reading source text around a cursor, for the emulator's code-suggestion answers (suggestions.ts):
 * the cursor's line, indentation, open brackets, names in the file and function headers. Rough on
 * purpose: the answers only have to look like a model's, for TypeScript/JavaScript and Python.
 */

/** The languages the answers know: JavaScript-like, Python, and the rest (brackets and file words only). */
export type Family = 'js' | 'python' | 'other';

const JS_LANGUAGES = new Set(['typescript', 'javascript', 'typescriptreact', 'javascriptreact']);

export function familyOf(languageId: string, path: string): Family {
  if (JS_LANGUAGES.has(languageId) || (!languageId && /\.[cm]?[jt]sx?$/.test(path))) return 'js';
  if (languageId === 'python' || (!languageId && path.endsWith('.py'))) return 'python';
  return 'other';
}

export interface Cursor {
  /** The cursor's line up to the cursor. */
  readonly before: string;
  /** The cursor's line after the cursor. */
  readonly after: string;
  /** The cursor line's leading whitespace. */
  readonly indent: string;
  /** The lines before the cursor's line, nearest last. */
  readonly linesAbove: readonly string[];
  /** The lines after the cursor's line. */
  readonly linesBelow: readonly string[];
}

export function cursorOf(prefix: string, suffix: string): Cursor {
  const above = prefix.split(/\r?\n/);
  const below = suffix.split(/\r?\n/);
  const before = above.pop() ?? '';
  const after = below.shift() ?? '';
  return { before, after, indent: leadingWhitespace(before + after), linesAbove: above, linesBelow: below };
}

export function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

export function isBlank(line: string): boolean {
  return line.trim() === '';
}

/** The last line with text above the cursor's line. */
export function lastLineWithText(lines: readonly string[]): string | undefined {
  return lines.findLast((line) => !isBlank(line));
}

/** One level of indentation as the file writes it: a tab, or its smallest run of spaces (doc-comment ` * ` lines aside). */
export function indentUnitOf(text: string, family: Family): string {
  let spaces = Infinity;
  for (const line of text.split(/\r?\n/)) {
    const whitespace = leadingWhitespace(line);
    if (!whitespace || isBlank(line) || line.trimStart().startsWith('*')) continue;
    if (whitespace.startsWith('\t')) return '\t';
    spaces = Math.min(spaces, whitespace.length);
  }
  if (spaces <= 8) return ' '.repeat(spaces);
  return family === 'python' ? '    ' : '  ';
}

const CLOSER_OF: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}' };

/** What closes the brackets and the string `line` leaves open, innermost first (comments and strings skipped). */
export function unclosed(line: string, family: Family): string {
  const stack: string[] = [];
  let quote: string | undefined;
  for (let index = 0; index < line.length; index++) {
    const char = line[index];
    if (quote) {
      if (char === '\\') index++;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '"' || char === "'" || (char === '`' && family === 'js')) quote = char;
    else if (family === 'python' ? char === '#' : line.startsWith('//', index)) break;
    else if (CLOSER_OF[char]) stack.push(CLOSER_OF[char]);
    else if (char === stack.at(-1)) stack.pop();
  }
  return (quote ?? '') + stack.reverse().join('');
}

/** `needed` without the closers the text after the cursor already starts with (those must not be typed twice). */
export function withoutSuppliedClosers(needed: string, after: string): string {
  const supplied = /^[)\]}'"`]*/.exec(after.trimStart())?.[0] ?? '';
  for (let count = Math.min(needed.length, supplied.length); count > 0; count--) {
    if (needed.endsWith(supplied.slice(0, count))) return needed.slice(0, needed.length - count);
  }
  return needed;
}

const IDENTIFIER = /[A-Za-z_$][\w$]*/g;

export function identifiersIn(text: string): string[] {
  return text.match(IDENTIFIER) ?? [];
}

/** Words that say nothing about a name ("print the total" names `total`). */
const FILLER_WORDS = new Set(['a', 'an', 'the', 'of', 'to', 'for', 'and', 'with', 'in', 'on', 'from', 'by', 'some', 'this', 'that', 'it', 'all', 'each', 'every', 'over', 'into', 'then', 'out']);

/** The lowercase words of a comment or a name (camelCase and snake_case split), filler words left out. */
export function wordsOf(text: string): string[] {
  const split = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().match(/[a-z][a-z0-9]*/g) ?? [];
  return split.filter((word) => !FILLER_WORDS.has(word));
}

/** A name in the family's style: camelCase for JavaScript, snake_case otherwise. */
export function nameOf(words: readonly string[], family: Family): string {
  if (family !== 'js') return words.join('_');
  return words.map((word, index) => (index === 0 ? word : word[0].toUpperCase() + word.slice(1))).join('');
}

export interface FunctionHeader {
  readonly name: string;
  readonly params: readonly string[];
  /** `this.` or `self.` when the function is a method, so that a call to it reads right. */
  readonly receiver: string;
  /** A header of the same form for another function, `main`, with no parameters (the answer's run-on). */
  readonly sibling: string;
  /** The line that closes the body (`}` or `};`); empty for Python. */
  readonly closing: string;
  readonly indent: string;
}

const JS_FUNCTION = /^(\s*)((?:export\s+)?(?:default\s+)?(?:async\s+)?function\*?\s*)([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\(([^)]*)\)[^{]*\{\s*$/;
const JS_ARROW = /^(\s*)((?:export\s+)?(?:const|let|var)\s+)([A-Za-z_$][\w$]*)[^=]*=\s*(async\s*)?\(([^)]*)\)[^=]*=>\s*\{\s*$/;
const JS_METHOD = /^(\s*)((?:(?:public|private|protected|static|async|override)\s+)*)([A-Za-z_$][\w$]*)\s*\(([^)]*)\)[^{;=]*\{\s*$/;
const PY_DEF = /^(\s*)((?:async\s+)?def\s+)([A-Za-z_]\w*)\s*\(([^)]*)\)[^:]*:\s*$/;
const NOT_METHODS = new Set(['if', 'for', 'while', 'switch', 'catch', 'function', 'with', 'return', 'constructor']);

/** A function's header ending in its body's opener, or undefined when `line` is none. */
export function functionHeaderOf(line: string, family: Family): FunctionHeader | undefined {
  const header = (indent: string, name: string, list: string, receiver: string, sibling: string, closing: string): FunctionHeader =>
    ({ name, params: paramNames(list), receiver, sibling: indent + sibling, closing: closing && indent + closing, indent });
  if (family === 'python') {
    const def = PY_DEF.exec(line);
    if (!def) return undefined;
    const method = /^\s*(self|cls)\b/.test(def[4]);
    return header(def[1], def[3], def[4], method ? 'self.' : '', `${def[2]}main(${method ? 'self' : ''}):`, '');
  }
  if (family !== 'js') return undefined;
  const fn = JS_FUNCTION.exec(line);
  if (fn) return header(fn[1], fn[3], fn[4], '', `${fn[2].replace(/default\s+/, '')}main() {`, '}');
  const arrow = JS_ARROW.exec(line);
  if (arrow) return header(arrow[1], arrow[3], arrow[5], '', `${arrow[2]}main = ${arrow[4] ?? ''}() => {`, '};');
  const method = JS_METHOD.exec(line);
  if (method && !NOT_METHODS.has(method[3])) return header(method[1], method[3], method[4], 'this.', `${method[2]}main() {`, '}');
  return undefined;
}

/** Parameter names, without types, defaults, rest markers and Python's `self`/`cls`. */
function paramNames(list: string): string[] {
  return list.split(',')
    .map((param) => /^(?:\.\.\.|\*{1,2})?([A-Za-z_$][\w$]*)/.exec(param.trim())?.[1])
    .filter((name): name is string => name !== undefined && name !== 'self' && name !== 'cls');
}

/** The most recent name the text defines (a variable, a parameter, a loop variable), for arguments and return values. */
export function lastDefinedName(lines: readonly string[], family: Family): string | undefined {
  const definition = family === 'python'
    ? /^\s*([A-Za-z_]\w*)\s*=[^=]|\bfor\s+([A-Za-z_]\w*)\s+in\b/
    : /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)|\bfor\s*\(\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)/;
  for (let index = lines.length - 1; index >= 0; index--) {
    const header = functionHeaderOf(lines[index], family);
    if (header?.params.length) return header.params[0];
    const match = definition.exec(lines[index]);
    if (match) return match[1] ?? match[2];
  }
  return undefined;
}
