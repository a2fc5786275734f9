import { el } from '../shared/dom';

/**
 * The plain text an answer not rendered yet shows (lazyMessages.ts), so that find-in-page, a
 * selection and Copy see its whole text. It sits in slices of about SLICE_CHARACTERS, each
 * `content-visibility: auto` with its estimated height (chat.css): a placeholder on screen (a jump
 * to the top of a long conversation lands on them before they render) is laid out a slice at a
 * time as slices come near, not whole: shaping the whole text of the answers a jump lands on was
 * most of that frame. Slices end at a line's end where one is near, so a line is rarely cut.
 */
const SLICE_CHARACTERS = 2000;

/** Shows `text` in `placeholder` as slices; returns the answer's estimated rendered height: its lines and the message's chrome. */
export function fillPlaceholder(placeholder: HTMLElement, text: string): number {
  const slices: HTMLElement[] = [];
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + SLICE_CHARACTERS);
    const lineEnd = end < text.length ? text.lastIndexOf('\n', end) : -1;
    if (lineEnd > start + SLICE_CHARACTERS / 2) end = lineEnd + 1;
    const slice = text.slice(start, end);
    const element = el('div', { className: 'md-placeholder-slice', text: slice });
    element.style.setProperty('contain-intrinsic-size', `auto ${textLines(slice) * LINE_PX}px`);
    slices.push(element);
    start = end;
  }
  placeholder.replaceChildren(...slices);
  return MESSAGE_CHROME_PX + textLines(text) * LINE_PX;
}

/**
 * Lines of the panel's usual width, from the text alone (no layout). Only the scrollbar depends on
 * the estimates; a rendered answer keeps its real height (`contain-intrinsic-size: auto`).
 */
function textLines(text: string): number {
  let lines = 0;
  for (let start = 0; start <= text.length;) {
    const end = text.indexOf('\n', start);
    const length = (end < 0 ? text.length : end) - start;
    lines += Math.max(1, Math.ceil(length / CHARACTERS_PER_LINE));
    if (end < 0) break;
    start = end + 1;
  }
  return lines;
}

const CHARACTERS_PER_LINE = 100;
const LINE_PX = 18;
const MESSAGE_CHROME_PX = 60;
