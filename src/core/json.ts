/** A JSON object as parsed: what crosses a trust boundary (the webview, a tool's request, the service) before its checks. */
export type Json = Record<string, unknown>;

/** Whether a parsed value is a JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value of a JSON text, or undefined when it is not JSON (no JSON text parses to undefined). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Whether a parsed value is a count: a whole number, zero or more. */
export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
