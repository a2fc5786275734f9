import type { ChatParams, ServiceParameters } from './protocol/chatProtocol';
import { readNumberParams } from '../numberParams';

/** Validates parameters (settings or per-conversation overrides); values out of range count as not set. */
export function sanitizeParams(raw: { [K in keyof ChatParams]?: unknown }): ChatParams {
  const params: ChatParams = readNumberParams(raw);
  if (typeof raw.systemPrompt === 'string' && raw.systemPrompt.trim()) params.systemPrompt = raw.systemPrompt;
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
