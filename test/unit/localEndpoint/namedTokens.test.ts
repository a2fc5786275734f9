/** Named endpoint tokens: what is stored, who a presented token is, and revocation in a running endpoint. */
import assert from 'node:assert/strict';
import { createEndpointToken } from '../../../src/core/localEndpoint/auth';
import { ENDPOINT_TOKENS_SECRET, EndpointTokenStore, type SecretStoreLike } from '../../../src/core/localEndpoint/endpointTokenStore';
import { createNamedToken, identifyCaller, parseDailyLimit, parseNamedTokens, PER_RUN_CALLER, serializeNamedTokens, tokenNameProblem, type EndpointCaller } from '../../../src/core/localEndpoint/namedTokens';
import { PER_RUN_TOKEN } from '../../../src/core/usage/ledger';
import { bearer, chatBody, rawRequest } from '../emulator/helpers';
import { useLocalEndpoint } from './support';

/** A secret storage in memory, shared by several stores as SecretStorage is by windows; `gate` holds the next read's answer back. */
class MemorySecrets implements SecretStoreLike {
  readonly values = new Map<string, string>();
  gate: Promise<void> | undefined;
  async get(key: string): Promise<string | undefined> {
    const value = this.values.get(key);
    const gate = this.gate;
    this.gate = undefined;
    await gate;
    return value;
  }
  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
  }
}

describe('named endpoint tokens', () => {
  it('keeps a digest with the id, name and limit, never the token itself', () => {
    const { secret, token } = createNamedToken('  my tool ', 2.5, 1000);
    assert.match(secret, /^local-[\w-]{43}$/);
    assert.equal(token.name, 'my tool');
    assert.equal(token.dailyLimit, 2.5);
    const stored = serializeNamedTokens([token]);
    assert.ok(!stored.includes(secret), 'the stored form holds no token');
    assert.deepEqual(parseNamedTokens(stored), [token]);
    assert.equal(createNamedToken('other', undefined, 1).token.dailyLimit, undefined);
  });

  it('drops malformed stored entries and other versions instead of trusting them', () => {
    const { token } = createNamedToken('a', undefined, 1);
    assert.deepEqual(parseNamedTokens(JSON.stringify({ v: 1, tokens: [token, { id: 'x' }, null, { ...token, id: '' }, { ...token, id: 'y', dailyLimit: -1 }] })).map((t) => [t.id, t.dailyLimit]), [[token.id, undefined], ['y', undefined]]);
    assert.deepEqual(parseNamedTokens(JSON.stringify({ v: 2, tokens: [token] })), []);
    assert.deepEqual(parseNamedTokens('{not json'), []);
    assert.deepEqual(parseNamedTokens(undefined), []);
  });

  it('refuses empty, long, control-character and duplicate names, and reads a daily limit', () => {
    const existing = [createNamedToken('Aider', undefined, 1).token];
    assert.equal(tokenNameProblem('   ', existing), 'empty');
    assert.equal(tokenNameProblem('x'.repeat(65), existing), 'tooLong');
    assert.equal(tokenNameProblem('two\nlines', existing), 'controlCharacters');
    assert.equal(tokenNameProblem(' aider ', existing), 'taken');
    assert.equal(tokenNameProblem('Continue', existing), undefined);
    assert.deepEqual(['', ' 3 ', '0', '0.25', 'abc', '-1', 'Infinity'].map(parseDailyLimit), [undefined, 3, 0, 0.25, null, null, null]);
  });

  it('tells the per-run token from each named one, and refuses others, a prefix of one or nothing', () => {
    const perRun = createEndpointToken();
    const a = createNamedToken('a', 5, 1);
    const b = createNamedToken('b', undefined, 1);
    const named = [a.token, b.token];
    assert.equal(identifyCaller(perRun, perRun, named), PER_RUN_CALLER);
    assert.deepEqual(identifyCaller(a.secret, perRun, named), { token: { id: a.token.id, name: 'a' }, dailyLimit: 5 } satisfies EndpointCaller);
    assert.deepEqual(identifyCaller(b.secret, perRun, named), { token: { id: b.token.id, name: 'b' } });
    assert.equal(identifyCaller(a.secret.slice(0, -1), perRun, named), undefined);
    assert.equal(identifyCaller(createEndpointToken(), perRun, named), undefined);
    assert.equal(identifyCaller(undefined, perRun, named), undefined);
    assert.equal(identifyCaller(a.token.digest, perRun, named), undefined, 'the stored digest does not authenticate');
    assert.equal(identifyCaller(a.secret, perRun, [b.token]), undefined, 'a revoked token is refused');
    assert.equal(PER_RUN_CALLER.token, PER_RUN_TOKEN);
  });

  it('stores tokens in secret storage, revokes at once in this window, and follows another window\'s changes', async () => {
    const secrets = new MemorySecrets();
    const here = new EndpointTokenStore(secrets, () => 42);
    const there = new EndpointTokenStore(secrets);
    await Promise.all([here.loaded, there.loaded]);
    const made = await here.create('Aider', 3);
    await assert.rejects(here.create('aider', undefined), /name refused: taken/);
    assert.equal(made.token.createdAt, 42);
    assert.ok(!(secrets.values.get(ENDPOINT_TOKENS_SECRET) ?? '').includes(made.secret));
    assert.deepEqual(there.list(), [], 'the other window has not been told yet');
    await there.reload();
    assert.deepEqual(there.list().map((t) => t.name), ['Aider']);

    // A reload that started before the revocation must not bring the token back.
    let release = () => {};
    secrets.gate = new Promise((resolve) => { release = resolve; });
    const staleReload = here.reload();
    const revoked = here.revoke(made.token.id);
    assert.deepEqual(here.list(), [], 'refused before the storage is even written');
    assert.equal(await revoked, true);
    release();
    await staleReload;
    assert.deepEqual(here.list(), [], 'the reload that read the old list was dropped');
    await there.reload();
    assert.deepEqual(there.list(), []);
    assert.equal(await here.revoke(made.token.id), false);
  });
});

describe('local endpoint: named tokens', () => {
  const fixture = useLocalEndpoint();

  it('serves the per-run token and each named token, tells the billing window which one, and refuses a revoked one at once', async () => {
    const a = createNamedToken('tool a', 1, 1);
    const b = createNamedToken('tool b', undefined, 1);
    let named = [a.token, b.token];
    const callers: EndpointCaller[] = [];
    const { origin, token, summaries } = await fixture().start({
      namedTokens: () => named,
      openBillingWindow: async (caller) => {
        callers.push(caller);
        return { close: () => undefined };
      },
    });
    const ask = (presented: string) => rawRequest(`${origin}/v1/chat/completions`, { headers: bearer(presented), body: chatBody('emu-chat-small', {}) });
    for (const presented of [token, a.secret, b.secret]) assert.equal((await ask(presented)).status, 200);
    assert.deepEqual(callers.map((c) => c.token.name), ['per-run token', 'tool a', 'tool b']);
    assert.equal(callers[1].dailyLimit, 1);
    // The log line names a named token, never a secret.
    assert.deepEqual(summaries.map((s) => s.token), [undefined, 'tool a', 'tool b']);
    assert.ok(!JSON.stringify(summaries).includes(a.secret));

    named = [b.token];
    const refused = await ask(a.secret);
    assert.equal(refused.status, 401);
    assert.ok(!refused.body.toString().includes(a.secret));
    assert.equal((await ask(token)).status, 200, 'the per-run token still works');
    assert.equal((await ask(b.secret)).status, 200);
  });
});
