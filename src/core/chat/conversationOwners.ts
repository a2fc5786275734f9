/** A chat surface (an editor panel, the side-bar view) as far as ownership goes: the conversation it shows. */
export interface ConversationHolder {
  readonly conversationId: string;
}

/** Where a conversation asked for by a surface is to be shown. */
export type Placement<S> =
  | { kind: 'here' }
  /** Another surface shows it: that one is revealed (or hands it over); this one never loads it too. */
  | { kind: 'elsewhere'; holder: S }
  /** Nobody shows it: load it, once its previous writer's last write has landed (`ConversationOwners.settled`). */
  | { kind: 'free' };

/**
 * The history's single-writer rule across chat surfaces: each conversation is written by the one
 * engine that shows it. Ownership is read from what each surface shows (never a second record that
 * could drift from it), and a conversation a surface has just switched away from stays its previous
 * engine's until that engine's last write (an answer's spend is patched and saved after the answer
 * ends) has landed: a surface that opens it meanwhile waits, instead of reading it from disk and
 * then overwriting that write with its own copy.
 */
export class ConversationOwners<S extends ConversationHolder> {
  readonly #surfaces = new Set<S>();
  readonly #lastWrites = new Map<string, Promise<void>>();

  add(surface: S): void {
    this.#surfaces.add(surface);
  }

  /** Forgets a closed surface; true when no other surface shows its conversation (the store may release it). */
  delete(surface: S): boolean {
    this.#surfaces.delete(surface);
    return this.holder(surface.conversationId) === undefined;
  }

  /** Open surfaces, oldest first. */
  all(): S[] {
    return [...this.#surfaces];
  }

  holder(conversationId: string, except?: S): S | undefined {
    for (const surface of this.#surfaces) if (surface !== except && surface.conversationId === conversationId) return surface;
    return undefined;
  }

  /** Where `conversationId` goes when `target` (or, when undefined, a surface still to be created) asks for it. */
  place(conversationId: string, target?: S): Placement<S> {
    if (target?.conversationId === conversationId) return { kind: 'here' };
    const holder = this.holder(conversationId, target);
    return holder ? { kind: 'elsewhere', holder } : { kind: 'free' };
  }

  /** A surface switches away from `conversationId`; `lastWrite` resolves when its engine will never write it again. */
  leaving(conversationId: string, lastWrite: Promise<void>): void {
    const settled = lastWrite.catch(() => undefined).then(() => {
      if (this.#lastWrites.get(conversationId) === settled) this.#lastWrites.delete(conversationId);
    });
    this.#lastWrites.set(conversationId, settled);
  }

  /** Resolves when no engine that showed the conversation before can still write it. */
  settled(conversationId: string): Promise<void> {
    return this.#lastWrites.get(conversationId) ?? Promise.resolve();
  }
}
