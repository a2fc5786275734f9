import * as l10n from '@vscode/l10n';

/**
 * The chat parameters that are numbers, one row each: everything that reads, checks, stores, sends
 * or shows one of them loops over this table (the sanitiser, the webview message validator, the
 * stored-form reader, the request builder, the header's fields, the settings check and its defaults,
 * the language-model options). Adding one is a row here, its setting in package.json (with the same
 * bounds, which test/unit/settings/manifest.test.ts compares) and its strings in package.nls.json and
 * media/l10n. The system prompt (text) and service parameters (a JSON object) have their own readers.
 */
export interface NumberParam {
  /** Its field in the service's chat request (the contract's name), in ChatParams and in stored conversations. */
  readonly wire: string;
  /** The setting that gives its default; `null` there means "not sent" (the model's default). */
  readonly setting: `inference.chat.${string}`;
  /**
   * The one range, everywhere: the settings check refuses a value outside it, and a per-conversation
   * override, a stored conversation or a language-model option outside it counts as not set.
   */
  readonly min: number;
  readonly max: number;
  /** Whole numbers only: the settings check refuses a fraction; the other readers round it down. */
  readonly integer: boolean;
  /** How far the header field's arrows move it. */
  readonly step: number;
  /** What the settings check's message counts it in, when it counts something. */
  readonly unit?: 'tokens';
  /** Its name in the chat header; a function, because the l10n bundle is configured after modules load. */
  readonly label: () => string;
}

export const NUMBER_PARAMS = [
  { wire: 'temperature', setting: 'inference.chat.temperature', min: 0, max: 2, integer: false, step: 0.1, label: () => l10n.t('Temperature') },
  { wire: 'top_p', setting: 'inference.chat.topP', min: 0, max: 1, integer: false, step: 0.05, label: () => l10n.t('Top P') },
  // A million covers every context window offered today; the service refuses what a model cannot do.
  { wire: 'max_tokens', setting: 'inference.chat.maxTokens', min: 1, max: 1_000_000, integer: true, step: 1, unit: 'tokens', label: () => l10n.t('Max tokens') },
] as const satisfies readonly NumberParam[];

export type NumberParamName = (typeof NUMBER_PARAMS)[number]['wire'];
export type NumberParamSetting = (typeof NUMBER_PARAMS)[number]['setting'];

/** The number parameters of a request, a conversation's overrides or a set of defaults; absent means not set. */
export type NumberParamValues = { [K in NumberParamName]?: number };

/** The value as it is sent, or undefined when it is not a finite number in the parameter's range. */
export function numberParamValue(param: NumberParam, value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < param.min || value > param.max) return undefined;
  return param.integer ? Math.floor(value) : value;
}

/** The number parameters of any object (settings, an override, a stored file, a caller's options), each checked. */
export function readNumberParams(source: Readonly<Record<string, unknown>> | undefined): NumberParamValues {
  const values: NumberParamValues = {};
  for (const param of NUMBER_PARAMS) {
    const value = numberParamValue(param, source?.[param.wire]);
    if (value !== undefined) values[param.wire] = value;
  }
  return values;
}
