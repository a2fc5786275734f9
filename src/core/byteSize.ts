/** A size as people read it (also in the chat webview's image chips, so it has no Node or VS Code in it). */
export function describeBytes(bytes: number): string {
  const MIB = 1024 * 1024;
  if (bytes >= MIB) return `${Math.round((bytes / MIB) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}
