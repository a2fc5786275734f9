/**
 * Checks of a value's shape, for what crosses a trust boundary as JSON (the webview's requests): each
 * says whether an unknown value is what a declaration says it is, and nothing more.
 */

export type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const isString = (value: unknown): value is string => typeof value === 'string';
export const optional = (test: (value: unknown) => boolean) => (value: unknown) => value === undefined || test(value);
export const isFiniteNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
export const oneOf = (allowed: readonly string[]) => (value: unknown) => isString(value) && allowed.includes(value);
export const noParams = (params: Json) => Object.keys(params).length === 0;
