import vscode = require('vscode');
import { SuggestionCounts, type SuggestionCountsStore } from '../../core/suggestions/suggestionCounts';

/**
 * Where inline suggestions' counts live: one key of VS Code's global state, which every window shares
 * and reads back as the others write it; a few kilobytes at most (90 days per environment), so a
 * file of its own would add I/O and no safety. Counted by the suggestions feature, read by the usage view.
 */
const STATE_KEY = 'inference.suggestionCounts';

export function globalStateCountsStore(state: vscode.Memento): SuggestionCountsStore {
  return {
    read: () => state.get(STATE_KEY),
    write: async (value) => {
      await state.update(STATE_KEY, value);
    },
  };
}

/** The counts of this window, written in batches to the global state; disposing writes what is pending. */
export function createSuggestionCounts(state: vscode.Memento, log: vscode.LogOutputChannel): SuggestionCounts {
  return new SuggestionCounts(globalStateCountsStore(state), {
    onError: (error) => log.warn(`Suggestion counts not written (kept for the next write): ${error instanceof Error ? error.message : String(error)}`),
  });
}
