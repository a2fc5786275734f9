import { MAX_DEBOUNCE_MS, MAX_FILE_KB, MIN_DEBOUNCE_MS } from '../suggestions/eligibility';
import * as l10n from '@vscode/l10n';
import { NUMBER_PARAMS, type NumberParam } from '../numberParams';
import { checkAlternateBaseUrl, checkBaseUrl } from '../api/baseUrl';

/** What a bad setting stops: every request, only chat, only images, or nothing (display only). */
export type Blocks = 'all' | 'chat' | 'image' | 'nothing';

export interface SettingProblem {
  /** Full setting id, e.g. `inference.timeouts.connectSeconds`. */
  setting: string;
  /** One sentence naming the setting, what is wrong and how to fix it. */
  message: string;
  blocks: Blocks;
  /** Set when the problem concerns one environment only: requests to the others go on. */
  environment?: string;
}

/** One environment as the user configured it, with what is wrong with it (if anything). */
export interface CheckedEnvironment {
  name: string;
  baseUrl: string;
  keyPrefix: string;
  label: string;
  /** scheme://host[:port] when the base URL is valid. */
  origin?: string;
  /** Equivalent base URLs tried when the primary fails (`baseUrls`), each checked; [] when none. */
  alternateBaseUrls?: string[];
  /** The origin of every host, the primary's first: the set a key is bound to. */
  origins?: string[];
  problem?: SettingProblem;
}

const ENVIRONMENTS = 'inference.environments';
const ACTIVE = 'inference.activeEnvironment';

/** Functions, not constants: text is translated when a problem is found, after activation configured the bundle. */
function consequence(blocks: Blocks): string {
  switch (blocks) {
    case 'nothing': return l10n.t('The default is used until it is fixed.');
    case 'chat': return l10n.t('No chat request is sent until it is fixed.');
    case 'image': return l10n.t('No image request is sent until it is fixed.');
    case 'all': return l10n.t('Nothing is sent until it is fixed.');
  }
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** The user's environments, each checked; a malformed entry is listed (so it can be fixed) but never used. */
export function checkEnvironments(raw: unknown): { environments: CheckedEnvironment[]; problems: SettingProblem[] } {
  if (raw === undefined || raw === null) return { environments: [], problems: [] };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { environments: [], problems: [{ setting: ENVIRONMENTS, blocks: 'all', message: l10n.t('Setting "{0}" must be an object of named environments, not {1}. {2}', ENVIRONMENTS, show(raw), consequence('all')) }] };
  }
  const environments = Object.entries(raw as Record<string, unknown>).map(([name, value]): CheckedEnvironment => {
    const entry = (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
    const label = typeof entry.label === 'string' && entry.label.trim() ? entry.label.trim() : name;
    const env: CheckedEnvironment = {
      name,
      baseUrl: typeof entry.baseUrl === 'string' ? entry.baseUrl.trim() : '',
      keyPrefix: typeof entry.keyPrefix === 'string' ? entry.keyPrefix.trim() : '',
      label,
    };
    const fail = (what: string): CheckedEnvironment => ({
      ...env,
      problem: { setting: ENVIRONMENTS, environment: name, blocks: 'all', message: l10n.t('Setting "{0}": {1}. Nothing is sent to "{2}" until it is fixed.', ENVIRONMENTS, what, name) },
    });
    if (entry !== value) return fail(l10n.t('the environment "{0}" must be an object with a "baseUrl", not {1}', name, show(value)));
    if (entry.keyPrefix !== undefined && typeof entry.keyPrefix !== 'string') return fail(l10n.t('the "keyPrefix" of "{0}" must be text', name));
    const url = checkBaseUrl(entry.baseUrl);
    if (!url.ok) return fail(l10n.t('the base URL of "{0}" {1}', name, url.problem));
    if (entry.baseUrls !== undefined && !Array.isArray(entry.baseUrls)) return fail(l10n.t('the "baseUrls" of "{0}" must be a list of alternate base URLs', name));
    const origins = [url.origin];
    const alternateBaseUrls: string[] = [];
    for (const raw of (entry.baseUrls ?? []) as unknown[]) {
      const alternate = checkAlternateBaseUrl(raw, url.baseUrl, origins);
      if (!alternate.ok) return fail(l10n.t('the alternate base URL of "{0}" {1}', name, alternate.problem));
      origins.push(alternate.origin);
      alternateBaseUrls.push(alternate.baseUrl);
    }
    return { ...env, baseUrl: url.baseUrl, origin: url.origin, alternateBaseUrls, origins };
  });
  return { environments, problems: environments.flatMap((env) => (env.problem ? [env.problem] : [])) };
}

/** Empty means "the first environment"; a name that is not configured is a problem, never a silent fallback. */
export function checkActiveEnvironment(raw: unknown, names: readonly string[]): SettingProblem | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw === 'string' && names.includes(raw)) return undefined;
  const known = names.length > 0
    ? l10n.t('configured: {0}', names.map((name) => `"${name}"`).join(', '))
    : l10n.t('none is configured yet: run "Inference: Add Environment"');
  return { setting: ACTIVE, blocks: 'all', message: l10n.t('Setting "{0}" names {1}, which is not in "{2}" ({3}). {4}', ACTIVE, show(raw), ENVIRONMENTS, known, consequence('all')) };
}

interface NumberRule {
  min: number;
  max: number;
  integer?: boolean;
  /** null means "not set" for this setting. */
  nullable?: boolean;
  unit?: Unit;
  blocks: Blocks;
}

type Unit = 'credits' | 'retries' | 'minutes' | 'seconds' | 'tokens';

/** "a whole number of minutes", per unit: whole phrases, so a translation can inflect them. */
function numberKind(integer: boolean, unit: Unit | undefined): string {
  switch (unit) {
    case 'credits': return integer ? l10n.t('a whole number of credits') : l10n.t('a number of credits');
    case 'retries': return integer ? l10n.t('a whole number of retries') : l10n.t('a number of retries');
    case 'minutes': return integer ? l10n.t('a whole number of minutes') : l10n.t('a number of minutes');
    case 'seconds': return integer ? l10n.t('a whole number of seconds') : l10n.t('a number of seconds');
    case 'tokens': return integer ? l10n.t('a whole number of tokens') : l10n.t('a number of tokens');
    case undefined: return integer ? l10n.t('a whole number') : l10n.t('a number');
  }
}

/** Ranges of the numeric settings; package.json declares the same bounds so the Settings editor shows them. */
export const NUMBER_RULES: Readonly<Record<string, NumberRule>> = {
  'inference.balanceWarningThreshold': { min: 0, max: 1e12, unit: 'credits', blocks: 'nothing' },
  'inference.rateLimit.maxRetries': { min: 0, max: 10, integer: true, unit: 'retries', blocks: 'all' },
  'inference.modelCacheMinutes': { min: 0, max: 10_080, unit: 'minutes', blocks: 'all' },
  'inference.timeouts.connectSeconds': { min: 1, max: 600, unit: 'seconds', blocks: 'all' },
  'inference.timeouts.responseSeconds': { min: 1, max: 7200, unit: 'seconds', blocks: 'all' },
  'inference.timeouts.idleSeconds': { min: 1, max: 7200, unit: 'seconds', blocks: 'all' },
  'inference.chat.maxContextCharacters': { min: 1000, max: 10_000_000, integer: true, blocks: 'nothing' },
  // Out of range, the budget fails closed (core/usage/spendBudget.ts: a budget of 0) and this says why.
  'inference.suggestions.dailyBudgetCredits': { min: 0, max: 1_000_000, nullable: true, unit: 'credits', blocks: 'nothing' },
  // Out of range, the nearest bound is used (core/suggestions/eligibility.ts): never a request per keystroke.
  'inference.suggestions.debounceMs': { min: MIN_DEBOUNCE_MS, max: MAX_DEBOUNCE_MS, integer: true, blocks: 'nothing' },
  'inference.suggestions.maxFileSizeKB': { min: 1, max: MAX_FILE_KB, integer: true, blocks: 'nothing' },
  // The chat parameters' defaults: null sends none (the model's default).
  ...Object.fromEntries(NUMBER_PARAMS.map(({ setting, min, max, integer, unit }: NumberParam): [string, NumberRule] => [setting, { min, max, integer, unit, nullable: true, blocks: 'chat' }])),
};

export function checkNumberSetting(id: string, value: unknown): SettingProblem | undefined {
  const rule = NUMBER_RULES[id];
  if (!rule || value === undefined || (rule.nullable && value === null)) return undefined;
  const ok = typeof value === 'number' && Number.isFinite(value) && value >= rule.min && value <= rule.max && (!rule.integer || Number.isInteger(value));
  if (ok) return undefined;
  const kind = numberKind(rule.integer === true, rule.unit);
  const [min, max] = [rule.min.toLocaleString('en-US'), rule.max.toLocaleString('en-US')];
  const range = rule.nullable ? l10n.t('{0} from {1} to {2}, or null for the default', kind, min, max) : l10n.t('{0} from {1} to {2}', kind, min, max);
  return { setting: id, blocks: rule.blocks, message: l10n.t('Setting "{0}" is {1}: it must be {2}. {3}', id, show(value), range, consequence(rule.blocks)) };
}

export const MAX_IMAGE_SIDE = 16_384;

export function checkSizePresets(value: unknown): SettingProblem | undefined {
  const id = 'inference.images.sizePresets';
  if (value === undefined) return undefined;
  const fail = (what: string): SettingProblem => ({ setting: id, blocks: 'image', message: l10n.t('Setting "{0}" {1}. {2}', id, what, consequence('image')) });
  if (!Array.isArray(value)) return fail(l10n.t('must be a list of sizes like ["1024x768"], not {0}', show(value)));
  for (const item of value) {
    const match = typeof item === 'string' ? /^\s*(\d+)\s*[xX×]\s*(\d+)\s*$/.exec(item) : null;
    const fits = match && [match[1], match[2]].every((side) => Number(side) >= 1 && Number(side) <= MAX_IMAGE_SIDE);
    if (!fits) return fail(l10n.t('contains {0}: each size is WIDTHxHEIGHT with sides from 1 to {1}, e.g. "1024x768"', show(item), MAX_IMAGE_SIDE));
  }
  return undefined;
}

function checkChoice(id: string, value: unknown, choices: readonly string[], blocks: Blocks): SettingProblem | undefined {
  if (value === undefined || (typeof value === 'string' && choices.includes(value))) return undefined;
  return { setting: id, blocks, message: l10n.t('Setting "{0}" is {1}: it must be one of {2}. {3}', id, show(value), choices.map((choice) => `"${choice}"`).join(', '), consequence(blocks)) };
}

function checkType(id: string, value: unknown, type: 'string' | 'boolean', blocks: Blocks): SettingProblem | undefined {
  if (value === undefined || typeof value === type) return undefined;
  const message = type === 'string'
    ? l10n.t('Setting "{0}" must be text, not {1}. {2}', id, show(value), consequence(blocks))
    : l10n.t('Setting "{0}" must be true or false, not {1}. {2}', id, show(value), consequence(blocks));
  return { setting: id, blocks, message };
}

/**
 * Every problem in the extension's settings (values as the user set them; undefined = not set).
 * One entry per bad setting (per environment for `inference.environments`), so the host can show each once.
 */
export function checkSettings(values: Readonly<Record<string, unknown>>): SettingProblem[] {
  const { environments, problems } = checkEnvironments(values[ENVIRONMENTS]);
  // Environments that are not a list of names cannot tell whether the active one exists: one message, theirs.
  const unreadable = problems.some((problem) => problem.environment === undefined);
  const active = unreadable ? undefined : checkActiveEnvironment(values[ACTIVE], environments.map((env) => env.name));
  return [
    ...problems,
    ...(active ? [active] : []),
    ...Object.keys(NUMBER_RULES).map((id) => checkNumberSetting(id, values[id])),
    checkSizePresets(values['inference.images.sizePresets']),
    checkChoice('inference.images.responseFormat', values['inference.images.responseFormat'], ['b64_json', 'url'], 'image'),
    checkType('inference.images.folder', values['inference.images.folder'], 'string', 'image'),
    checkType('inference.chat.systemPrompt', values['inference.chat.systemPrompt'], 'string', 'chat'),
    checkType('inference.readBalanceAfterAnswer', values['inference.readBalanceAfterAnswer'], 'boolean', 'nothing'),
    checkType('inference.chat.refreshBalanceAfterAnswer', values['inference.chat.refreshBalanceAfterAnswer'], 'boolean', 'nothing'),
  ].filter((problem): problem is SettingProblem => problem !== undefined);
}

/** The problems that stop a request of this kind to this environment. */
export function problemsBlocking(problems: readonly SettingProblem[], purpose: 'chat' | 'image' | 'other', environment: string): SettingProblem[] {
  return problems.filter((problem) =>
    (problem.blocks === 'all' || problem.blocks === purpose)
    && (problem.environment === undefined || problem.environment === environment));
}
