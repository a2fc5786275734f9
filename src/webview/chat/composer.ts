import * as l10n from '@vscode/l10n';
import type { AttachmentView, ChatEnvironmentView, MentionRefusal } from '../../core/chat/protocol/chatProtocol';
import { formatCredits, SPEND_DIGITS } from '../../core/credits';
import { attachmentChip, refusalChip } from './attachmentChips';
import { actionButton, codicon, el } from '../shared/dom';
import type { ImageThumbnails } from './imageThumbnails';
import { MentionPicker, type MentionPickerHandlers } from './mentionPicker';
import { ModelMenu, type ModelMenuHandlers } from './modelMenu';
import { CompareBar } from './compareBar';
import type { ComparisonEstimate } from '../../core/chat/protocol/comparisonEstimate';

export interface ComposerHandlers {
  send(text: string, editing: boolean): Promise<boolean>;
  /** Asks `models` the question at once (a comparison); true when the host took it. */
  compare(text: string, models: string[]): Promise<boolean>;
  /** What asking `models` the question would cost, per model and in total (undefined when the host could not say). */
  estimateComparison(models: string[], text: string): Promise<ComparisonEstimate | undefined>;
  stop(): void;
  draftChanged(draft: string): void;
  mentions: MentionPickerHandlers;
  models: Omit<ModelMenuHandlers, 'compare' | 'startCompare'>;
  /** Files pasted or dropped: the host tells images by their bytes and refuses the rest. */
  attachFiles(files: File[]): void;
}

/**
 * The input area: Enter sends, Shift+Enter inserts a new line, Escape stops a streaming answer (or
 * leaves edit mode). Attachment chips are removable; the send button turns into Stop while busy.
 * Images come by paste, drop (VS Code asks for Shift while dragging into a webview) or the Attach
 * Image button; a question may be only images.
 */
export class Composer {
  readonly root: HTMLElement;
  readonly input: HTMLTextAreaElement;
  readonly #chips: HTMLElement;
  readonly #sendButton: HTMLButtonElement;
  readonly #stopButton: HTMLButtonElement;
  readonly #modelButton: HTMLButtonElement;
  readonly #editBanner: HTMLElement;
  readonly #estimate: HTMLElement;
  readonly #picker: MentionPicker;
  readonly #modelMenu: ModelMenu;
  readonly #compareButton: HTMLButtonElement;
  /** The models picked to compare and their estimates; a send with 2–4 of them is a comparison. */
  readonly #compare: CompareBar;
  #attachments: AttachmentView[] = [];
  /** Mentions that attached nothing: shown until removed, and nothing is sent while one is. */
  #refusals: MentionRefusal[] = [];
  #busy = false;
  #editing = false;
  #hasImages = false;

  readonly #handlers: ComposerHandlers;
  readonly #thumbnails: ImageThumbnails;

  constructor(handlers: ComposerHandlers, thumbnails: ImageThumbnails) {
    this.#handlers = handlers;
    this.#thumbnails = thumbnails;
    this.input = el('textarea', {
      className: 'composer-input',
      attrs: {
        rows: '3',
        'aria-label': l10n.t('Message. Enter sends, Shift+Enter adds a new line, Escape stops an answer.'),
        placeholder: l10n.t('Ask anything (# to mention a file, problems, the terminal or changes; Enter to send)'),
      },
    });
    this.#chips = el('div', { className: 'chips', attrs: { 'aria-label': l10n.t('Attached context') } });
    this.#sendButton = actionButton('send', 'send', l10n.t('Send (Enter)'), true);
    this.#sendButton.classList.add('primary');
    this.#stopButton = actionButton('stop', 'debug-stop', l10n.t('Stop (Escape)'), true);
    this.#stopButton.hidden = true;
    this.#modelButton = actionButton('pickModel', 'chip', l10n.t('Model'), true);
    this.#modelButton.classList.add('model-button');
    this.#modelButton.setAttribute('aria-haspopup', 'listbox');
    this.#modelButton.setAttribute('aria-expanded', 'false');
    this.#modelMenu = new ModelMenu(this.#modelButton, {
      ...handlers.models,
      compare: (models) => this.#compare.setModels(models),
      startCompare: () => void this.#modelMenu.openCompare(this.#modelButton, this.#compare.models),
    });
    this.#compareButton = actionButton('compareModels', 'split-horizontal', l10n.t('Compare models: ask 2 to 4 at once'));
    this.#compareButton.setAttribute('aria-haspopup', 'listbox');
    this.#compareButton.setAttribute('aria-expanded', 'false');
    this.#compare = new CompareBar({
      estimate: (models) => handlers.estimateComparison(models, this.input.value),
      changed: (comparing) => this.#showSendLabel(comparing),
    });
    this.#editBanner = el('div', { className: 'edit-banner', attrs: { hidden: '' } }, [
      codicon('edit'), el('span', { text: l10n.t('Editing your last message. Enter resends it, Escape cancels.') }),
    ]);
    this.#estimate = el('span', { className: 'estimate', attrs: { hidden: '' } });
    const toolbar = el('div', { className: 'composer-toolbar' }, [
      actionButton('attachSelection', 'selection', l10n.t('Attach editor selection')),
      actionButton('attachFile', 'file-add', l10n.t('Attach active file')),
      actionButton('attachImage', 'file-media', l10n.t('Attach image (or paste or drop one)')),
      this.#modelButton,
      this.#compareButton,
      this.#estimate,
      el('span', { className: 'spacer' }),
      this.#stopButton,
      this.#sendButton,
    ]);
    this.#picker = new MentionPicker(this.input, handlers.mentions);
    this.root = el('div', { className: 'composer' }, [this.#picker.root, this.#modelMenu.root, this.#editBanner, this.#compare.root, this.#chips, this.input, toolbar]);
    this.input.addEventListener('keydown', (event) => this.#onKeyDown(event));
    this.input.addEventListener('input', () => {
      this.#handlers.draftChanged(this.input.value);
      this.#compare.questionChanged();
    });
    this.input.addEventListener('paste', (event) => this.#takeFiles(event, event.clipboardData));
    this.root.addEventListener('dragover', (event) => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    });
    this.root.addEventListener('drop', (event) => this.#takeFiles(event, event.dataTransfer));
  }

  /** A paste or drop that carries files attaches them instead of inserting anything. */
  #takeFiles(event: Event, transfer: DataTransfer | null): void {
    const files = [...(transfer?.files ?? [])];
    if (!files.length) return;
    event.preventDefault();
    this.#handlers.attachFiles(files);
  }

  /** The model button's menu (modelMenu.ts): opens it, or closes it when open. */
  toggleModelMenu(): void {
    if (this.#modelMenu.isOpen) this.#modelMenu.close();
    else void this.#modelMenu.open();
  }

  /** The model menu in compare mode (Compare models): ticks 2–4 models, or closes it when open. */
  toggleCompareMenu(): void {
    if (this.#modelMenu.isOpen) this.#modelMenu.close();
    else void this.#modelMenu.openCompare(this.#compareButton, this.#compare.models);
  }

  removeComparedModel(model: string): void {
    this.#compare.setModels(this.#compare.models.filter((m) => m !== model));
    this.input.focus();
  }

  /** Back to one model: the picks are dropped. */
  clearComparison(): void {
    this.#compare.setModels([]);
    this.input.focus();
  }

  /** Send says Compare while 2–4 models are picked. */
  #showSendLabel(comparing: boolean): void {
    const label = comparing ? l10n.t('Compare (Enter)') : l10n.t('Send (Enter)');
    this.#sendButton.title = label;
    this.#sendButton.setAttribute('aria-label', label);
    const text = this.#sendButton.querySelector('span:not(.codicon)');
    if (text) text.textContent = label;
    this.#sendButton.dataset.compare = String(comparing);
  }

  /** The model menu for a failed answer's Pick Model: the answer is asked again with the pick. */
  pickModelToAnswerAgain(messageId: string): void {
    void this.#modelMenu.open(messageId);
  }

  setBusy(busy: boolean): void {
    this.#busy = busy;
    this.#stopButton.hidden = !busy;
    this.#sendButton.hidden = busy;
  }

  setModel(model: string | undefined): void {
    const label = this.#modelButton.querySelector('span:not(.codicon)');
    if (label) label.textContent = model ?? l10n.t('Pick a model');
    this.#modelButton.title = model ? l10n.t('Model: {0} (click to change for this conversation)', model) : l10n.t('Pick a model');
    this.#modelButton.setAttribute('aria-label', this.#modelButton.title);
  }

  /** The user's own cost so far with the model, labelled as an estimate; nothing with too few answers. */
  setEstimate(estimate: ChatEnvironmentView['estimate']): void {
    this.#estimate.hidden = estimate === undefined;
    if (!estimate) return;
    this.#estimate.textContent = l10n.t('≈ {0} credits / 1,000 characters', formatCredits(estimate.creditsPer1kChars, SPEND_DIGITS));
    this.#estimate.title = l10n.t('An estimate from your last {0} measured answers with this model: the credits they cost per 1,000 characters of question and answer together. Not a price.', estimate.answers);
  }

  setAttachments(attachments: AttachmentView[]): void {
    this.#attachments = attachments;
    this.#hasImages = attachments.some((a) => a.image);
    this.#renderChips();
  }

  /** A mention the host refused: an error chip, and the message cannot be sent until it is removed. */
  addRefusal(refusal: MentionRefusal): void {
    this.#refusals = [...this.#refusals.filter((r) => r.label !== refusal.label), refusal];
    this.#renderChips();
  }

  #renderChips(): void {
    const refused = this.#refusals.map((refusal) => refusalChip(refusal, () => {
      this.#refusals = this.#refusals.filter((r) => r !== refusal);
      this.#renderChips();
      this.input.focus();
    }));
    const note = this.#refusals.length ? [el('span', { className: 'chips-note', text: l10n.t('Remove the mention marked with an error to send.') })] : [];
    this.#chips.replaceChildren(...this.#attachments.map((a) => attachmentChip(a, this.#thumbnails, true)), ...refused, ...note);
  }

  startEditing(text: string): void {
    this.#editing = true;
    this.#editBanner.hidden = false;
    this.input.value = text;
    this.input.focus();
    this.input.setSelectionRange(text.length, text.length);
  }

  setDraft(text: string): void {
    this.input.value = text;
  }

  focus(): void {
    this.input.focus();
  }

  /** A starter from an editor action: replaces the draft, caret at the end, ready to edit or send. */
  fill(text: string): void {
    this.input.value = text;
    this.input.focus();
    this.input.setSelectionRange(text.length, text.length);
  }

  async submit(): Promise<void> {
    const text = this.input.value;
    if ((!text.trim() && !this.#hasImages) || this.#busy || this.#refusals.length) return;
    const editing = this.#editing;
    const compared = editing ? [] : this.#compare.models;
    if (compared.length === 1) {
      this.#compare.needsAnother();
      return;
    }
    // Keep the text until the host accepted it: a failed send must never lose the user's message.
    const sent = compared.length ? await this.#handlers.compare(text, compared) : await this.#handlers.send(text, editing);
    if (sent) {
      if (this.input.value === text) this.input.value = '';
      this.#stopEditing();
      if (compared.length) this.#compare.setModels([]);
      this.#handlers.draftChanged(this.input.value);
    }
  }

  #stopEditing(): void {
    this.#editing = false;
    this.#editBanner.hidden = true;
  }

  #onKeyDown(event: KeyboardEvent): void {
    if (this.#picker.handleKey(event)) return;
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      void this.submit();
    } else if (event.key === 'Escape') {
      if (this.#busy) {
        event.preventDefault();
        this.#handlers.stop();
      } else if (this.#editing) {
        event.preventDefault();
        this.#stopEditing();
        this.input.value = '';
      }
    }
  }
}
