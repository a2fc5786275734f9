/**
 * Text from outside the extension (a request id, a model id or a host the service sent, a label from
 * the settings) as literal text inside Markdown, such as a VS Code `MarkdownString` tooltip: it can add
 * no link, image, code span, emphasis, HTML, heading or line of its own.
 *
 * Every ASCII punctuation character is backslash-escaped (CommonMark lets any of them be, and GFM's
 * autolinks need `://`, `www.` or `@` unbroken), control characters and line breaks become spaces,
 * and leading spaces character references (four of them would start a code block).
 * Theme icons are not covered: VS Code turns `$(name)` into an icon after the Markdown is rendered,
 * so a MarkdownString that holds outside text is made without `supportThemeIcons`.
 */
export function markdownLiteral(text: string): string {
  return text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
    .replace(/[!-/:-@[-`{-~]/g, '\\$&')
    .replace(/^ +/, (spaces) => '&#32;'.repeat(spaces.length));
}

/**
 * Text from outside the extension (a model's answer) as a block of its own inside a Markdown
 * document: a fenced code block whose fence is longer than any run of backticks in the text, so that
 * no line of it can close the block, and nothing in it (a heading, an unclosed fence or HTML comment,
 * raw HTML) reaches the document around it. `info` says how an editor should highlight it.
 */
export function markdownFenced(text: string, info = ''): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${text}\n${fence}`;
}
