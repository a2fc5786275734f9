/**
 * Text from outside (a decoded URL path, a service's header) written into a log line: a line break or
 * another control character in it would start a line that looks like the extension's own.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** Whether `text` holds a character that escapeControlCharacters would escape. */
export function hasControlCharacters(text: string): boolean {
  CONTROL_CHARACTERS.lastIndex = 0;
  return CONTROL_CHARACTERS.test(text);
}

/** `text` with every control character (line breaks included) written as a visible `\uXXXX`. */
export function escapeControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
