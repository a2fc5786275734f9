/** A JSON object as parsed: what crosses a trust boundary (the webview, a tool's request, the service) before its checks. */
export type Json = Record<string, unknown>;

/** Whether a parsed value is a JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
