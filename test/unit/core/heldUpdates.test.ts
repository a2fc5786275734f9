/** Global state updates that an echo of an earlier write overwrote are written again. */
import assert from 'node:assert/strict';
import { holdingUpdates, type KeyValueState } from '../../../src/core/heldUpdates';

/**
 * VS Code's global state as its extension host holds it: the whole state, replaced by the echo of
 * an earlier write when one is in flight (`echoInFlight`), which lands after the update is set and
 * before it is written, so the update writes the state the echo brought back.
 */
class EchoingState implements KeyValueState {
  values: Record<string, unknown> = {};
  writes = 0;
  /** How many updates in a row find an earlier write's echo in flight. */
  echoesInFlight = 0;

  get<T>(key: string): T | undefined {
    return this.values[key] as T | undefined;
  }

  async update(key: string, value: unknown): Promise<void> {
    const before = { ...this.values };
    this.values[key] = value === undefined ? undefined : JSON.parse(JSON.stringify(value));
    this.writes++;
    if (this.echoesInFlight > 0) {
      this.echoesInFlight--;
      this.values = before;
    }
  }

  keys(): string[] {
    return Object.keys(this.values);
  }
}

describe('global state updates that hold', () => {
  it('writes once when nothing interferes, and passes other members through', async () => {
    const state = new EchoingState();
    const held = holdingUpdates(state);
    await held.update('model', 'm1');
    assert.equal(held.get('model'), 'm1');
    assert.equal(state.writes, 1);
    assert.deepEqual(held.keys(), ['model']);
  });

  it('writes again an update that an earlier write\'s echo overwrote (a forgotten model stays forgotten)', async () => {
    const plain = new EchoingState();
    await plain.update('model', 'gone');
    plain.echoesInFlight = 1;
    await plain.update('model', undefined);
    assert.equal(plain.get('model'), 'gone', 'without it the update is lost');

    const state = new EchoingState();
    const held = holdingUpdates(state);
    await held.update('model', 'gone');
    state.echoesInFlight = 1;
    await held.update('model', undefined);
    assert.equal(held.get('model'), undefined);
    assert.equal(state.writes, 3);
    state.echoesInFlight = 1;
    await held.update('snapshot', { items: [1, 2] });
    assert.deepEqual(held.get('snapshot'), { items: [1, 2] }, 'objects compare by value');
  });

  it('stops after three writes when a value never holds', async () => {
    const state = new EchoingState();
    state.echoesInFlight = 10;
    await holdingUpdates(state).update('model', 'm1');
    assert.equal(state.writes, 3);
    assert.equal(state.get('model'), undefined);
  });
});
