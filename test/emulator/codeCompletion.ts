/**
 * The code the emulator suggests at a cursor: a small table of rules that look like a model's work in
 * a demo (TypeScript/JavaScript and Python), deterministic so that tests can predict them. Which rule
 * answers, in order: a block after a function's header (a body named after the function, its closing
 * line, then a run-on past the block), a block after another opener, a line of code under a comment,
 * a body line under a header, a line on an empty line; in a line, the rest of a known call or of a
 * name of the file, an assignment's value, a `return`'s value, the argument of a just-opened call,
 * then brackets and string closed (minus the closers the line already has; none before other text)
 * and a `;` for JavaScript at a line's end.
 */
import {
  cursorOf, familyOf, functionHeaderOf, identifiersIn, indentUnitOf, isBlank, lastDefinedName, lastLineWithText, leadingWhitespace,
  nameOf, unclosed, withoutSuppliedClosers, wordsOf, type Cursor, type Family, type FunctionHeader,
} from './codeText';

export interface CodeSite {
  readonly prefix: string;
  readonly suffix: string;
  readonly languageId: string;
  readonly path: string;
  /** The rest of the line, or the lines that complete a block. */
  readonly mode: 'line' | 'block';
}

interface Site {
  readonly cursor: Cursor;
  readonly family: Family;
  readonly unit: string;
  /** A name to pass or return: the last one the file defined above the cursor, else a literal. */
  readonly arg: string;
  readonly prefix: string;
  readonly suffix: string;
}

/** The text to insert at the cursor; for a block, first line as typed at the cursor, later lines fully indented. */
export function completeCode(input: CodeSite): string {
  const cursor = cursorOf(input.prefix, input.suffix);
  const family = familyOf(input.languageId, input.path);
  const site: Site = {
    cursor, family, prefix: input.prefix, suffix: input.suffix,
    unit: indentUnitOf(input.prefix + input.suffix, family),
    arg: lastDefinedName(cursor.linesAbove, family) ?? (family === 'python' ? '"hello"' : "'hello'"),
  };
  if (input.mode === 'line' || family === 'other') return completeLine(site);
  return isBlank(cursor.before) ? blockOnEmptyLine(site) : blockAfterOpener(site);
}

/** After a line that opens a block: the body, the closing line unless the file has it, and for a function a run-on. */
function blockAfterOpener(site: Site): string {
  const { cursor, family, unit } = site;
  const line = cursor.before + cursor.after;
  const header = functionHeaderOf(line, family);
  const bodyIndent = cursor.indent + unit;
  const closedBelow = (closing: string): boolean => {
    const next = lastLineWithText([...cursor.linesBelow].reverse());
    return next !== undefined && leadingWhitespace(next) === cursor.indent && next.trim().startsWith(closing.trim()[0] ?? '\0');
  };
  if (header) {
    const closing = header.closing && !closedBelow(header.closing) ? [header.closing] : [];
    return ['', ...functionBody(header, family).map((body) => bodyIndent + body), ...closing, '', ...runOn(header, site)].join('\n');
  }
  const opened = unclosed(cursor.before, family);
  // Python opens a block with a colon; a bracket opens one in either family.
  const colon = family === 'python' && /:\s*$/.test(line);
  if (!opened && !colon) return completeLine(site);
  const semicolon = family === 'js' && /^(?:(?:export\s+)?(?:const|let|var)\s|return\b|(?!(?:if|for|while|switch|catch|function)\b)[\w$.]+\s*[=(])/.test(line.trim()) ? ';' : '';
  const closing = opened && !colon && !closedBelow(opened) ? [cursor.indent + opened + semicolon] : [];
  return ['', ...openerBody(line, site).map((body) => bodyIndent + body), ...closing].join('\n');
}

/** On an empty line: code for the comment above, a body under a header, else a line that prints a name. */
function blockOnEmptyLine(site: Site): string {
  const { cursor, family } = site;
  const above = lastLineWithText(cursor.linesAbove) ?? '';
  const comment = (family === 'python' ? /^\s*#\s*(.*)$/ : /^\s*\/\/\s*(.*)$/).exec(above);
  const header = functionHeaderOf(above, family);
  let lines: string[];
  if (comment) lines = codeForComment(comment[1], site);
  else if (header && leadingWhitespace(above).length < cursor.indent.length) lines = functionBody(header, family);
  else lines = [family === 'python' ? `print(${site.arg})` : `console.log(${site.arg});`];
  return lines.map((line, index) => (index === 0 ? line : cursor.indent + line)).join('\n');
}

interface BodyRule {
  /** The function name's first word. */
  readonly word: RegExp;
  readonly minParams: number;
  readonly js: (params: readonly string[]) => string;
  readonly python: (params: readonly string[]) => string;
}

const operation = (operator: string) => (params: readonly string[]) => `return ${params.join(` ${operator} `)}`;

/** A function's body from its name's first word; the first rule whose word and parameter count fit. */
const BODY_RULES: readonly BodyRule[] = [
  { word: /^(add|sum|plus|total)$/, minParams: 2, js: operation('+'), python: operation('+') },
  { word: /^(sum|total)$/, minParams: 1, js: ([list]) => `return ${list}.reduce((total, value) => total + value, 0)`, python: ([list]) => `return sum(${list})` },
  { word: /^(sub|subtract|minus|diff|difference)$/, minParams: 2, js: operation('-'), python: operation('-') },
  { word: /^(mul|multiply|times|product)$/, minParams: 2, js: operation('*'), python: operation('*') },
  { word: /^(div|divide|ratio)$/, minParams: 2, js: operation('/'), python: operation('/') },
  { word: /^(square)$/, minParams: 1, js: ([x]) => `return ${x} * ${x}`, python: ([x]) => `return ${x} * ${x}` },
  { word: /^(max|maximum|largest)$/, minParams: 1, js: (p) => `return Math.max(${p.length > 1 ? p.join(', ') : `...${p[0]}`})`, python: (p) => `return max(${p.join(', ')})` },
  { word: /^(min|minimum|smallest)$/, minParams: 1, js: (p) => `return Math.min(${p.length > 1 ? p.join(', ') : `...${p[0]}`})`, python: (p) => `return min(${p.join(', ')})` },
  { word: /^(is|has|can|should)$/, minParams: 1, js: ([x]) => `return Boolean(${x})`, python: ([x]) => `return bool(${x})` },
  { word: /^(greet|hello|welcome)$/, minParams: 1, js: ([x]) => `return \`Hello, \${${x}}!\``, python: ([x]) => `return f"Hello, {${x}}!"` },
  { word: /^(log|print|show|display|report)$/, minParams: 1, js: (p) => `console.log(${p.join(', ')})`, python: (p) => `print(${p.join(', ')})` },
];

/** The body's lines, relative to the body's indentation. */
function functionBody(header: FunctionHeader, family: Family): string[] {
  const first = wordsOf(header.name)[0] ?? '';
  const rule = BODY_RULES.find((candidate) => candidate.word.test(first) && header.params.length >= candidate.minParams);
  if (family === 'python') return [rule ? rule.python(header.params) : header.params.length ? `return ${header.params[0]}` : 'raise NotImplementedError'];
  return [rule ? `${rule.js(header.params)};` : header.params.length ? `return ${header.params[0]};` : "throw new Error('not implemented');"];
}

/**
 * What a chat model asked for a block often writes next: another function calling this one. The
 * client's stream cut is meant to stop paying for it, so the answer carries it.
 */
function runOn(header: FunctionHeader, site: Site): string[] {
  const call = `${header.receiver}${header.name}(${header.params.map((_, index) => index + 1).join(', ')})`;
  const body = header.indent + site.unit + (site.family === 'python' ? `print(${call})` : `console.log(${call});`);
  return [header.sibling, body, ...(header.closing ? [header.closing] : [])];
}

/** A body for a block that is not a function's: the loop variable or the condition's first name shown, a class's constructor. */
function openerBody(line: string, site: Site): string[] {
  const { family, unit } = site;
  const python = family === 'python';
  if (/^\s*(?:export\s+)?class\b/.test(line)) return python ? ['def __init__(self):', `${unit}pass`] : ['constructor() {}'];
  if (/(?:=|\breturn)\s*\{$/.test(line.trimEnd()) && !python) return ['id: 1,', `name: '${wordsOf(line)[1] ?? 'example'}',`];
  if (/[[(]$/.test(line.trimEnd())) return [`${site.arg},`];
  const loop = (python ? /\bfor\s+([A-Za-z_]\w*)/ : /\bfor\s*\(\s*(?:const|let|var)?\s*([A-Za-z_$][\w$]*)/).exec(line);
  const shown = loop?.[1] ?? namesShownIn(line).find((name) => !KEYWORDS.has(name));
  if (python) return [shown ? `print(${shown})` : 'pass'];
  return [`console.log(${shown ?? "'here'"});`];
}

/** The names a line reads, not those it calls or quotes (`describe('x', () => {` reads none). */
function namesShownIn(line: string): string[] {
  const code = line.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""');
  return [...code.matchAll(/[A-Za-z_$][\w$]*(?![\w$]|\s*\()/g)].map((match) => match[0]);
}

const KEYWORDS = new Set(['if', 'else', 'elif', 'for', 'while', 'do', 'try', 'catch', 'finally', 'switch', 'case', 'with', 'const', 'let', 'var', 'of', 'in', 'not', 'and', 'or', 'await', 'async', 'new', 'typeof', 'true', 'false', 'True', 'False', 'null', 'None', 'undefined', 'this', 'self']);

/** Lines that do what a comment says, relative to the cursor's indentation. */
function codeForComment(comment: string, site: Site): string[] {
  const { family, unit } = site;
  const python = family === 'python';
  const [verb = '', ...rest] = wordsOf(comment);
  const named = (words: readonly string[]): string => (words.length > 0 ? nameOf(words.slice(0, 3), family) : site.arg);
  if (/^(print|log|show|display|output)$/.test(verb)) return [python ? `print(${named(rest)})` : `console.log(${named(rest)});`];
  if (verb === 'return') return [python ? `return ${named(rest)}` : `return ${named(rest)};`];
  if (/^(loop|iterate|for|go|walk|visit)$/.test(verb)) {
    const list = named(rest.slice(-1));
    const item = list.endsWith('s') && list.length > 1 ? list.slice(0, -1) : 'item';
    return python ? [`for ${item} in ${list}:`, `${unit}print(${item})`] : [`for (const ${item} of ${list}) {`, `${unit}console.log(${item});`, '}'];
  }
  if (/^(import|require|use|load)$/.test(verb) && rest.length > 0) return [python ? `import ${rest[0]}` : `import ${nameOf([rest[0]], family)} from '${rest[0]}';`];
  const call = `${nameOf([verb, ...rest].slice(0, 3), family) || 'compute'}(${site.arg})`;
  return [python ? `result = ${call}` : `const result = ${call};`];
}

/** Calls and keywords a model completes from their first letters; `$` stands for the argument. */
const KNOWN_CALLS: Readonly<Record<Family, readonly string[]>> = {
  js: ['console.log($)', 'console.error($)', 'console.warn($)', 'JSON.stringify($)', 'JSON.parse($)', 'Math.round($)', 'return $', 'await '],
  python: ['print($)', 'len($)', 'range($)', 'sorted($)', 'enumerate($)', 'isinstance($, str)', 'return $'],
  other: [],
};

/** The rest of the line, then closers of what it leaves open (minus those after the cursor), and a `;` in JavaScript. */
function completeLine(site: Site): string {
  const { cursor, family } = site;
  // Closers the text ends with are counted again below, so that those after the cursor are not typed twice.
  const text = (knownCall(site) ?? nameInFile(site) ?? valueAfter(site) ?? '').replace(/[)\]}]+$/, '');
  // Text after the cursor that is not a closer goes on with the expression: what it leaves open is its business.
  const closes = isBlank(cursor.after) || /^\s*[)\]}'"`]/.test(cursor.after);
  const answer = text + (closes ? withoutSuppliedClosers(unclosed(cursor.before + text, family), cursor.after) : '');
  return family === 'js' && isBlank(cursor.after) && needsSemicolon(cursor.before + answer) ? `${answer};` : answer;
}

/** The rest of a known call whose beginning ends the line (at a word's start), the longest such beginning first. */
function knownCall({ cursor, family, arg }: Site): string | undefined {
  let best: { length: number; rest: string } | undefined;
  for (const template of KNOWN_CALLS[family]) {
    const call = template.replace('$', arg);
    for (let length = Math.min(cursor.before.length, call.length - 1); length >= 2 && length > (best?.length ?? 0); length--) {
      const typed = cursor.before.slice(-length);
      const startsWord = !/[\w$.]/.test(cursor.before.at(-length - 1) ?? ' ');
      if (startsWord && call.startsWith(typed) && /^[A-Za-z_$]/.test(typed)) {
        best = { length, rest: call.slice(length) };
        break;
      }
    }
  }
  return best?.rest;
}

/** The rest of a name of the file that the word before the cursor begins (the nearest above, else below); `()` for a function. */
function nameInFile({ cursor, prefix, suffix }: Site): string | undefined {
  const typed = /[A-Za-z_$][\w$]*$/.exec(cursor.before)?.[0];
  if (!typed || typed.length < 2) return undefined;
  const above = identifiersIn(prefix.slice(0, prefix.length - typed.length)).reverse();
  const name = [...above, ...identifiersIn(suffix)].find((candidate) => candidate.length > typed.length && candidate.startsWith(typed));
  if (!name) return undefined;
  const isFunction = new RegExp(`(?:function|def)\\s+${name.replace(/\$/g, '\\$')}\\b`).test(prefix + suffix);
  return name.slice(typed.length) + (isFunction ? '()' : '');
}

/** A value where the line asks for one: after `=` (by the name assigned), after `return`, inside a just-opened bracket. */
function valueAfter({ cursor, family, arg }: Site): string | undefined {
  if (family === 'other') return undefined;
  const { before } = cursor;
  const assigned = /([A-Za-z_$][\w$]*)\s*(?::[^=]*)?(?<![=!<>])=\s*$/.exec(before);
  if (assigned) return (before.endsWith(' ') ? '' : ' ') + valueFor(assigned[1], family);
  if (/\breturn\s*$/.test(before)) return (before.endsWith(' ') ? '' : ' ') + arg;
  if (/[([]\s*$/.test(before)) return arg;
  return undefined;
}

const VALUE_RULES: readonly [RegExp, string, string][] = [
  [/^(?:is|has|should|can)[A-Z_]|enabled|visible|done|ready|flag/i, 'false', 'False'],
  [/count|total|sum|index|size|length|num|^[ijn]$/i, '0', '0'],
  [/name|title|label|text|message|path|url/i, "''", '""'],
  [/list|items|array|values|s$/i, '[]', '[]'],
  [/map|dict|config|options|settings/i, '{}', '{}'],
];

function valueFor(name: string, family: Family): string {
  const rule = VALUE_RULES.find(([pattern]) => pattern.test(name));
  if (family === 'python') return rule?.[2] ?? 'None';
  return rule?.[1] ?? 'null';
}

/** A JavaScript statement that ends here: not a comment, a control header, an opener, a separator or an operator. */
function needsSemicolon(line: string): boolean {
  const text = line.trim();
  if (text === '' || /^(?:\/\/|\/\*|\*|@|(?:if|for|while|else|switch|do|try|class|function|interface|type)\b)/.test(text)) return false;
  return !/(?:[;{},([:+\-*/=&|<>?!.]|=>)$/.test(text);
}
