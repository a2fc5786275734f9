import * as assert from 'node:assert/strict';
import { ConversationOwners } from '../../../src/core/chat/conversationOwners';

class Surface {
  constructor(readonly name: string, public conversationId: string) {}
}

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Whether the promise has settled after the microtasks queued so far. */
async function isSettled(promise: Promise<void>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return settled;
}

describe('ConversationOwners: one writer per conversation across chat surfaces', () => {
  it('places a conversation here, in the surface that shows it, or free', () => {
    const owners = new ConversationOwners<Surface>();
    const view = new Surface('view', 'a');
    const panel = new Surface('panel', 'b');
    owners.add(view);
    owners.add(panel);
    assert.deepEqual(owners.place('a', view), { kind: 'here' });
    assert.deepEqual(owners.place('a', panel), { kind: 'elsewhere', holder: view }, 'the panel must reveal the view, not load it too');
    assert.deepEqual(owners.place('b'), { kind: 'elsewhere', holder: panel }, 'a surface still to be created defers to the open one');
    assert.deepEqual(owners.place('c', panel), { kind: 'free' });
  });

  it('reads ownership from what each surface shows now, so that it follows a conversation switched inside a surface', () => {
    const owners = new ConversationOwners<Surface>();
    const view = new Surface('view', 'a');
    owners.add(view);
    view.conversationId = 'b';
    assert.deepEqual(owners.place('a'), { kind: 'free' });
    assert.equal(owners.holder('b'), view);
  });

  it('says when a closed surface leaves its conversation unshown, and only then', () => {
    const owners = new ConversationOwners<Surface>();
    const first = new Surface('first', 'a');
    const second = new Surface('second', 'a');
    const other = new Surface('other', 'b');
    for (const surface of [first, second, other]) owners.add(surface);
    assert.equal(owners.delete(first), false, 'a restored duplicate still shows it');
    assert.equal(owners.delete(second), true);
    assert.deepEqual(owners.all(), [other]);
  });

  it('makes the next surface wait for the previous engine\'s last write of a conversation it left', async () => {
    const owners = new ConversationOwners<Surface>();
    const spendSaved = deferred();
    owners.leaving('a', spendSaved.promise);
    const settled = owners.settled('a');
    assert.equal(await isSettled(settled), false, 'the answer\'s spend is not saved yet');
    assert.equal(await isSettled(owners.settled('b')), true, 'other conversations do not wait');
    spendSaved.resolve();
    assert.equal(await isSettled(settled), true);
    assert.equal(await isSettled(owners.settled('a')), true);
  });

  it('does not let a failed last write block the conversation forever', async () => {
    const owners = new ConversationOwners<Surface>();
    const failed = deferred();
    owners.leaving('a', failed.promise);
    failed.reject(new Error('disk full'));
    assert.equal(await isSettled(owners.settled('a')), true);
  });
});
