import { el } from '../../shared/dom';

/**
 * A fence grows by chunks of highlighted lines, each in its own block (`.growing` in chat.css), so
 * that a frame lays out the last chunk, not the whole `<pre>` again. Closed, it becomes exactly
 * the one-shot DOM: the chunks' content straight in `<code>`, the wrapper's class as decorated.
 */
export const GROWING_FENCE = 'growing';

/**
 * Lines per chunk: a frame then walks a few dozen chunks of a long fence, not one per committed run
 * (nearly one per line for a slow model), and appends to a chunk small enough to lay out again.
 */
const LINES_PER_CHUNK = 32;

export function appendCodeLines(code: Element, lines: DocumentFragment): void {
  const added = (lines.textContent?.match(/\n/g) ?? []).length;
  const last = code.lastElementChild as HTMLElement | null;
  const held = Number(last?.dataset.lines ?? LINES_PER_CHUNK);
  if (last?.classList.contains('code-chunk') && held < LINES_PER_CHUNK) {
    last.append(lines);
    last.dataset.lines = String(held + added);
  } else {
    code.append(el('div', { className: 'code-chunk', attrs: { 'data-lines': String(added) } }, [lines]));
  }
}

/** `code` is the fence's <code>, `wrapper` its decorated top node. */
export function closeFence(code: Element, wrapper: Element): void {
  for (const chunk of Array.from(code.children)) if (chunk.classList.contains('code-chunk')) chunk.replaceWith(...Array.from(chunk.childNodes));
  wrapper.classList.remove(GROWING_FENCE);
}

