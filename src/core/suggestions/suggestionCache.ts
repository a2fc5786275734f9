/**
 * Recent suggestions, so that the same place asks the service once: the cursor coming back to where a
 * suggestion was shown, and typing through one (the user types what the ghost text shows, and the
 * rest is still the suggestion) cost no request. Bounded in entries and in characters, evicting the
 * least recently used; every lookup is a map access and a few string compares near the cursor.
 */

export interface SuggestionCacheLimits {
  readonly maxEntries: number;
  /** Characters held, keys and suggestions together. */
  readonly maxChars: number;
  /** How much of the text before the cursor tells two places apart (the key's part). */
  readonly prefixKeyChars: number;
  /** How much of the text after the cursor does. */
  readonly suffixKeyChars: number;
}

export const DEFAULT_SUGGESTION_CACHE_LIMITS: SuggestionCacheLimits = {
  maxEntries: 100,
  maxChars: 200_000,
  prefixKeyChars: 500,
  suffixKeyChars: 200,
};

/**
 * The suggestions of a document tried for type-through, newest first: the user types through the
 * one shown, seldom one shown before it.
 */
const TYPE_THROUGH_CANDIDATES = 4;

/** Where the cursor is: the text around it may be a window of the document, as long as the key's parts fit. */
export interface CursorPlace {
  /** The document's identity (its URI), not its version: typing changes the version. */
  readonly document: string;
  /** The cursor's offset in the document, which tells how much was typed since a suggestion was shown. */
  readonly offset: number;
  readonly prefix: string;
  readonly suffix: string;
}

interface Entry {
  readonly key: string;
  readonly document: string;
  readonly offset: number;
  readonly prefixTail: string;
  readonly suffixHead: string;
  readonly suggestion: string;
  readonly chars: number;
}

export class SuggestionCache {
  readonly #limits: SuggestionCacheLimits;
  /** Least recently used first: a Map keeps insertion order, and a use re-inserts. */
  readonly #entries = new Map<string, Entry>();
  /** Per document, its newest entries for type-through (each also in #entries), oldest first. */
  readonly #recent = new Map<string, Entry[]>();
  #chars = 0;

  constructor(limits: Partial<SuggestionCacheLimits> = {}) {
    this.#limits = { ...DEFAULT_SUGGESTION_CACHE_LIMITS, ...limits };
  }

  get size(): number {
    return this.#entries.size;
  }

  get chars(): number {
    return this.#chars;
  }

  /**
   * The suggestion for this place: the one stored for it, or the rest of one shown earlier in the
   * document that the user has typed the beginning of since. Anything else typed there finds nothing.
   */
  get(place: CursorPlace): string | undefined {
    const entry = this.#entries.get(this.#keyOf(place));
    if (entry) {
      this.#touch(entry);
      return entry.suggestion;
    }
    return this.#typedThrough(place);
  }

  set(place: CursorPlace, suggestion: string): void {
    if (!suggestion) return;
    const key = this.#keyOf(place);
    const entry: Entry = {
      key,
      document: place.document,
      offset: place.offset,
      prefixTail: this.#prefixTail(place.prefix),
      suffixHead: this.#suffixHead(place.suffix),
      suggestion,
      chars: key.length + suggestion.length,
    };
    if (entry.chars > this.#limits.maxChars) return;
    const previous = this.#entries.get(key);
    if (previous) this.#remove(previous);
    this.#entries.set(key, entry);
    this.#chars += entry.chars;
    const recent = this.#recent.get(entry.document) ?? [];
    recent.push(entry);
    if (recent.length > TYPE_THROUGH_CANDIDATES) recent.shift();
    this.#recent.set(entry.document, recent);
    this.#evict();
  }

  clear(): void {
    this.#entries.clear();
    this.#recent.clear();
    this.#chars = 0;
  }

  #typedThrough(place: CursorPlace): string | undefined {
    const recent = this.#recent.get(place.document);
    if (!recent) return undefined;
    const suffixHead = this.#suffixHead(place.suffix);
    for (let index = recent.length - 1; index >= 0; index--) {
      const entry = recent[index];
      const typed = place.offset - entry.offset;
      if (typed <= 0 || typed >= entry.suggestion.length || typed > place.prefix.length || entry.suffixHead !== suffixHead) continue;
      const earlier = place.prefix.slice(0, place.prefix.length - typed);
      if (!place.prefix.endsWith(entry.suggestion.slice(0, typed)) || !sameEnd(earlier, entry.prefixTail)) continue;
      this.#touch(entry);
      return entry.suggestion.slice(typed);
    }
    return undefined;
  }

  #touch(entry: Entry): void {
    this.#entries.delete(entry.key);
    this.#entries.set(entry.key, entry);
  }

  #evict(): void {
    for (const oldest of this.#entries.values()) {
      if (this.#entries.size <= this.#limits.maxEntries && this.#chars <= this.#limits.maxChars) return;
      this.#remove(oldest);
    }
  }

  #remove(entry: Entry): void {
    this.#entries.delete(entry.key);
    this.#chars -= entry.chars;
    const recent = this.#recent.get(entry.document);
    const at = recent?.indexOf(entry) ?? -1;
    if (!recent || at < 0) return;
    recent.splice(at, 1);
    if (recent.length === 0) this.#recent.delete(entry.document);
  }

  #keyOf(place: CursorPlace): string {
    const prefixTail = this.#prefixTail(place.prefix);
    // Lengths first, so that no document name or text can make two different places one key.
    return `${place.document.length}:${prefixTail.length}:${place.document}${prefixTail}${this.#suffixHead(place.suffix)}`;
  }

  #prefixTail(prefix: string): string {
    return prefix.slice(Math.max(0, prefix.length - this.#limits.prefixKeyChars));
  }

  #suffixHead(suffix: string): string {
    return suffix.slice(0, this.#limits.suffixKeyChars);
  }
}

/**
 * The text before the cursor when the suggestion was shown, as far as both windows hold it: a caller
 * whose window of the text before the cursor is no wider than the key's still types through.
 */
function sameEnd(earlier: string, prefixTail: string): boolean {
  const length = Math.min(earlier.length, prefixTail.length);
  return earlier.slice(earlier.length - length) === prefixTail.slice(prefixTail.length - length);
}
