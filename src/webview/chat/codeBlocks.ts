import * as l10n from '@vscode/l10n';
import { actionButton, el } from '../shared/dom';

/**
 * Adds the Copy / Insert at Cursor / Open in New File / Apply toolbar to closed code blocks. Runs on
 * sanitised DOM only, and the toolbar is built here (trusted), not by the markdown renderer, so the
 * sanitiser never has to allow buttons.
 */
export function decorateCodeBlocks(nodes: Iterable<Node>): void {
  for (const node of nodes) {
    if (!(node instanceof HTMLElement)) continue;
    const blocks = node.matches('pre') ? [node] : Array.from(node.querySelectorAll('pre'));
    for (const pre of blocks) decorate(pre);
  }
}

function decorate(pre: HTMLElement): void {
  const parent = pre.parentNode;
  if (!parent) return;
  const language = codeLanguage(pre);
  const toolbar = el('div', { className: 'code-actions', attrs: { role: 'toolbar', 'aria-label': l10n.t('Code block actions') } }, [
    el('span', { className: 'code-language', text: language ?? '' }),
    actionButton('copyCode', 'copy', l10n.t('Copy code')),
    actionButton('insertCode', 'insert', l10n.t('Insert at cursor')),
    actionButton('openInNewFile', 'new-file', l10n.t('Open in new file')),
    actionButton('applyCode', 'diff', l10n.t('Apply to a file (review the change first)')),
  ]);
  const wrapper = el('div', { className: 'code-block' });
  parent.replaceChild(wrapper, pre);
  wrapper.append(toolbar, pre);
}

export function codeLanguage(pre: Element): string | undefined {
  const code = pre.querySelector('code');
  const cls = Array.from(code?.classList ?? []).find((c) => c.startsWith('language-'));
  return cls?.slice('language-'.length);
}

/** The code block that an action button belongs to, with its text and language. */
export function codeBlockOf(target: Element): { code: string; language?: string; pre: Element } | undefined {
  const pre = target.closest('.code-block')?.querySelector('pre');
  if (!pre) return undefined;
  const text = pre.querySelector('code')?.textContent ?? pre.textContent ?? '';
  // The renderer ends every fence with a line break that is not part of the code the model wrote.
  return { code: text.endsWith('\n') ? text.slice(0, -1) : text, language: codeLanguage(pre), pre };
}
