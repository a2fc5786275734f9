import vscode = require('vscode');
import type { Registered } from '../shared/disposable';
import type { Services } from '../shared/services';
import { LocalEndpointController, type EndpointControllerServices } from './controller';
import { LocalEndpointStatusItem } from './statusItem';
import { createEndpointToken, manageEndpointTokens, type EndpointTokenListServices } from './tokenCommands';

export { LocalEndpointController, type EndpointState } from './controller';
export { LocalEndpointStatusItem } from './statusItem';

/** Shows the token once, with Copy: it is not kept anywhere else, and the next start makes a new one. */
async function announce(origin: string, token: string): Promise<void> {
  const copyToken = vscode.l10n.t('Copy Token');
  const copyBaseUrl = vscode.l10n.t('Copy Base URL');
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t('Local endpoint running at {0} (OpenAI protocol: {0}/v1). Use this token as the API key; it is shown only now and changes at every start: {1}', origin, token),
    copyToken, copyBaseUrl,
  );
  if (choice === copyToken) await vscode.env.clipboard.writeText(token);
  if (choice === copyBaseUrl) await vscode.env.clipboard.writeText(`${origin}/v1`);
}

/** The controller's services, the named tokens and the status item's environment. */
export type LocalEndpointServices = EndpointControllerServices & EndpointTokenListServices & Pick<Services, 'endpointTokens' | 'environments' | 'log'>;

async function showMenu(services: Pick<Services, 'log'>, controller: LocalEndpointController): Promise<void> {
  const state = controller.state;
  if (!state) return;
  const items = [
    { label: `$(copy) ${vscode.l10n.t('Copy OpenAI-Protocol Base URL')}`, run: () => vscode.env.clipboard.writeText(`${state.origin}/v1`) },
    { label: `$(copy) ${vscode.l10n.t('Copy Anthropic-Protocol Base URL')}`, run: () => vscode.env.clipboard.writeText(state.origin) },
    { label: `$(key) ${vscode.l10n.t('Endpoint Tokens…')}`, run: () => vscode.commands.executeCommand('inference.manageEndpointTokens') },
    { label: `$(debug-restart) ${vscode.l10n.t('Restart with a New Token')}`, run: () => vscode.commands.executeCommand('inference.startLocalEndpoint') },
    { label: `$(debug-stop) ${vscode.l10n.t('Stop Local Endpoint')}`, run: () => vscode.commands.executeCommand('inference.stopLocalEndpoint') },
    { label: `$(output) ${vscode.l10n.t('Show Logs')}`, run: () => services.log.show(true) },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Local endpoint on port {0}', state.port) });
  await picked?.run();
}

/** Start / Stop Local Endpoint, its status-bar item and menu. Off until started; stopped with the window. */
export function registerLocalEndpoint(services: LocalEndpointServices): Registered<{ controller: LocalEndpointController; statusItem: LocalEndpointStatusItem }> {
  const tokens = services.endpointTokens;
  const controller = new LocalEndpointController(services, tokens);
  const statusItem = new LocalEndpointStatusItem(controller, services.environments);
  const disposable = vscode.Disposable.from(
    controller,
    statusItem,
    vscode.commands.registerCommand('inference.startLocalEndpoint', async () => {
      try {
        const { origin, token } = await controller.start();
        void announce(origin, token);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        services.log.error(`local endpoint: ${message}`);
        void vscode.window.showErrorMessage(message, vscode.l10n.t('Open Settings')).then((choice) => {
          if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'inference.localEndpoint.port');
        });
      }
    }),
    vscode.commands.registerCommand('inference.stopLocalEndpoint', async () => {
      if (!(await controller.stop())) void vscode.window.showInformationMessage(vscode.l10n.t('The local endpoint is not running.'));
    }),
    vscode.commands.registerCommand('inference.localEndpointMenu', () => showMenu(services, controller)),
    vscode.commands.registerCommand('inference.createEndpointToken', () => createEndpointToken(tokens)),
    vscode.commands.registerCommand('inference.manageEndpointTokens', () => manageEndpointTokens(services, tokens)),
    vscode.commands.registerCommand('inference.revokeEndpointToken', () => manageEndpointTokens(services, tokens)),
  );
  return Object.assign(disposable, { controller, statusItem });
}
