import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import type { Environments } from '../environments';
import type { LocalEndpointController } from './controller';

/** Visible while the endpoint runs: its port and requests answered; the tooltip says where it forwards. */
export class LocalEndpointStatusItem extends Disposable {
  readonly #item: vscode.StatusBarItem;

  constructor(private readonly controller: LocalEndpointController, private readonly environments: Environments) {
    super();
    this.#item = this.register(vscode.window.createStatusBarItem('inference.localEndpoint', vscode.StatusBarAlignment.Right, 99));
    this.#item.name = 'Inference: Local Endpoint';
    this.#item.command = 'inference.localEndpointMenu';
    this.register(controller.onDidChange(() => this.update()));
    this.update();
  }

  update(): void {
    const state = this.controller.state;
    void vscode.commands.executeCommand('setContext', 'inference.localEndpointRunning', state !== undefined);
    if (!state) {
      this.#item.hide();
      return;
    }
    const env = this.environments.active();
    this.#item.text = `$(plug) :${state.port} · ${state.served}`;
    this.#item.accessibilityInformation = { label: `Local endpoint on port ${state.port}, ${state.served} requests answered` };
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown('**Inference: Local Endpoint**\n\n');
    tooltip.appendMarkdown([
      `OpenAI-protocol base URL: \`${state.origin}/v1\``,
      `Anthropic-protocol base URL: \`${state.origin}\``,
      `Forwards to: ${env.label}`,
      `Requests answered: ${state.served}`,
      `Last request: ${state.lastRequestId ? `\`${state.lastRequestId}\`` : 'none yet'}`,
    ].join('  \n'));
    tooltip.appendMarkdown('\n\nClick to copy the base URL, stop the endpoint or open the logs.');
    this.#item.tooltip = tooltip;
    this.#item.show();
  }

  /** What the item shows, as text (for tests). */
  snapshot(): { visible: boolean; text: string; tooltip: string } {
    const tooltip = this.#item.tooltip;
    return { visible: this.controller.state !== undefined, text: this.#item.text, tooltip: typeof tooltip === 'string' ? tooltip : tooltip?.value ?? '' };
  }
}
