/** What this needs of VS Code's `Memento` (global state): a JSON value per key. */
export interface KeyValueState {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** A lost update is written again this many times at most, so a value that never holds cannot loop. */
const WRITES = 3;

/**
 * VS Code's global state can lose an update. Its extension host keeps the extension's whole state
 * and writes it whole; the workbench echoes each write back as the whole state it then holds. When
 * one write is in flight (the account's balance after a response, written without waiting) and
 * another key is updated, that first write's echo can arrive between the update and its write,
 * replace the state, and the update then writes the old value: seen as a model id forgotten after a
 * 404 that was back once the forgetting resolved. The workbench's echo of a write arrives before
 * the write resolves, so a value that did not hold is visible then: it is written again.
 */
export function holdingUpdates<S extends KeyValueState>(state: S): S {
  const update = async (key: string, value: unknown): Promise<void> => {
    const wanted = JSON.stringify(value);
    for (let write = 1; write <= WRITES; write++) {
      await state.update(key, value);
      if (JSON.stringify(state.get(key)) === wanted) return;
    }
  };
  return new Proxy(state, {
    get: (target, property) => {
      if (property === 'update') return update;
      const member = Reflect.get(target, property, target) as unknown;
      return typeof member === 'function' ? member.bind(target) : member;
    },
  });
}
