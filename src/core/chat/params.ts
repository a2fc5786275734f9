import type { ChatParams, ServiceParameters } from '../chatProtocol';

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
  const serviceParameters = asServiceParameters(raw.service_parameters);
  if (serviceParameters && Object.keys(serviceParameters).length > 0) params.service_parameters = serviceParameters;
  return params;
}

/**
 * A JSON object, copied so that later edits of the source cannot change it; anything else (an array,
 * a string, a value JSON cannot carry) is not service parameters.
 */
export function asServiceParameters(value: unknown): ServiceParameters | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  try {
    return JSON.parse(JSON.stringify(value)) as ServiceParameters;
  } catch {
    return undefined;
  }
}

/** Later layers win key by key: environment, then model, then conversation. */
export function mergeServiceParameters(...layers: (ServiceParameters | undefined)[]): ServiceParameters | undefined {
  const merged: ServiceParameters = {};
  for (const layer of layers) Object.assign(merged, layer);
  return Object.keys(merged).length > 0 ? merged : undefined;
}
