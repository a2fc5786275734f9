import * as l10n from '@vscode/l10n';
import { MAX_COMPARED_MODELS, MIN_COMPARED_MODELS } from '../../core/chat/protocol/chatProtocol';
import type { ComparisonEstimate } from '../../core/chat/protocol/comparisonEstimate';
import { formatCredits, SPEND_DIGITS } from '../../core/credits';
import { actionButton, codicon, el } from '../shared/dom';

export interface CompareBarHandlers {
  /** The estimate for asking `models` the composer's question now. */
  estimate(models: string[]): Promise<ComparisonEstimate | undefined>;
  /** Whether a send is now a comparison (2–4 models picked). */
  changed(comparing: boolean): void;
}

/** How long the question's typing settles before its estimate is asked again (its length changes it). */
const ESTIMATE_DEBOUNCE_MS = 400;

/**
 * Money first: above the composer while models are picked to compare, each model with its estimate
 * from the user's own ledger (n/a with too few answers with it, as the single-model estimate) and
 * their total, before anything is sent. Hooks for tests: `.compare-bar`, `.compare-model[data-model]`
 * with `.compare-estimate` (`data-credits` when known), `.compare-total` (`data-credits`, `data-complete`).
 */
export class CompareBar {
  readonly root: HTMLElement;
  readonly #list: HTMLElement;
  readonly #total: HTMLElement;
  readonly #note: HTMLElement;
  #models: string[] = [];
  #estimate: ComparisonEstimate | undefined;
  #asking = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  readonly #handlers: CompareBarHandlers;

  constructor(handlers: CompareBarHandlers) {
    this.#handlers = handlers;
    this.#list = el('div', { className: 'compare-models' });
    this.#total = el('span', { className: 'compare-total' });
    this.#note = el('span', { className: 'compare-note', attrs: { role: 'status' } });
    this.root = el('div', { className: 'compare-bar', attrs: { hidden: '', 'aria-label': l10n.t('Models to compare') } }, [
      el('div', { className: 'compare-heading' }, [
        codicon('split-horizontal'), el('span', { text: l10n.t('Compare') }), this.#total, el('span', { className: 'spacer' }),
        actionButton('cancelComparison', 'close', l10n.t('Ask one model (drop the picks)')),
      ]),
      this.#list,
      this.#note,
    ]);
  }

  /** The models picked, in the order picked (each a column). */
  get models(): string[] {
    return [...this.#models];
  }

  setModels(models: readonly string[]): void {
    this.#models = models.slice(0, MAX_COMPARED_MODELS);
    this.#estimate = undefined;
    this.#note.textContent = '';
    this.root.hidden = this.#models.length === 0;
    this.#render();
    this.#handlers.changed(this.#models.length >= MIN_COMPARED_MODELS);
    void this.#askEstimate();
  }

  /** The question changed: its estimate follows once the typing settles. */
  questionChanged(): void {
    if (this.#models.length < MIN_COMPARED_MODELS) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#askEstimate(), ESTIMATE_DEBOUNCE_MS);
  }

  /** A send with one model picked: it says what is missing. */
  needsAnother(): void {
    this.#note.textContent = l10n.t('Pick at least one more model to compare, or drop the pick to ask one model.');
  }

  async #askEstimate(): Promise<void> {
    clearTimeout(this.#timer);
    if (this.#models.length < MIN_COMPARED_MODELS) return;
    const ticket = ++this.#asking;
    const estimate = await this.#handlers.estimate(this.#models);
    if (ticket !== this.#asking) return;
    this.#estimate = estimate;
    this.#render();
  }

  #render(): void {
    this.#list.replaceChildren(...this.#models.map((model, index) => {
      const row = this.#estimate?.models.find((m) => m.model === model);
      const estimate = el('span', { className: 'compare-estimate' });
      if (row?.credits !== undefined) {
        estimate.textContent = l10n.t('≈ {0} credits', formatCredits(row.credits, SPEND_DIGITS));
        estimate.dataset.credits = String(row.credits);
        estimate.title = l10n.t('An estimate from your last {0} measured answers with this model, for this question\'s length. Not a price.', row.estimate?.answers ?? 0);
      } else if (this.#estimate) {
        estimate.textContent = l10n.t('n/a');
        estimate.title = l10n.t('Too few measured answers with this model for an estimate.');
      }
      const remove = actionButton('removeComparedModel', 'close', l10n.t('Remove {0} from the comparison', model));
      remove.dataset.model = model;
      return el('span', { className: 'chip compare-model', attrs: { 'data-model': model, title: l10n.t('Column {0}', index + 1) } }, [el('span', { text: model }), estimate, remove]);
    }));
    const estimate = this.#estimate;
    const short = this.#models.length < MIN_COMPARED_MODELS;
    this.#total.dataset.complete = String(estimate?.complete ?? false);
    if (short) {
      this.#total.textContent = l10n.t('pick {0} to {1} models', MIN_COMPARED_MODELS, MAX_COMPARED_MODELS);
      delete this.#total.dataset.credits;
    } else if (estimate?.credits !== undefined) {
      this.#total.textContent = estimate.complete
        ? l10n.t('≈ {0} credits in total', formatCredits(estimate.credits, SPEND_DIGITS))
        : l10n.t('≈ {0} credits for the models with an estimate', formatCredits(estimate.credits, SPEND_DIGITS));
      this.#total.dataset.credits = String(estimate.credits);
    } else {
      this.#total.textContent = estimate ? l10n.t('no estimate yet (too few measured answers)') : '';
      delete this.#total.dataset.credits;
    }
  }
}
