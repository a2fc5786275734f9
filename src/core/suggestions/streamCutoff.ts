import { readSuggestion, type SuggestionContext } from './postProcess';

/**
 * Whether the answer streamed so far already holds the whole suggestion, so that the caller closes
 * the connection and pays for no token past it: in single-line mode once a line break follows
 * text, in multi-line mode once the block has ended (a dedent below the cursor's indentation, a run
 * of blank lines, the line that closes an opened block), and in either once a code fence closed.
 * It reads the answer as post-processing does, so that prose or a fence before the code does not
 * count as the suggestion's first line. A suggestion that ends up empty is complete too: waiting
 * would not make it useful.
 */
export function suggestionIsComplete(streamed: string, context: SuggestionContext): boolean {
  return readSuggestion(streamed, context, true).ended;
}
