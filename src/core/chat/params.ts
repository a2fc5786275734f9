import type { ChatParams } from '../chatProtocol';

function finite(value: unknown, min: number, max: number): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max ? value : undefined;
}

/** Validates parameters (settings or per-conversation overrides); values out of range count as not set. */
export function sanitizeParams(raw: { [K in keyof ChatParams]?: unknown }): ChatParams {
  const params: ChatParams = {};
  if (typeof raw.systemPrompt === 'string' && raw.systemPrompt.trim()) params.systemPrompt = raw.systemPrompt;
  const temperature = finite(raw.temperature, 0, 2);
  if (temperature !== undefined) params.temperature = temperature;
  const topP = finite(raw.top_p, 0, 1);
  if (topP !== undefined) params.top_p = topP;
  const maxTokens = finite(raw.max_tokens, 1, Number.MAX_SAFE_INTEGER);
  if (maxTokens !== undefined) params.max_tokens = Math.floor(maxTokens);
  return params;
}
