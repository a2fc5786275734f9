import * as l10n from '@vscode/l10n';

/** Sizes as chips and refusals show them; pure, so that the webview formats a chip's size the same way. */

/** "812 chars", "12.3K chars", "1.2M chars": the size a chip shows. */
export function formatChars(chars: number): string {
  if (chars < 1000) return l10n.t('{0} chars', chars);
  if (chars < 1_000_000) return l10n.t('{0}K chars', trimmed(chars / 1000));
  return l10n.t('{0}M chars', trimmed(chars / 1_000_000));
}

function trimmed(value: number): string {
  return value < 100 ? value.toFixed(1).replace(/\.0$/, '') : String(Math.round(value));
}
