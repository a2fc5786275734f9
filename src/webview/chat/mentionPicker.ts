import * as l10n from '@vscode/l10n';
import type { MentionItemView, MentionKind, MentionTarget } from '../../core/chat/protocol/chatProtocol';
import { codicon, el } from '../shared/dom';

export interface MentionPickerHandlers {
  /** The rows for what follows `#`; undefined when the host refused. */
  query(query: string): Promise<MentionItemView[] | undefined>;
  pick(target: MentionTarget): void;
}

const ICONS: Record<MentionKind, string> = {
  file: 'file',
  selection: 'selection',
  problemsFile: 'warning',
  problemsWorkspace: 'warning',
  terminal: 'terminal',
  changes: 'git-compare',
};

/** `#` at the start or after white space, then what the user typed so far, up to the caret. */
const MENTION_AT_CARET = /(^|\s)#([^\s#]*)$/;

/**
 * The `#` completion under the composer's text, as Copilot Chat's: typing `#` opens it, what follows
 * filters it (the host ranks the rows), Up/Down move, Enter or Tab pick, Escape closes, and the
 * `#text` is replaced by a chip. The textarea keeps the focus throughout (a combobox for screen readers).
 */
export class MentionPicker {
  readonly root: HTMLElement;
  readonly #list: HTMLElement;
  #items: MentionItemView[] = [];
  #active = 0;
  /** Where the `#` is in the textarea while the picker is open. */
  #start: number | undefined;
  #queries = 0;

  readonly #input: HTMLTextAreaElement;
  readonly #handlers: MentionPickerHandlers;

  constructor(input: HTMLTextAreaElement, handlers: MentionPickerHandlers) {
    this.#input = input;
    this.#handlers = handlers;
    this.#list = el('ul', { className: 'mention-list', attrs: { role: 'listbox', id: 'mention-list', 'aria-label': l10n.t('Context to mention') } });
    this.root = el('div', { className: 'mention-picker', attrs: { hidden: '' } }, [this.#list]);
    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', 'mention-list');
    input.setAttribute('aria-expanded', 'false');
    input.addEventListener('input', () => this.#update());
    input.addEventListener('click', () => this.#update());
    input.addEventListener('blur', () => this.close());
    // Keep the focus in the textarea when a row is clicked.
    this.#list.addEventListener('mousedown', (event) => event.preventDefault());
    this.#list.addEventListener('click', (event) => {
      const row = (event.target as Element).closest<HTMLElement>('[data-index]');
      if (row) this.#choose(Number(row.dataset.index));
    });
  }

  get isOpen(): boolean {
    return this.#start !== undefined;
  }

  /** The composer's keys while the picker is open; true when the picker used the key. */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.isOpen || event.isComposing) return false;
    switch (event.key) {
      case 'ArrowDown': this.#move(1); break;
      case 'ArrowUp': this.#move(-1); break;
      case 'Enter':
      case 'Tab':
        if (!this.#items.length || event.shiftKey) return false;
        this.#choose(this.#active);
        break;
      case 'Escape': this.close(); break;
      default: return false;
    }
    event.preventDefault();
    event.stopPropagation();
    return true;
  }

  #update(): void {
    const caret = this.#input.selectionStart;
    const match = caret === this.#input.selectionEnd ? MENTION_AT_CARET.exec(this.#input.value.slice(0, caret)) : null;
    if (!match) return this.close();
    const query = match[2] ?? '';
    this.#start = caret - query.length - 1;
    const ticket = ++this.#queries;
    void this.#handlers.query(query).then((items) => {
      // A slower answer to an earlier keystroke must not replace a newer one.
      if (ticket !== this.#queries || !this.isOpen) return;
      this.#show(items ?? []);
    });
  }

  #show(items: MentionItemView[]): void {
    this.#items = items;
    this.#active = 0;
    this.#list.replaceChildren(...items.map((item, index) => row(item, index)));
    if (!items.length) this.#list.append(el('li', { className: 'mention-empty', text: l10n.t('Nothing matches') }));
    this.root.hidden = false;
    this.#input.setAttribute('aria-expanded', 'true');
    this.#highlight();
  }

  #move(delta: number): void {
    if (!this.#items.length) return;
    this.#active = (this.#active + delta + this.#items.length) % this.#items.length;
    this.#highlight();
  }

  #highlight(): void {
    for (const [index, node] of [...this.#list.children].entries()) node.setAttribute('aria-selected', String(index === this.#active));
    const current = this.#list.children[this.#active];
    if (current && this.#items.length) {
      this.#input.setAttribute('aria-activedescendant', current.id);
      current.scrollIntoView({ block: 'nearest' });
    } else {
      this.#input.removeAttribute('aria-activedescendant');
    }
  }

  #choose(index: number): void {
    const item = this.#items[index];
    if (!item || this.#start === undefined) return;
    // The `#query` typed so far leaves the text: the chip stands for it.
    const caret = this.#input.selectionStart;
    const value = this.#input.value;
    this.#input.value = value.slice(0, this.#start) + value.slice(caret);
    this.#input.setSelectionRange(this.#start, this.#start);
    this.#input.dispatchEvent(new Event('input'));
    this.close();
    this.#handlers.pick(item.kind === 'file' ? { kind: 'file', path: item.path ?? item.label } : { kind: item.kind });
  }

  close(): void {
    if (!this.isOpen) return;
    this.#start = undefined;
    this.#queries++;
    this.#items = [];
    this.root.hidden = true;
    this.#list.replaceChildren();
    this.#input.setAttribute('aria-expanded', 'false');
    this.#input.removeAttribute('aria-activedescendant');
  }
}

function row(item: MentionItemView, index: number): HTMLElement {
  const label = el('span', { className: 'mention-label' }, highlighted(item.label, item.matches ?? []));
  const children: (Node | string)[] = [codicon(ICONS[item.kind]), label];
  if (item.detail) children.push(el('span', { className: 'mention-detail', text: item.detail }));
  if (item.open) children.push(el('span', { className: 'mention-detail', text: l10n.t('open') }));
  return el('li', {
    className: 'mention-row',
    attrs: { role: 'option', id: `mention-${index}`, 'data-index': String(index), 'data-kind': item.kind, 'aria-selected': 'false' },
  }, children);
}

/** The label with its matched characters in <mark>, built as text nodes (never HTML). */
function highlighted(text: string, matches: readonly number[]): (Node | string)[] {
  const marked = new Set(matches);
  const parts: (Node | string)[] = [];
  let run = '';
  let runMarked = false;
  const flush = () => {
    if (run) parts.push(runMarked ? el('mark', { text: run }) : run);
    run = '';
  };
  // By UTF-16 index, as the host's matcher counts.
  for (let index = 0; index < text.length; index++) {
    if (marked.has(index) !== runMarked) {
      flush();
      runMarked = marked.has(index);
    }
    run += text[index];
  }
  flush();
  return parts;
}
