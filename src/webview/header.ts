import type { ChatEnvironmentView, ChatParams, ConversationHeader } from '../core/chatProtocol';
import { actionButton, el } from './dom';

type NumericParam = 'temperature' | 'top_p' | 'max_tokens';

const NUMERIC: { key: NumericParam; label: string; step: string; min: string; max?: string }[] = [
  { key: 'temperature', label: 'Temperature', step: '0.1', min: '0', max: '2' },
  { key: 'top_p', label: 'Top P', step: '0.05', min: '0', max: '1' },
  { key: 'max_tokens', label: 'Max tokens', step: '1', min: '1' },
];

/**
 * Conversation title, conversation-level actions, and the per-conversation parameter overrides.
 * An empty field means "use the setting", shown as the placeholder.
 */
export class ConversationHeaderView {
  readonly root: HTMLElement;
  private readonly title: HTMLElement;
  private readonly params: HTMLDetailsElement;
  private readonly systemPrompt: HTMLTextAreaElement;
  private readonly serviceParameters: HTMLTextAreaElement;
  private readonly paramError: HTMLElement;
  private readonly numeric = new Map<NumericParam, HTMLInputElement>();

  constructor(onApply: (params: ChatParams) => void) {
    this.title = el('h1', { className: 'conversation-title', text: 'New chat' });
    this.systemPrompt = el('textarea', { className: 'param-system', attrs: { rows: '3', 'aria-label': 'System prompt for this conversation' } });
    const fields: HTMLElement[] = [el('label', { text: 'System prompt' }, [this.systemPrompt])];
    for (const spec of NUMERIC) {
      const input = el('input', { attrs: { type: 'number', step: spec.step, min: spec.min, ...(spec.max ? { max: spec.max } : {}), 'aria-label': spec.label } });
      this.numeric.set(spec.key, input);
      fields.push(el('label', { text: spec.label }, [input]));
    }
    this.serviceParameters = el('textarea', {
      className: 'param-service', attrs: { rows: '2', spellcheck: 'false', 'aria-label': 'Service parameters for this conversation, a JSON object' },
    });
    fields.push(el('label', { className: 'param-service-label', text: 'Service parameters (JSON object, sent as service_parameters)' }, [this.serviceParameters]));
    this.paramError = el('div', { className: 'param-error', attrs: { role: 'alert' } });
    this.paramError.hidden = true;
    fields.push(this.paramError);
    const apply = el('button', { className: 'primary-button', text: 'Apply to this conversation', attrs: { type: 'button' } });
    apply.addEventListener('click', () => {
      const params = this.readParams();
      if (params) onApply(params);
    });
    this.params = el('details', { className: 'params' }, [
      el('summary', { text: 'Parameters' }),
      el('div', { className: 'params-grid' }, [...fields, apply]),
    ]);
    this.root = el('header', { className: 'conversation-header' }, [
      el('div', { className: 'header-row' }, [
        this.title,
        el('div', { className: 'header-actions', attrs: { role: 'toolbar', 'aria-label': 'Conversation actions' } }, [
          actionButton('newConversation', 'add', 'New chat'),
          actionButton('openHistory', 'history', 'Chat history'),
          actionButton('renameConversation', 'edit', 'Rename chat'),
          actionButton('exportMarkdown', 'export', 'Export as Markdown'),
        ]),
      ]),
      this.params,
    ]);
  }

  update(conversation: ConversationHeader, environment: ChatEnvironmentView): void {
    this.title.textContent = conversation.title;
    const { params } = conversation;
    this.systemPrompt.value = params.systemPrompt ?? '';
    this.systemPrompt.placeholder = environment.defaults.systemPrompt || '(none)';
    this.serviceParameters.value = params.service_parameters ? JSON.stringify(params.service_parameters) : '';
    const inherited = environment.defaults.service_parameters;
    this.serviceParameters.placeholder = inherited ? `from settings: ${JSON.stringify(inherited)}` : '(none)';
    this.paramError.hidden = true;
    for (const [key, input] of this.numeric) {
      const value = params[key];
      input.value = value === undefined ? '' : String(value);
      const fallback = environment.defaults[key];
      input.placeholder = fallback === undefined ? 'model default' : String(fallback);
    }
  }

  /** Undefined, with the reason shown beside the field, when the service parameters are not a JSON object. */
  private readParams(): ChatParams | undefined {
    const params: ChatParams = {};
    if (this.systemPrompt.value.trim()) params.systemPrompt = this.systemPrompt.value;
    const serviceText = this.serviceParameters.value.trim();
    if (serviceText) {
      const parsed = parseJsonObject(serviceText);
      if (typeof parsed === 'string') {
        this.paramError.textContent = `Service parameters: ${parsed}`;
        this.paramError.hidden = false;
        this.serviceParameters.focus();
        return undefined;
      }
      params.service_parameters = parsed;
    }
    this.paramError.hidden = true;
    for (const [key, input] of this.numeric) {
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
    return `not valid JSON (${error instanceof Error ? error.message : String(error)}).`;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : 'a JSON object is needed, like {"key": "value"}.';
}
