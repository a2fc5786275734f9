/** The tag that tells whether a stored model list was fetched with the key in use: one-way, keyed by the installation's secret. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { KeyTagger, keyTag, type SecretSlot } from '../../../src/core/models/keyTag';

const KEY = 'sk-test-0123456789abcdef0123456789abcdef';

class FakeSlot implements SecretSlot {
  value: string | undefined;
  stores = 0;
  failing = false;
  async get(): Promise<string | undefined> {
    if (this.failing) throw new Error('no keyring');
    return this.value;
  }
  async store(value: string): Promise<void> {
    if (this.failing) throw new Error('no keyring');
    this.stores++;
    this.value = value;
  }
}

describe('key tags', () => {
  it('the same key under the same secret gives the same tag; another key or another secret another one', () => {
    assert.equal(keyTag('secret-1', KEY), keyTag('secret-1', KEY));
    assert.notEqual(keyTag('secret-1', KEY), keyTag('secret-1', `${KEY}x`));
    assert.notEqual(keyTag('secret-1', KEY), keyTag('secret-2', KEY));
  });

  it('holds nothing of the key, and is not a plain hash of it (which would confirm a guessed key)', () => {
    const tag = keyTag('secret-1', KEY);
    assert.equal(tag.length, 22);
    for (const part of [KEY, KEY.slice(0, 8), KEY.slice(-8)]) assert.ok(!tag.includes(part));
    for (const algorithm of ['sha256', 'sha1', 'md5']) {
      for (const encoding of ['hex', 'base64url', 'base64'] as const) assert.ok(!createHash(algorithm).update(KEY).digest(encoding).startsWith(tag.slice(0, 12)));
    }
  });

  it('creates the installation secret once, stores it, and tags with it in every later window', async () => {
    const slot = new FakeSlot();
    let made = 0;
    const first = new KeyTagger(slot, () => `secret-${++made}`);
    const tag = await first.tag(KEY);
    assert.equal(slot.value, 'secret-1');
    assert.equal(tag, keyTag('secret-1', KEY));
    assert.equal(await first.tag(`${KEY}2`), keyTag('secret-1', `${KEY}2`));
    assert.equal(slot.stores, 1, 'one secret per installation, read once per window');
    assert.equal(await new KeyTagger(slot, () => `secret-${++made}`).tag(KEY), tag, 'the next window tags alike');
    assert.equal(slot.stores, 1);
  });

  it('no key, no tag', async () => {
    assert.equal(await new KeyTagger(new FakeSlot()).tag(undefined), undefined);
  });

  it('without a working SecretStorage, tags with a secret of this window alone (nothing stored, no failure)', async () => {
    const slot = new FakeSlot();
    slot.failing = true;
    const tagger = new KeyTagger(slot, () => 'session-secret');
    assert.equal(await tagger.tag(KEY), keyTag('session-secret', KEY));
    assert.equal(slot.value, undefined);
  });

  it('after forget (another window stored a secret), reads the stored one again', async () => {
    const slot = new FakeSlot();
    const tagger = new KeyTagger(slot, () => 'mine');
    await tagger.tag(KEY);
    slot.value = 'theirs';
    assert.equal(await tagger.tag(KEY), keyTag('mine', KEY));
    tagger.forget();
    assert.equal(await tagger.tag(KEY), keyTag('theirs', KEY));
  });
});
