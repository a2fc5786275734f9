import type { Timer } from '../../src/core/chat/appendBatcher';

/**
 * A timer fired by hand ("the interval elapsed"), for the history store's tests and its benchmark:
 * both decide when an interval passes instead of waiting for it.
 */
export function manualTimer(): Timer & { fire(): void } {
  let callbacks = new Map<number, () => void>();
  let next = 0;
  return {
    set: (callback) => { callbacks.set(++next, callback); return next; },
    clear: (handle) => { callbacks.delete(handle as number); },
    fire() { const run = [...callbacks.values()]; callbacks = new Map(); run.forEach((c) => c()); },
  };
}
