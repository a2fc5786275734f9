/**
 * What VS Code's language model API wants to know about a model that the service does not publish
 * (limits, capabilities, family, version): defaults, overridable per model id in a setting.
 */

export interface ModelProfile {
  id: string;
  name: string;
  family: string;
  version: string;
  maxInputTokens: number;
  maxOutputTokens: number;
  toolCalling: boolean;
}

/** One entry of `inference.languageModels.overrides`; `"*"` applies to every model, an id to one. */
export interface ModelOverride {
  name?: string;
  maxInputTokens?: number;
  maxOutputTokens?: number;
  toolCalling?: boolean;
}

export const DEFAULT_MAX_INPUT_TOKENS = 64_000;
export const DEFAULT_MAX_OUTPUT_TOKENS = 4_096;

const VERSION_SUFFIX = [
  /^(.+?)[-_@](\d{4}-\d{2}-\d{2}|\d{8})$/, // gpt-4o-2024-08-06, claude-3-5-sonnet-20241022
  /^(.+?)[:@]([^:@]+)$/, // llama3.1:8b, model@2
  /^(.+?)-(latest|preview|beta|alpha|exp|experimental)$/i, // mistral-large-latest, emu-chat-large-preview
];

/** Family and version from a model id: an owner prefix (`owner/`) is dropped, a version-like suffix split off. */
export function familyAndVersion(id: string): { family: string; version: string } {
  const base = id.slice(id.lastIndexOf('/') + 1) || id;
  for (const pattern of VERSION_SUFFIX) {
    const match = pattern.exec(base);
    if (match?.[1] && match[2]) return { family: match[1], version: match[2] };
  }
  return { family: base, version: id };
}

function positiveInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/** Reads one override from untrusted settings JSON, keeping only well-typed fields. */
function readOverride(value: unknown): ModelOverride {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const record = value as Record<string, unknown>;
  const override: ModelOverride = {};
  if (typeof record.name === 'string' && record.name.trim()) override.name = record.name.trim();
  const maxInput = positiveInteger(record.maxInputTokens);
  if (maxInput !== undefined) override.maxInputTokens = maxInput;
  const maxOutput = positiveInteger(record.maxOutputTokens);
  if (maxOutput !== undefined) override.maxOutputTokens = maxOutput;
  if (typeof record.toolCalling === 'boolean') override.toolCalling = record.toolCalling;
  return override;
}

/** The profile of a model: defaults, then the `"*"` override, then the model's own. */
export function modelProfile(id: string, overrides: unknown): ModelProfile {
  const table = overrides && typeof overrides === 'object' && !Array.isArray(overrides) ? (overrides as Record<string, unknown>) : {};
  const merged: ModelOverride = { ...readOverride(table['*']), ...readOverride(table[id]) };
  return {
    id,
    name: merged.name ?? id,
    ...familyAndVersion(id),
    maxInputTokens: merged.maxInputTokens ?? DEFAULT_MAX_INPUT_TOKENS,
    maxOutputTokens: merged.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
    toolCalling: merged.toolCalling ?? true,
  };
}

const TOOL_WORDS = /\b(tools?|tool_choice|tool_calls|function[ _]?call(ing|s)?|functions)\b/i;

/**
 * Whether a refused request tells us the model cannot take tools: a 400/422 whose message or code names
 * them. A request without tools is never blamed on them.
 */
export function refusesTools(error: { kind: string; serviceMessage?: string; serviceCode?: string }, requestHadTools: boolean): boolean {
  if (!requestHadTools || error.kind !== 'badRequest') return false;
  return TOOL_WORDS.test(`${error.serviceMessage ?? ''} ${(error.serviceCode ?? '').replace(/_/g, ' ')} ${error.serviceCode ?? ''}`);
}
