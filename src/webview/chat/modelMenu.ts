import * as l10n from '@vscode/l10n';
import type { ChatModelsView } from '../../core/chat/protocol/chatRequests';
import { MAX_COMPARED_MODELS, MIN_COMPARED_MODELS } from '../../core/chat/protocol/chatProtocol';
import { codicon, el } from '../shared/dom';

export interface ModelMenuHandlers {
  /** The environment's chat models; undefined when the host could not list them (it says why). */
  list(): Promise<ChatModelsView | undefined>;
  /**
   * The conversation's model; undefined: the environment's. `answerAgain`: the failed answer whose
   * card opened the menu, to be answered again with it.
   */
  pick(model: string | undefined, answerAgain: string | undefined): void;
  /** The models picked to compare changed (compare mode: 0–4 of them, in the order picked). */
  compare(models: string[]): void;
  /** The single pick's "Compare models…" row: the menu again, in compare mode. */
  startCompare(): void;
}

/** One row: a model, the environment's (model undefined), or the way to compare (`compare`). */
interface Row {
  model: string | undefined;
  label: string;
  detail?: string;
  compare?: true;
}

const ROW_PX = 22;
const VISIBLE_ROWS = 12;

/**
 * The composer's model menu: the conversation's model from the environment's list, filtered in the
 * page as the user types (every word a part of the id, any case). An environment may list thousands
 * of models: filtering 2,000 ids is well under a millisecond here, and only the rows in view exist
 * (ROW_PX each), where VS Code's quick pick filters and lays out every item per keystroke (16 ms of
 * its handlers with 2,000, `npm run bench`). Up/Down/PageUp/PageDown move, Enter picks, Escape or
 * a click elsewhere closes; the filter is a combobox owning the list for screen readers.
 *
 * In compare mode (openCompare) it picks several: Enter or a click ticks or unticks a model (the list
 * is multi-selectable, `aria-selected` is ticked, the active row `is-active`), at most
 * MAX_COMPARED_MODELS; Escape, Tab or a click elsewhere is done, the ticks kept.
 */
export class ModelMenu {
  readonly root: HTMLElement;
  readonly #filter: HTMLInputElement;
  readonly #viewport: HTMLElement;
  readonly #rowsBox: HTMLElement;
  readonly #title: HTMLElement;
  #models: ChatModelsView | undefined;
  /** Each model with its id in lower case, for the filter. */
  #lowered: Array<[string, string]> = [];
  #shown: Row[] = [];
  #active = 0;
  #opening = 0;
  #answerAgain: string | undefined;
  /** Compare mode: the models ticked, in the order picked; undefined in the single pick. */
  #compared: string[] | undefined;
  #anchor: HTMLElement;
  readonly #modelAnchor: HTMLElement;
  readonly #handlers: ModelMenuHandlers;

  constructor(anchor: HTMLElement, handlers: ModelMenuHandlers) {
    this.#anchor = anchor;
    this.#modelAnchor = anchor;
    this.#handlers = handlers;
    this.#title = el('div', { className: 'model-menu-title' });
    this.#filter = el('input', {
      className: 'model-menu-filter',
      attrs: {
        type: 'text', role: 'combobox', 'aria-autocomplete': 'list', 'aria-expanded': 'true', 'aria-controls': 'model-menu-list',
        'aria-label': l10n.t('Filter the models'), placeholder: l10n.t('Type to filter the models'), spellcheck: 'false',
      },
    });
    this.#rowsBox = el('div', { className: 'model-menu-rows' });
    this.#viewport = el('div', {
      className: 'model-menu-list', attrs: { id: 'model-menu-list', role: 'listbox', 'aria-label': l10n.t('Models') },
    }, [this.#rowsBox]);
    this.root = el('div', { className: 'model-menu', attrs: { hidden: '' } }, [this.#title, this.#filter, this.#viewport]);
    this.#filter.addEventListener('input', () => this.#applyFilter());
    this.#filter.addEventListener('keydown', (event) => this.#onKey(event));
    this.#viewport.addEventListener('scroll', () => this.#renderRows(), { passive: true });
    // Keep the focus in the filter when a row is clicked.
    this.#viewport.addEventListener('mousedown', (event) => event.preventDefault());
    this.#viewport.addEventListener('click', (event) => {
      const row = (event.target as Element).closest<HTMLElement>('[data-index]');
      if (row) this.#choose(Number(row.dataset.index));
    });
    // Focus elsewhere closes it; on the model button, its click closes it (toggleModelMenu).
    this.root.addEventListener('focusout', (event) => {
      const to = event.relatedTarget as Node | null;
      if (!this.root.contains(to) && to !== this.#anchor) this.close(false);
    });
  }

  get isOpen(): boolean {
    return !this.root.hidden;
  }

  /** `answerAgain`: opened by a failed answer's Pick Model, which is answered again with the pick. */
  async open(answerAgain?: string): Promise<void> {
    await this.#show(this.#modelAnchor, undefined, answerAgain);
  }

  /** Compare mode: ticks models to ask at once, starting from `picked` (the composer's); `anchor` is the button that opened it. */
  async openCompare(anchor: HTMLElement, picked: readonly string[]): Promise<void> {
    await this.#show(anchor, [...picked], undefined);
  }

  async #show(anchor: HTMLElement, compared: string[] | undefined, answerAgain: string | undefined): Promise<void> {
    const ticket = ++this.#opening;
    const models = await this.#handlers.list();
    if (ticket !== this.#opening || !models) return;
    this.#anchor.setAttribute('aria-expanded', 'false');
    this.#anchor = anchor;
    this.#models = models;
    this.#answerAgain = answerAgain;
    this.#compared = compared;
    this.root.classList.toggle('is-compare', compared !== undefined);
    if (compared) this.#viewport.setAttribute('aria-multiselectable', 'true');
    else this.#viewport.removeAttribute('aria-multiselectable');
    this.#lowered = models.models.map((id) => [id, id.toLowerCase()]);
    this.#title.textContent = compared
      ? l10n.t('Compare {0} to {1} models of {2}: Enter ticks or unticks, Escape is done', MIN_COMPARED_MODELS, MAX_COMPARED_MODELS, models.environment)
      : answerAgain === undefined
        ? l10n.t('Model for this chat ({0})', models.environment)
        : l10n.t('Answer again with a model of {0}', models.environment);
    this.#filter.value = '';
    this.root.hidden = false;
    this.#anchor.setAttribute('aria-expanded', 'true');
    this.#applyFilter();
    this.#filter.focus();
  }

  close(returnFocus = true): void {
    this.#opening++;
    if (!this.isOpen) return;
    this.root.hidden = true;
    this.#anchor.setAttribute('aria-expanded', 'false');
    this.#rowsBox.replaceChildren();
    if (returnFocus) this.#anchor.focus();
  }

  #applyFilter(): void {
    const models = this.#models;
    if (!models) return;
    const words = this.#filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    const rows: Row[] = [];
    if (!words.length && !this.#compared) {
      rows.push({ model: undefined, label: l10n.t('Use the environment\'s model'), detail: models.environmentModel ?? l10n.t('(none selected)') });
      // Where the composer has no room for its Compare models button (a narrow side bar), this is the way in.
      if (this.#answerAgain === undefined) rows.push({ model: undefined, compare: true, label: l10n.t('Compare models…'), detail: l10n.t('ask {0} to {1} at once', MIN_COMPARED_MODELS, MAX_COMPARED_MODELS) });
    }
    for (const [id, lower] of this.#lowered) {
      if (words.every((word) => lower.includes(word))) rows.push({ model: id, label: id, ...(id === models.current && { detail: l10n.t('(current for this chat)') }) });
    }
    this.#shown = rows;
    const current = rows.findIndex((row) => row.model === (this.#compared?.[0] ?? models.current));
    this.#active = !words.length && current >= 0 ? current : 0;
    this.#viewport.style.height = `${Math.max(1, Math.min(rows.length, VISIBLE_ROWS)) * ROW_PX}px`;
    this.#rowsBox.style.height = `${rows.length * ROW_PX}px`;
    this.#reveal();
    this.#renderRows();
  }

  /** Only the rows in view (and one either side) are elements. */
  #renderRows(): void {
    if (!this.#shown.length) {
      this.#rowsBox.replaceChildren(el('div', { className: 'model-menu-empty', text: l10n.t('No model matches') }));
      this.#filter.removeAttribute('aria-activedescendant');
      return;
    }
    const first = Math.max(0, Math.floor(this.#viewport.scrollTop / ROW_PX) - 1);
    const last = Math.min(this.#shown.length, first + VISIBLE_ROWS + 2);
    const rows: HTMLElement[] = [];
    for (let index = first; index < last; index++) rows.push(this.#rowElement(index));
    this.#rowsBox.replaceChildren(...rows);
    this.#filter.setAttribute('aria-activedescendant', `model-menu-${this.#active}`);
  }

  #rowElement(index: number): HTMLElement {
    const row = this.#shown[index];
    const ticked = row.model !== undefined && this.#compared?.includes(row.model);
    const icon = this.#compared ? (ticked ? 'pass-filled' : 'circle-large-outline') : row.compare ? 'split-horizontal' : row.model === undefined ? 'settings' : 'sparkle';
    const children: (Node | string)[] = [codicon(icon), el('span', { className: 'model-menu-label', text: row.label })];
    if (ticked) children.push(el('span', { className: 'model-menu-detail', text: l10n.t('column {0}', (this.#compared?.indexOf(row.model ?? '') ?? 0) + 1) }));
    else if (row.detail) children.push(el('span', { className: 'model-menu-detail', text: row.detail }));
    const element = el('div', {
      className: index === this.#active ? 'model-menu-row is-active' : 'model-menu-row',
      attrs: {
        role: 'option', id: `model-menu-${index}`, 'data-index': String(index), 'data-model': row.model ?? '', ...(row.compare && { 'data-compare': 'true' }),
        'aria-selected': String(this.#compared ? ticked : index === this.#active),
        'aria-setsize': String(this.#shown.length), 'aria-posinset': String(index + 1),
      },
    }, children);
    element.style.top = `${index * ROW_PX}px`;
    return element;
  }

  #onKey(event: KeyboardEvent): void {
    if (event.isComposing) return;
    const page = VISIBLE_ROWS - 1;
    switch (event.key) {
      case 'ArrowDown': this.#move(1); break;
      case 'ArrowUp': this.#move(-1); break;
      case 'PageDown': this.#move(page); break;
      case 'PageUp': this.#move(-page); break;
      case 'Enter': this.#choose(this.#active); break;
      case 'Escape': this.close(); break;
      case 'Tab': this.close(false); return;
      default: return;
    }
    event.preventDefault();
    event.stopPropagation();
  }

  #move(delta: number): void {
    if (!this.#shown.length) return;
    this.#active = Math.max(0, Math.min(this.#shown.length - 1, this.#active + delta));
    this.#reveal();
    this.#renderRows();
  }

  /** Scrolls the active row into view. */
  #reveal(): void {
    const top = this.#active * ROW_PX;
    const height = this.#viewport.clientHeight || VISIBLE_ROWS * ROW_PX;
    if (top < this.#viewport.scrollTop) this.#viewport.scrollTop = top;
    else if (top + ROW_PX > this.#viewport.scrollTop + height) this.#viewport.scrollTop = top + ROW_PX - height;
  }

  #choose(index: number): void {
    const row = this.#shown[index];
    if (!row) return;
    if (this.#compared) return this.#tick(index, row.model);
    this.close();
    if (row.compare) return this.#handlers.startCompare();
    this.#handlers.pick(row.model, this.#answerAgain);
  }

  /** Compare mode: ticks or unticks a model; a fifth is refused (the title says so). */
  #tick(index: number, model: string | undefined): void {
    const compared = this.#compared;
    if (!compared || model === undefined) return;
    const at = compared.indexOf(model);
    if (at >= 0) compared.splice(at, 1);
    else if (compared.length >= MAX_COMPARED_MODELS) {
      this.#title.textContent = l10n.t('At most {0} models: untick one first.', MAX_COMPARED_MODELS);
      return;
    } else compared.push(model);
    this.#active = index;
    this.#renderRows();
    this.#handlers.compare([...compared]);
  }
}
