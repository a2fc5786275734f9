import * as l10n from '@vscode/l10n';
import { conversationSpendLabel, type ConversationSpend } from '../../core/chat/protocol/conversationSpend';
import { NUMBER_PARAMS, type NumberParamName } from '../../core/numberParams';
import type { ChatEnvironmentView, ChatParams, ConversationHeader } from '../../core/chat/protocol/chatProtocol';
import { actionButton, el } from '../shared/dom';

/**
 * Conversation title, conversation-level actions, and the per-conversation parameter overrides.
 * An empty field means "use the setting", shown as the placeholder.
 */
export class ConversationHeaderView {
  readonly root: HTMLElement;
  readonly #title: HTMLElement;
  /** What the conversation's answers cost together, beside the title. */
  readonly #spend: HTMLElement;
  readonly #params: HTMLDetailsElement;
  readonly #systemPrompt: HTMLTextAreaElement;
  readonly #serviceParameters: HTMLTextAreaElement;
  readonly #paramError: HTMLElement;
  readonly #numeric = new Map<NumberParamName, HTMLInputElement>();

  constructor(onApply: (params: ChatParams) => void) {
    this.#title = el('h1', { className: 'conversation-title', text: l10n.t('New chat') });
    this.#spend = el('span', { className: 'conversation-spend' });
    this.#spend.hidden = true;
    this.#systemPrompt = el('textarea', { className: 'param-system', attrs: { rows: '3', 'aria-label': l10n.t('System prompt for this conversation') } });
    const fields: HTMLElement[] = [el('label', { text: l10n.t('System prompt') }, [this.#systemPrompt])];
    for (const param of NUMBER_PARAMS) {
      // Labels are translated now, not at module load: the bundle is configured after the modules are loaded.
      const label = param.label();
      const input = el('input', { attrs: { type: 'number', step: String(param.step), min: String(param.min), max: String(param.max), 'aria-label': label } });
      this.#numeric.set(param.wire, input);
      fields.push(el('label', { text: label }, [input]));
    }
    this.#serviceParameters = el('textarea', {
      className: 'param-service', attrs: { rows: '2', spellcheck: 'false', 'aria-label': l10n.t('Service parameters for this conversation, a JSON object') },
    });
    fields.push(el('label', { className: 'param-service-label', text: l10n.t('Service parameters (JSON object, sent as service_parameters)') }, [this.#serviceParameters]));
    this.#paramError = el('div', { className: 'param-error', attrs: { role: 'alert' } });
    this.#paramError.hidden = true;
    fields.push(this.#paramError);
    const apply = el('button', { className: 'primary-button', text: l10n.t('Apply to this conversation'), attrs: { type: 'button' } });
    apply.addEventListener('click', () => {
      const params = this.#readParams();
      if (params) onApply(params);
    });
    this.#params = el('details', { className: 'params' }, [
      el('summary', { text: l10n.t('Parameters') }),
      el('div', { className: 'params-grid' }, [...fields, apply]),
    ]);
    this.root = el('header', { className: 'conversation-header' }, [
      el('div', { className: 'header-row' }, [
        this.#title,
        this.#spend,
        el('div', { className: 'header-actions', attrs: { role: 'toolbar', 'aria-label': l10n.t('Conversation actions') } }, [
          actionButton('newConversation', 'add', l10n.t('New chat')),
          actionButton('openHistory', 'history', l10n.t('Chat history')),
          actionButton('renameConversation', 'edit', l10n.t('Rename chat')),
          actionButton('exportMarkdown', 'export', l10n.t('Export as Markdown')),
        ]),
      ]),
      this.#params,
    ]);
  }

  update(conversation: ConversationHeader, environment: ChatEnvironmentView): void {
    this.#title.textContent = conversation.title;
    const { params } = conversation;
    this.#systemPrompt.value = params.systemPrompt ?? '';
    this.#systemPrompt.placeholder = environment.defaults.systemPrompt || '(none)';
    this.#serviceParameters.value = params.service_parameters ? JSON.stringify(params.service_parameters) : '';
    const inherited = environment.defaults.service_parameters;
    this.#serviceParameters.placeholder = inherited ? l10n.t('from settings: {0}', JSON.stringify(inherited)) : l10n.t('(none)');
    this.#paramError.hidden = true;
    for (const [key, input] of this.#numeric) {
      const value = params[key];
      input.value = value === undefined ? '' : String(value);
      const fallback = environment.defaults[key];
      input.placeholder = fallback === undefined ? 'model default' : String(fallback);
    }
  }

  showSpend(spend: ConversationSpend): void {
    const label = conversationSpendLabel(spend);
    this.#spend.hidden = !label;
    this.#spend.textContent = label?.text ?? '';
    if (label) this.#spend.title = label.title;
    else this.#spend.removeAttribute('title');
  }

  /** Undefined, with the reason shown beside the field, when the service parameters are not a JSON object. */
  #readParams(): ChatParams | undefined {
    const params: ChatParams = {};
    if (this.#systemPrompt.value.trim()) params.systemPrompt = this.#systemPrompt.value;
    const serviceText = this.#serviceParameters.value.trim();
    if (serviceText) {
      const parsed = parseJsonObject(serviceText);
      if (typeof parsed === 'string') {
        this.#paramError.textContent = l10n.t('Service parameters: {0}', parsed);
        this.#paramError.hidden = false;
        this.#serviceParameters.focus();
        return undefined;
      }
      params.service_parameters = parsed;
    }
    this.#paramError.hidden = true;
    for (const [key, input] of this.#numeric) {
      const value = input.value.trim() === '' ? NaN : Number(input.value);
      if (Number.isFinite(value)) params[key] = value;
    }
    return params;
  }
}

/** The object, or why the text is not a JSON object. */
function parseJsonObject(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return l10n.t('not valid JSON ({0}).', error instanceof Error ? error.message : String(error));
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : l10n.t('a JSON object is needed, like {0}.', '{"key": "value"}');
}
