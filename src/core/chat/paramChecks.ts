import type { Json } from '../json';

/**
 * Checks of a value's shape, for what crosses a trust boundary as JSON (the webview's requests): each
 * says whether an unknown value is what a declaration says it is, and nothing more (`isRecord` is core/json.ts).
 */

export const isString = (value: unknown): value is string => typeof value === 'string';
export const optional = (test: (value: unknown) => boolean) => (value: unknown) => value === undefined || test(value);
export const isFiniteNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
export const oneOf = (allowed: readonly string[]) => (value: unknown) => isString(value) && allowed.includes(value);
export const noParams = (params: Json) => Object.keys(params).length === 0;
