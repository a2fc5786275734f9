import vscode = require('vscode');
import { readSetting } from '../shared/config';
import type { Registered } from '../shared/disposable';
import { InferenceChatModelProvider, VENDOR, type LanguageModelServices } from './provider';

/**
 * Offers the service's chat models to VS Code's chat, agent mode and other extensions, where the host
 * has the language model provider API (VS Code 1.104+). Hosts without it (some web builds) simply get
 * no provider: this never fails activation.
 */
export function registerLanguageModels(services: LanguageModelServices): Registered<{ provider: InferenceChatModelProvider | undefined }> {
  const none = Object.assign(new vscode.Disposable(() => undefined), { provider: undefined });
  if (!readSetting('inference.languageModels.enabled')) {
    services.log.info('Language models: not offered to VS Code\'s chat ("inference.languageModels.enabled" is off).');
    return none;
  }
  const lm = (vscode as { lm?: Partial<typeof vscode.lm> }).lm;
  if (typeof lm?.registerLanguageModelChatProvider !== 'function') {
    services.log.info('Language models: this VS Code has no language model provider API; the models are offered in the chat panel only.');
    return none;
  }
  const provider = new InferenceChatModelProvider(services);
  try {
    return Object.assign(vscode.Disposable.from(lm.registerLanguageModelChatProvider(VENDOR, provider), provider), { provider });
  } catch (error) {
    provider.dispose();
    services.log.warn(`Language models: could not register the provider: ${error instanceof Error ? error.message : String(error)}`);
    return none;
  }
}
