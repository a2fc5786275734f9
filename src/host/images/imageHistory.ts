import type * as vscode from 'vscode';
import type { ImageInputs } from '../../core/images/imageJob';

/**
 * The choices of the last generation in an environment, for "Generate Image with Last Settings".
 * `seed` is kept only when the user typed it; a random one is drawn again each time.
 */
export type LastImageSettings = Omit<ImageInputs, 'responseFormat'>;

const LAST_KEY = (env: string) => `inference.images.last.${env}`;

/**
 * What the image commands remember per environment: the last settings (kept across restarts) and
 * the prompt of a failed generation (this window only), which prefills the next prompt box.
 */
export class ImageHistory {
  readonly #failedPrompts = new Map<string, string>();

  readonly #memento: vscode.Memento;

  constructor(memento: vscode.Memento) {
    this.#memento = memento;
  }

  last(env: string): LastImageSettings | undefined {
    const value = this.#memento.get<LastImageSettings>(LAST_KEY(env));
    return value && typeof value.model === 'string' && typeof value.prompt === 'string' ? value : undefined;
  }

  async remember(env: string, inputs: ImageInputs, seedTyped: boolean): Promise<void> {
    const settings: LastImageSettings = { prompt: inputs.prompt, model: inputs.model };
    if (inputs.width !== undefined && inputs.height !== undefined) {
      settings.width = inputs.width;
      settings.height = inputs.height;
    }
    if (seedTyped && inputs.seed !== undefined) settings.seed = inputs.seed;
    if (inputs.negativePrompt) settings.negativePrompt = inputs.negativePrompt;
    await this.#memento.update(LAST_KEY(env), settings);
  }

  failedPrompt(env: string): string | undefined {
    return this.#failedPrompts.get(env);
  }

  setFailedPrompt(env: string, prompt: string | undefined): void {
    if (prompt === undefined) this.#failedPrompts.delete(env);
    else this.#failedPrompts.set(env, prompt);
  }
}
