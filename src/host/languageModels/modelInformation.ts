import vscode = require('vscode');
import { modelProfile } from '../../core/languageModels/modelInfo';
import { readSetting } from '../shared/config';
import type { Environment } from '../shared/environments';

export { VENDOR } from './vendor';

/**
 * What VS Code keeps for each model. `isUserSelectable` is not in @types/vscode 1.104, but newer VS Code
 * hides provider models from the chat model picker unless it is set, and ignores it where unknown.
 */
export interface InferenceModelInformation extends vscode.LanguageModelChatInformation {
  /** The environment whose model list this came from: requests go there, with that environment's key. */
  readonly environment: string;
  readonly isUserSelectable: boolean;
}

/**
 * Which models get tools: those the override setting leaves them on for, minus those whose service
 * refused them (a 400 naming tools) in this session.
 */
export class ToolSupport {
  /** `env \n model` of models whose service refused tools this session. */
  readonly #refused = new Set<string>();

  enabled(envName: string, modelId: string): boolean {
    return modelProfile(modelId, readSetting('inference.languageModels.overrides')).toolCalling && !this.#refused.has(`${envName}\n${modelId}`);
  }

  refuse(envName: string, modelId: string): void {
    this.#refused.add(`${envName}\n${modelId}`);
  }
}

/** One of the environment's chat models as VS Code shows it: limits and names from the profile (defaults plus overrides). */
export function modelInformation(id: string, env: Environment, tools: ToolSupport): InferenceModelInformation {
  const profile = modelProfile(id, readSetting('inference.languageModels.overrides'));
  return {
    id,
    name: profile.name,
    family: profile.family,
    version: profile.version,
    detail: env.label,
    tooltip: vscode.l10n.t('{0} from the {1} environment of the inference service; usage is billed to that environment\'s wallet.', id, env.label),
    maxInputTokens: profile.maxInputTokens,
    maxOutputTokens: profile.maxOutputTokens,
    capabilities: { toolCalling: tools.enabled(env.name, id), imageInput: false },
    isUserSelectable: true,
    environment: env.name,
  };
}
