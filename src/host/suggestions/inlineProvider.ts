import vscode = require('vscode');
import { whyNotEligible, type DocumentFacts, type Ineligible } from '../../core/suggestions/eligibility';
import type { Suggester, SuggestionPlace } from '../../core/suggestions/suggester';
import { readSetting } from '../shared/config';
import type { RecentEdits } from './recentEdits';

/** The command an accepted suggestion runs (VS Code runs an item's command after inserting it). */
export const SUGGESTION_ACCEPTED_COMMAND = 'inference.suggestionAccepted';

/**
 * Text read around the cursor: more than the prompt's windows and the cache's keys need
 * (core/suggestions/prompt.ts, suggestionCache.ts), and bounded, so that a large file costs the same.
 */
const READ_BEFORE_CHARS = 6_000;
const READ_AFTER_CHARS = 2_000;

/** Whether suggestions may be asked now at all (on, not snoozed, not paused, a model picked): the shell's state. */
export interface SuggestionsGate {
  readonly on: boolean;
  readonly environment: string;
}

/** What the provider reports beyond the items it returns. */
export interface ProviderEvents {
  shown(environment: string): void;
  /** A document nothing may be sent of, with why (logged once per document and reason). */
  skipped(document: vscode.TextDocument, why: Ineligible): void;
}

/**
 * VS Code's inline completion provider: decides what of the document may leave the machine
 * (core/suggestions/eligibility.ts), reads the text around the cursor, and hands the place to the
 * suggester; its cancellation token (the next keystroke or cursor move) aborts the request.
 */
export class InlineSuggestionProvider implements vscode.InlineCompletionItemProvider {
  readonly #suggester: Suggester;
  readonly #gate: () => SuggestionsGate;
  readonly #recentEdits: RecentEdits;
  readonly #events: ProviderEvents;

  constructor(suggester: Suggester, gate: () => SuggestionsGate, recentEdits: RecentEdits, events: ProviderEvents) {
    this.#suggester = suggester;
    this.#gate = gate;
    this.#recentEdits = recentEdits;
    this.#events = events;
  }

  async provideInlineCompletionItems(
    document: vscode.TextDocument, position: vscode.Position, context: vscode.InlineCompletionContext, token: vscode.CancellationToken,
  ): Promise<vscode.InlineCompletionItem[] | undefined> {
    const gate = this.#gate();
    // The suggestion widget is open: VS Code shows its item, and a ghost text would fight it.
    if (!gate.on || context.selectedCompletionInfo) return undefined;
    const why = whyNotSent(document);
    if (why) {
      this.#events.skipped(document, why);
      return undefined;
    }
    const abort = new AbortController();
    const subscription = token.onCancellationRequested(() => abort.abort());
    if (token.isCancellationRequested) abort.abort();
    try {
      const place = this.#placeOf(document, position);
      const result = await this.#suggester.suggest(place, abort.signal, context.triggerKind === vscode.InlineCompletionTriggerKind.Invoke);
      if (result.text === undefined || token.isCancellationRequested) return undefined;
      this.#events.shown(gate.environment);
      const accepted: vscode.Command = { command: SUGGESTION_ACCEPTED_COMMAND, title: vscode.l10n.t('Suggestion accepted'), arguments: [gate.environment] };
      return [new vscode.InlineCompletionItem(result.text, new vscode.Range(position, position), accepted)];
    } finally {
      subscription.dispose();
    }
  }

  #placeOf(document: vscode.TextDocument, position: vscode.Position): SuggestionPlace {
    const offset = document.offsetAt(position);
    const prefix = document.getText(new vscode.Range(document.positionAt(Math.max(0, offset - READ_BEFORE_CHARS)), position));
    const suffix = document.getText(new vscode.Range(position, document.positionAt(offset + READ_AFTER_CHARS)));
    return {
      document: document.uri.toString(),
      offset,
      prefix,
      suffix,
      languageId: document.languageId,
      path: vscode.workspace.asRelativePath(document.uri, false),
      indentUnit: indentUnitOf(document),
      recentSnippets: this.#recentEdits.snippets(document),
    };
  }
}

/**
 * Why nothing of `document` may be sent now (eligibility.ts), under the current settings. `anyLanguage`:
 * for a snippet of another file, which the user's language opt-out does not concern.
 */
export function whyNotSent(document: vscode.TextDocument, anyLanguage = false): Ineligible | undefined {
  return whyNotEligible(documentFacts(document), {
    disabledLanguages: anyLanguage ? [] : readSetting('inference.suggestions.disabledLanguages'),
    maxFileKB: readSetting('inference.suggestions.maxFileSizeKB'),
    workspaceTrusted: vscode.workspace.isTrusted,
    allowUntrusted: readSetting('inference.suggestions.allowInUntrustedWorkspaces'),
  });
}

/** The facts the eligibility rules read; the globs are VS Code's own (languages.match), not a matcher of ours. */
function documentFacts(document: vscode.TextDocument): DocumentFacts {
  const excludedGlobs = readSetting('inference.suggestions.excludedFiles').filter((glob): glob is string => typeof glob === 'string' && glob !== '');
  return {
    languageId: document.languageId,
    // The end's offset: the length without copying the text.
    length: document.offsetAt(document.lineAt(document.lineCount - 1).range.end),
    // An untitled buffer is no file anywhere; anything else must be in a folder of the workspace.
    inWorkspace: document.uri.scheme === 'untitled' || vscode.workspace.getWorkspaceFolder(document.uri) !== undefined,
    excluded: excludedGlobs.some((pattern) => vscode.languages.match({ pattern }, document) > 0),
  };
}

/** One level of indentation as the editor showing the document inserts it. */
function indentUnitOf(document: vscode.TextDocument): string {
  const editor = vscode.window.visibleTextEditors.find((candidate) => candidate.document === document);
  const { insertSpaces, indentSize, tabSize } = editor?.options ?? {};
  if (insertSpaces === false) return '\t';
  const width = typeof indentSize === 'number' ? indentSize : typeof tabSize === 'number' ? tabSize : 4;
  return ' '.repeat(width);
}
