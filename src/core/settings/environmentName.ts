import * as l10n from '@vscode/l10n';

/** Names become SecretStorage key suffixes and INFERENCE_API_KEY_<NAME> variables: keep them plain. */
export function checkEnvironmentName(name: string, existing: readonly string[] = []): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return l10n.t('The name cannot be empty.');
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/.test(trimmed)) return l10n.t('Use letters, digits, "-", "_" or "." (up to 40, starting with a letter or digit).');
  if (existing.some((other) => other.toLowerCase() === trimmed.toLowerCase())) return l10n.t('There is already an environment named "{0}".', trimmed);
  return undefined;
}
