import vscode = require('vscode');
import { markdownLiteral } from '../../core/markdownText';
import { Disposable } from '../shared/disposable';
import type { Environments } from '../shared/environments';
import type { LocalEndpointController } from './controller';

/** Visible while the endpoint runs: its port and requests answered; the tooltip says where it forwards. */
export class LocalEndpointStatusItem extends Disposable {
  readonly #item: vscode.StatusBarItem;

  readonly #controller: LocalEndpointController;
  readonly #environments: Environments;

  constructor(controller: LocalEndpointController, environments: Environments) {
    super();
    this.#controller = controller;
    this.#environments = environments;
    this.#item = this.register(vscode.window.createStatusBarItem('inference.localEndpoint', vscode.StatusBarAlignment.Right, 99));
    this.#item.name = 'Inference: Local Endpoint';
    this.#item.command = 'inference.localEndpointMenu';
    this.register(controller.onDidChange(() => this.update()));
    this.update();
  }

  update(): void {
    const state = this.#controller.state;
    void vscode.commands.executeCommand('setContext', 'inference.localEndpointRunning', state !== undefined);
    if (!state) {
      this.#item.hide();
      return;
    }
    const env = this.#environments.active();
    this.#item.text = `$(plug) :${state.port} · ${state.served}`;
    this.#item.accessibilityInformation = { label: vscode.l10n.t('Local endpoint on port {0}, {1} requests answered', state.port, state.served) };
    // The request id comes from the service and the label from the settings: escaped, and no theme icons (see markdownLiteral).
    const tooltip = new vscode.MarkdownString();
    tooltip.appendMarkdown(`**${vscode.l10n.t('Inference: Local Endpoint')}**\n\n`);
    tooltip.appendMarkdown([
      vscode.l10n.t('OpenAI-protocol base URL: {0}', `\`${state.origin}/v1\``),
      vscode.l10n.t('Anthropic-protocol base URL: {0}', `\`${state.origin}\``),
      vscode.l10n.t('Forwards to: {0}', markdownLiteral(env.label)),
      vscode.l10n.t('Requests answered: {0}', state.served),
      vscode.l10n.t('Last request: {0}', state.lastRequestId ? markdownLiteral(state.lastRequestId) : vscode.l10n.t('none yet')),
    ].join('  \n'));
    tooltip.appendMarkdown(`\n\n${vscode.l10n.t('Click to copy the base URL, stop the endpoint or open the logs.')}`);
    this.#item.tooltip = tooltip;
    this.#item.show();
  }

  /** What the item shows, as text (for tests). */
  snapshot(): { visible: boolean; text: string; tooltip: string } {
    const tooltip = this.#item.tooltip;
    return { visible: this.#controller.state !== undefined, text: this.#item.text, tooltip: typeof tooltip === 'string' ? tooltip : tooltip?.value ?? '' };
  }
}
