import * as l10n from '@vscode/l10n';
import type { AnswerMeta, ColumnView, ComparisonTurnView, MessagePatch, MessageView, SpendNotMeasured } from '../../core/chat/protocol/chatProtocol';
import { columnFigures, isWaiting, type ColumnFigures } from '../../core/chat/protocol/columnFigures';
import { formatCredits, SPEND_DIGITS } from '../../core/credits';
import { actionButton, codicon, el } from '../shared/dom';
import { errorCard, statusLabel } from './messageChrome';
import { StreamingMarkdown } from './markdown/streamingMarkdown';
import type { MarkdownIt } from 'markdown-it';
import type { FrameScheduler } from './frames';

/** What the columns render with: the chat's markdown and its one frame scheduler (messageView.ts MessageContext has both). */
export interface ColumnContext {
  md: MarkdownIt;
  frames: FrameScheduler;
}

/**
 * A comparison turn's columns (one question, several models side by side): a CSS grid that stacks
 * in a narrow side bar (a container query in chat.css). Each column renders its answer as any answer
 * (StreamingMarkdown, sanitised the same way) on the one frame scheduler, so N streams are drawn in
 * the same frames as one. Hooks for tests: `.comparison[data-turn-id]`, `.comparison-column` with
 * `data-column-id`, `data-column-model`, `data-status`; its figures' `data-*` (figuresFooter).
 */

/** Why a column's credits are not measured, in its footer's words. */
function notMeasuredText(reason: SpendNotMeasured): { text: string; title: string } {
  return reason === 'overlapped'
    ? { text: l10n.t('credits not measured (ran beside the others)'), title: l10n.t('The models were asked side by side: their requests overlapped in the wallet, so one answer\'s cost cannot be told from the others\'. The comparison\'s total is measured. Turn on inference.chat.comparison.measureEachModel to measure each.') }
    : { text: l10n.t('credits not measured (no balance reading)'), title: l10n.t('No balance could be read before and after this answer (see the setting inference.readBalanceAfterAnswer), so its cost is not known.') };
}

const seconds = (ms: number): string => l10n.t('{0} s', (ms / 1000).toFixed(2));

/** The figures under a column, each also as a data attribute (milliseconds, characters per second, credits). */
function figuresFooter(footer: HTMLElement, figures: ColumnFigures): void {
  const parts: HTMLElement[] = [];
  const data: Record<string, string | undefined> = {
    ttftMs: figures.timeToFirstTokenMs?.toString(), totalMs: figures.totalMs?.toString(),
    charsPerSecond: figures.charsPerSecond?.toString(), outputChars: String(figures.outputChars),
    credits: figures.spend && 'credits' in figures.spend ? String(figures.spend.credits) : undefined,
    notMeasured: figures.spend && 'notMeasured' in figures.spend ? figures.spend.notMeasured : undefined,
  };
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) delete footer.dataset[key];
    else footer.dataset[key] = value;
  }
  if (figures.timeToFirstTokenMs !== undefined) parts.push(el('span', { className: 'figure-ttft', text: l10n.t('first token {0}', seconds(figures.timeToFirstTokenMs)), attrs: { title: l10n.t('Time to first token: from sending the request to its first text.') } }));
  if (figures.totalMs !== undefined) parts.push(el('span', { className: 'figure-total', text: l10n.t('total {0}', seconds(figures.totalMs)), attrs: { title: l10n.t('From sending the request to the end of its answer.') } }));
  if (figures.charsPerSecond !== undefined) parts.push(el('span', { className: 'figure-rate', text: l10n.t('{0} chars/s', figures.charsPerSecond), attrs: { title: l10n.t('Output characters per second, from the first text to the end.') } }));
  if (figures.spend && 'credits' in figures.spend) parts.push(el('span', { className: 'figure-credits', text: l10n.t('{0} credits', formatCredits(figures.spend.credits, SPEND_DIGITS)) }));
  else if (figures.spend) {
    const { text, title } = notMeasuredText(figures.spend.notMeasured);
    parts.push(el('span', { className: 'figure-credits-unknown', text, attrs: { title } }));
  }
  footer.replaceChildren(...parts);
  footer.hidden = parts.length === 0;
}

/** One model's column: its header (the model), its answer, its status or error, its figures and buttons. */
class ColumnElement {
  readonly root: HTMLElement;
  readonly #modelName: HTMLElement;
  readonly #status: HTMLElement;
  readonly #errorSlot: HTMLElement;
  readonly #figures: HTMLElement;
  readonly #actions: HTMLElement;
  readonly #markdown: StreamingMarkdown;
  #view: ColumnView;

  constructor(view: ColumnView, ctx: ColumnContext) {
    this.#view = view;
    this.#modelName = el('span', { className: 'comparison-column-model' });
    this.#status = el('div', { className: 'comparison-column-status' });
    this.#errorSlot = el('div', { className: 'comparison-column-error' });
    this.#figures = el('footer', { className: 'comparison-column-figures' });
    this.#actions = el('div', { className: 'comparison-column-actions', attrs: { role: 'toolbar', 'aria-label': l10n.t('Column actions') } });
    this.#markdown = new StreamingMarkdown(ctx.md, ctx.frames);
    const body = el('div', { className: 'comparison-column-body message-body' }, [this.#markdown.element]);
    this.root = el('section', {
      className: 'comparison-column',
      // The column's id is its answer's: Copy and an error card's actions find it as they find a message.
      attrs: { 'data-column-id': view.answer.id, 'data-message-id': view.answer.id, 'data-column-model': view.model, 'aria-label': l10n.t('Answer of {0}', view.model) },
    }, [el('header', { className: 'comparison-column-header' }, [codicon('sparkle'), this.#modelName]), this.#status, body, this.#errorSlot, this.#figures, this.#actions]);
    this.#markdown.reset(view.answer.text, view.answer.status !== 'streaming');
  }

  get id(): string {
    return this.#view.answer.id;
  }

  get text(): string {
    return this.#markdown.text;
  }

  get streaming(): boolean {
    return this.#view.answer.status === 'streaming';
  }

  get model(): string {
    return this.#view.answer.meta?.model ?? this.#view.model;
  }

  append(text: string, reasoning: boolean): void {
    // A column shows the answer only: its thinking stays in the saved conversation.
    if (!reasoning) this.#markdown.append(text);
  }

  /** The whole column again (a snapshot, an upsert): its text replaces what is shown when it differs. */
  update(view: ColumnView): void {
    const wasStreaming = this.streaming;
    this.#view = view;
    if (this.#markdown.text !== view.answer.text) this.#markdown.reset(view.answer.text, !this.streaming);
    else if (wasStreaming && !this.streaming) this.#markdown.finish();
  }

  patch(patch: MessagePatch): void {
    const wasStreaming = this.streaming;
    this.#view = { ...this.#view, answer: { ...this.#view.answer, status: patch.status, meta: patch.meta, error: patch.error } };
    if (wasStreaming && !this.streaming) this.#markdown.finish();
  }

  /** `canContinue`: the comparison has ended and is the conversation's last turn. */
  render(canContinue: boolean, chosen: string | undefined): void {
    const answer = this.#view.answer;
    this.#modelName.textContent = this.model;
    this.#modelName.title = this.model === this.#view.model ? this.model : l10n.t('{0} (asked as {1})', this.model, this.#view.model);
    this.root.dataset.status = isWaiting(this.#view) ? 'waiting' : answer.status ?? 'done';
    const isChosen = chosen === answer.id;
    this.root.classList.toggle('is-chosen', isChosen);
    const status = isWaiting(this.#view) ? { icon: 'clock', text: l10n.t('Waiting for its turn (the models are asked a few at a time)') } : statusLabel(answer.status);
    this.#status.replaceChildren(...(status ? [codicon(status.icon), el('span', { text: status.text })] : []));
    this.#status.hidden = !status;
    this.#errorSlot.replaceChildren(...(answer.error ? [errorCard(answer.error)] : []));
    figuresFooter(this.#figures, columnFigures({ model: this.#view.model, answer: { ...answer, text: this.text } }));
    const buttons: HTMLElement[] = [];
    if (this.streaming) buttons.push(actionButton('stopColumn', 'debug-stop', l10n.t('Stop {0}', this.model), true));
    if (!this.streaming && this.text) buttons.push(actionButton('copyAnswer', 'copy', l10n.t('Copy answer')));
    if (isChosen) buttons.push(el('span', { className: 'comparison-chosen', text: l10n.t('The conversation went on with this answer') }));
    else if (canContinue && !answer.error && this.text) buttons.push(actionButton('continueWith', 'arrow-right', l10n.t('Continue with this answer'), true));
    this.#actions.replaceChildren(...buttons);
  }
}

/** The comparison's total: what its requests cost together, measured as one (comparisonRun.ts), or why not. */
function totalParts(meta: AnswerMeta | undefined): HTMLElement[] {
  if (meta?.creditsSpent !== undefined) {
    return [el('span', { className: 'comparison-total', text: l10n.t('{0} credits in total', formatCredits(meta.creditsSpent, SPEND_DIGITS)), attrs: { 'data-credits': String(meta.creditsSpent), title: l10n.t('Measured from the balance before the first request to the settled balance after the last.') } })];
  }
  if (meta?.spendNotMeasured !== undefined) {
    const title = meta.spendNotMeasured === 'overlapped'
      ? l10n.t('Another request to this environment ran during the comparison: the balance difference holds it too.')
      : l10n.t('No balance could be read before and after the comparison (see the setting inference.readBalanceAfterAnswer).');
    return [el('span', { className: 'comparison-total-unknown', text: l10n.t('total credits not measured'), attrs: { 'data-not-measured': meta.spendNotMeasured, title } })];
  }
  return [];
}

export class ComparisonColumns {
  readonly root: HTMLElement;
  readonly #bar: HTMLElement;
  readonly #columns: ColumnElement[];
  #turn: Pick<MessageView, 'status' | 'meta'> & { chosen?: string | undefined };

  constructor(view: MessageView & { comparison: ComparisonTurnView }, ctx: ColumnContext) {
    this.#turn = { status: view.status, meta: view.meta, chosen: view.comparison.chosen };
    this.#columns = view.comparison.columns.map((column) => new ColumnElement(column, ctx));
    this.#bar = el('div', { className: 'comparison-bar' });
    const grid = el('div', { className: 'comparison-columns', attrs: { 'data-columns': String(this.#columns.length) } }, this.#columns.map((c) => c.root));
    this.root = el('div', { className: 'comparison', attrs: { 'data-turn-id': view.id } }, [this.#bar, grid]);
  }

  /** Streamed text of the column at `index` (its append's column). */
  append(index: number, text: string, reasoning: boolean): void {
    this.#columns[index]?.append(text, reasoning);
  }

  /** The text of the column `columnId`, as received so far. */
  textOf(columnId: string): string | undefined {
    return this.#columns.find((column) => column.id === columnId)?.text;
  }

  update(view: MessageView): void {
    this.#turn = { status: view.status, meta: view.meta, chosen: view.comparison?.chosen };
    view.comparison?.columns.forEach((column, index) => this.#columns[index]?.update(column));
  }

  patchTurn(patch: MessagePatch): void {
    this.#turn = { ...this.#turn, status: patch.status, meta: patch.meta };
  }

  /** Returns the column's model when the patch ended it (for the announcement). */
  patchColumn(columnId: string, patch: MessagePatch): string | undefined {
    const column = this.#columns.find((c) => c.id === columnId);
    if (!column) return undefined;
    const wasStreaming = column.streaming;
    column.patch(patch);
    return wasStreaming && !column.streaming ? column.model : undefined;
  }

  render(isLast: boolean): void {
    const streaming = this.#turn.status === 'streaming';
    this.#bar.replaceChildren(
      el('span', { className: 'comparison-title', text: l10n.t('{0} models compared', this.#columns.length) }),
      ...totalParts(this.#turn.meta),
      el('span', { className: 'spacer' }),
      ...(streaming ? [actionButton('stopComparison', 'debug-stop', l10n.t('Stop all'), true)]
        : [actionButton('exportComparison', 'export', l10n.t('Export comparison (Markdown: the question, each answer, the figures)')),
          actionButton('comparisonUsage', 'graph', l10n.t('Usage of this comparison'))]),
    );
    for (const column of this.#columns) column.render(isLast && !streaming, this.#turn.chosen);
  }
}
