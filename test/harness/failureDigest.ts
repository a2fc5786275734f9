/** Colour codes, written without a control character in a regex literal (lint refuses one). */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, 'g');

/** A tier's output as plain text, without mocha's colours. */
export function withoutColours(output: string): string {
  return output.replace(ANSI, '');
}

/**
 * What a failed tier printed that says why, for the end of `npm test`'s output: CI keeps only the
 * tail of a run, and a UI tier's failures scroll past in hundreds of lines before the summary.
 * Mocha's own failure list (from "N failing" on) when there is one, else the output's last lines.
 */
export function failureDigest(output: string, maxLines = 80): string[] {
  const lines = withoutColours(output).split(/\r?\n/);
  let from = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (/^\s*\d+ failing\b/.test(lines[i])) {
      from = i;
      break;
    }
  }
  const picked = from >= 0 ? lines.slice(from) : lines.slice(-30);
  while (picked.length > 0 && picked[picked.length - 1].trim() === '') picked.pop();
  if (picked.length <= maxLines) return picked;
  return [...picked.slice(0, maxLines), `… ${picked.length - maxLines} more lines in the tier's log`];
}
