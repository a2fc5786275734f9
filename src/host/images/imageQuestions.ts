import { randomInt } from 'node:crypto';
import vscode = require('vscode');
import { AUTO_MODEL, MAX_SEED, parseSeed, parseSize, sizePresets, type ImageInputs, type ImageSize } from '../../core/images/imageJob';
import type { ImageResponseFormat } from '../../core/api/types';
import { readSetting } from '../shared/config';
import type { Services } from '../shared/services';

/** The questions ask the model service for the image model list. */
export type ImageQuestionServices = Pick<Services, 'models'>;
import type { ImageHistory } from './imageHistory';

/** What the questions produced: the inputs, and whether the seed was typed (else drawn at random). */
export interface AnsweredInputs {
  inputs: ImageInputs;
  seedTyped: boolean;
}

const STEPS = 5;
const title = (step: number, what: string) => vscode.l10n.t('Generate Image ({0}/{1}): {2}', step, STEPS, what);

export function responseFormatSetting(): ImageResponseFormat {
  return readSetting('inference.images.responseFormat') === 'url' ? 'url' : 'b64_json';
}

export function randomSeed(): number {
  return randomInt(0, MAX_SEED);
}

function selectedText(): string | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty) return undefined;
  const text = editor.document.getText(editor.selection).trim();
  return text || undefined;
}

/** The prompt box, prefilled with the editor selection, else the prompt that failed last, else the last prompt. */
export async function askPrompt(step: string, prefill: string | undefined): Promise<string | undefined> {
  const value = selectedText() ?? prefill ?? '';
  const prompt = await vscode.window.showInputBox({
    title: step,
    prompt: vscode.l10n.t('Describe the image.'),
    value,
    valueSelection: [0, value.length],
    ignoreFocusOut: true,
    validateInput: (text) => (text.trim() ? undefined : vscode.l10n.t('The prompt cannot be empty.')),
  });
  return prompt?.trim() || undefined;
}

type SizeItem = vscode.QuickPickItem & { size?: ImageSize; custom?: true };

async function askSize(last: ImageSize | undefined): Promise<{ size?: ImageSize } | undefined> {
  const setting: unknown = readSetting('inference.images.sizePresets');
  const presets = Array.isArray(setting) ? (setting as unknown[]) : [];
  const label = (size: ImageSize) => `${size.width}x${size.height}`;
  const items: SizeItem[] = [
    { label: vscode.l10n.t('Model default'), description: vscode.l10n.t('no size is sent') },
    ...sizePresets(presets).map((size) => ({ label: label(size), size })),
    { label: vscode.l10n.t('Custom size…'), custom: true },
  ];
  const lastItem = last && items.find((item) => item.size && label(item.size) === label(last));
  if (last && !lastItem) items.splice(1, 0, { label: label(last), description: vscode.l10n.t('last used'), size: last });
  const picked = await vscode.window.showQuickPick(items, {
    title: title(3, vscode.l10n.t('size')),
    placeHolder: vscode.l10n.t('Width x height; the service refuses sizes the model does not support'),
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  if (!picked.custom) return picked.size ? { size: picked.size } : {};
  const typed = await vscode.window.showInputBox({
    title: title(3, vscode.l10n.t('custom size')),
    prompt: vscode.l10n.t('Width x height in pixels, for example 640x480.'),
    ignoreFocusOut: true,
    validateInput: (text) => (parseSize(text) ? undefined : vscode.l10n.t('Type the size as WIDTHxHEIGHT, for example 640x480.')),
  });
  const size = typed === undefined ? undefined : parseSize(typed);
  return size ? { size } : undefined;
}

async function askSeed(last: number | undefined): Promise<{ seed?: number } | undefined> {
  const typed = await vscode.window.showInputBox({
    title: title(4, vscode.l10n.t('seed (optional)')),
    prompt: vscode.l10n.t('The same seed, prompt and model give the same image. Leave empty for a random seed (it is recorded in the metadata file).'),
    value: last === undefined ? '' : String(last),
    ignoreFocusOut: true,
    validateInput: (text) => {
      const parsed = parseSeed(text);
      return parsed.ok ? undefined : parsed.problem;
    },
  });
  if (typed === undefined) return undefined;
  const parsed = parseSeed(typed);
  return parsed.ok && parsed.seed !== undefined ? { seed: parsed.seed } : {};
}

/** Every question in turn; undefined when the user cancels one. */
export async function askForInputs(services: ImageQuestionServices, history: ImageHistory, env: string): Promise<AnsweredInputs | undefined> {
  const last = history.last(env);
  const prompt = await askPrompt(title(1, vscode.l10n.t('prompt')), history.failedPrompt(env) ?? last?.prompt);
  if (!prompt) return undefined;
  const model = await services.models.pick('image', env, [AUTO_MODEL]);
  if (!model) return undefined;
  const lastSize = last?.width !== undefined && last.height !== undefined ? { width: last.width, height: last.height } : undefined;
  const size = await askSize(lastSize);
  if (!size) return undefined;
  const seed = await askSeed(last?.seed);
  if (!seed) return undefined;
  const negativePrompt = await vscode.window.showInputBox({
    title: title(5, vscode.l10n.t('negative prompt (optional)')),
    prompt: vscode.l10n.t('What the image should not contain. Leave empty for none.'),
    value: last?.negativePrompt ?? '',
    ignoreFocusOut: true,
  });
  if (negativePrompt === undefined) return undefined;
  const inputs: ImageInputs = {
    prompt,
    model,
    ...size.size,
    seed: seed.seed ?? randomSeed(),
    responseFormat: responseFormatSetting(),
  };
  if (negativePrompt.trim()) inputs.negativePrompt = negativePrompt.trim();
  return { inputs, seedTyped: seed.seed !== undefined };
}

/**
 * "Generate Image with Last Settings": only the prompt is asked; model, size, seed and negative
 * prompt are the environment's last ones. Without last settings, the full questions.
 */
export async function askWithLastSettings(services: ImageQuestionServices, history: ImageHistory, env: string): Promise<AnsweredInputs | undefined> {
  const last = history.last(env);
  if (!last) return askForInputs(services, history, env);
  const prompt = await askPrompt(vscode.l10n.t('Generate Image with Last Settings: prompt'), history.failedPrompt(env) ?? last.prompt);
  if (!prompt) return undefined;
  const inputs: ImageInputs = {
    prompt,
    model: last.model,
    ...(last.width !== undefined && last.height !== undefined && { width: last.width, height: last.height }),
    seed: last.seed ?? randomSeed(),
    responseFormat: responseFormatSetting(),
    ...(last.negativePrompt && { negativePrompt: last.negativePrompt }),
  };
  return { inputs, seedTyped: last.seed !== undefined };
}
