import vscode = require('vscode');
import { readSetting } from '../shared/config';
import type { Registered } from '../shared/disposable';
import { InferenceChatModelProvider, type LanguageModelServices } from './provider';

/**
 * Offers the service's chat models to VS Code's chat, agent mode and other extensions, through the
 * provider the shell registered (host/shell/standIns.ts) where the setting leaves it on and VS Code has
 * the language model provider API (1.104+; some web builds have none): this never fails activation.
 */
export function registerLanguageModels(services: LanguageModelServices, registeredByShell: boolean): Registered<{ provider: InferenceChatModelProvider | undefined }> {
  if (!registeredByShell) {
    services.log.info(readSetting('inference.languageModels.enabled')
      ? 'Language models: this VS Code has no language model provider API (or refused the provider); the models are offered in the chat panel only.'
      : 'Language models: not offered to VS Code\'s chat ("inference.languageModels.enabled" is off).');
    return Object.assign(new vscode.Disposable(() => undefined), { provider: undefined });
  }
  const provider = new InferenceChatModelProvider(services);
  return { provider, dispose: () => provider.dispose() };
}
