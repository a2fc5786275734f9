/**
 * Whether a document may be sent for a suggestion, decided from facts the host gathers: nothing of a
 * file the user keeps secrets in, of a file outside the workspace, of a file too large to be worth a
 * request, or of an untrusted workspace (unless the user allowed it) ever leaves the machine.
 * Pure, so that each rule is tested without an editor.
 */

/** Files whose text is never sent: keys, certificates, environment files, credential stores. */
export const DEFAULT_EXCLUDED_FILES: readonly string[] = [
  '**/.env', '**/.env.*', '**/*.env', '**/*.pem', '**/*.key', '**/*.p12', '**/*.pfx', '**/*.keystore', '**/*.jks',
  '**/id_rsa*', '**/id_dsa*', '**/id_ecdsa*', '**/id_ed25519*', '**/.npmrc', '**/.pypirc', '**/.netrc',
  '**/credentials*', '**/secrets.*', '**/*.secret*',
];

/** Languages in which suggestions cost more than they help, or where VS Code's own inputs are (the commit message box). */
export const DEFAULT_DISABLED_LANGUAGES: readonly string[] = ['plaintext', 'markdown', 'scminput'];

export const DEFAULT_MAX_FILE_KB = 512;
export const MAX_FILE_KB = 102_400;
export const DEFAULT_DEBOUNCE_MS = 350;
export const MIN_DEBOUNCE_MS = 50;
export const MAX_DEBOUNCE_MS = 5_000;

/** The pause the suggester waits out: a value out of range (the settings check reports it) is taken to its nearest bound. */
export function debounceMsOf(setting: number): number {
  return Number.isFinite(setting) ? Math.min(MAX_DEBOUNCE_MS, Math.max(MIN_DEBOUNCE_MS, setting)) : DEFAULT_DEBOUNCE_MS;
}

export interface DocumentFacts {
  readonly languageId: string;
  /** UTF-16 code units of the document's text. */
  readonly length: number;
  /** In a workspace folder, or an untitled buffer (not a file anywhere). */
  readonly inWorkspace: boolean;
  /** Matches one of the user's excluded-file globs. */
  readonly excluded: boolean;
}

export interface EligibilityRules {
  readonly disabledLanguages: readonly string[];
  readonly maxFileKB: number;
  readonly workspaceTrusted: boolean;
  readonly allowUntrusted: boolean;
}

export type Ineligible = 'untrusted' | 'outsideWorkspace' | 'excluded' | 'language' | 'tooLarge';

/** Why nothing of this document may be sent; undefined when it may. The order puts the safety rules first. */
export function whyNotEligible(facts: DocumentFacts, rules: EligibilityRules): Ineligible | undefined {
  if (!rules.workspaceTrusted && !rules.allowUntrusted) return 'untrusted';
  if (!facts.inWorkspace) return 'outsideWorkspace';
  if (facts.excluded) return 'excluded';
  if (rules.disabledLanguages.includes(facts.languageId)) return 'language';
  // A character is at most 3 bytes of UTF-8 in the BMP; the length is the cheap bound the editor has at hand.
  if (facts.length > rules.maxFileKB * 1024) return 'tooLarge';
  return undefined;
}
