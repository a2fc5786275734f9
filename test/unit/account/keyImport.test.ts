/** Keys handed over in INFERENCE_API_KEY_<ENV> variables, moved into the key store once. */
import assert from 'node:assert/strict';
import { importKeys } from '../../../src/core/account/keyImport';
import type { CheckedEnvironment } from '../../../src/core/settings/settingsCheck';
import { checkedEnvironment, FakeKeys, FakeLog } from '../fakes/account';

const KEY = 'sk-live-0123456789abcdef';

describe('key import from the environment', () => {
  let environments: CheckedEnvironment[];
  let keys: FakeKeys;
  let log: FakeLog;
  const run = (variables: Record<string, string | undefined>) => importKeys({ environments: { all: () => environments }, keys, log }, variables, (env) => keys.get(env));

  beforeEach(() => {
    environments = [checkedEnvironment('production'), checkedEnvironment('my-preview', { origins: ['https://a.example', 'https://b.example'] })];
    keys = new FakeKeys();
    log = new FakeLog();
  });

  it('stores a trimmed key per user environment, bound to its origins, and logs the variable, never the key', async () => {
    assert.deepEqual(await run({ INFERENCE_API_KEY_MY_PREVIEW: `  ${KEY}\n`, INFERENCE_API_KEY_PRODUCTION: '   ' }), ['my-preview']);
    assert.deepEqual([...keys.stored], [['my-preview', { key: KEY, origins: ['https://a.example', 'https://b.example'] }]]);
    assert.deepEqual(log.lines, ['info: Imported the API key for my-preview from INFERENCE_API_KEY_MY_PREVIEW']);
  });

  it('writes nothing for a key the store holds already, or for a variable no user environment names', async () => {
    await keys.set('production', KEY, ['https://old.example']);
    assert.deepEqual(await run({ INFERENCE_API_KEY_PRODUCTION: KEY, INFERENCE_API_KEY_ATTACKER: KEY }), []);
    assert.deepEqual(keys.stored.get('production')?.origins, ['https://old.example'], 'not bound again');
    assert.deepEqual(log.lines, []);
  });

  it('leaves a key in its variable when the environment\'s settings are refused or the key has the wrong form, and says why', async () => {
    environments = [
      checkedEnvironment('lan', { problem: { setting: 'inference.environments', message: 'The base URL of "lan" uses http for another machine.', blocks: 'nothing', environment: 'lan' } }),
      checkedEnvironment('production', { keyPrefix: 'sk-live-' }),
    ];
    assert.deepEqual(await run({ INFERENCE_API_KEY_LAN: KEY, INFERENCE_API_KEY_PRODUCTION: 'pk-test-1' }), []);
    assert.equal(keys.stored.size, 0);
    assert.equal(log.lines.length, 2);
    assert.match(log.lines[0], /^warn: INFERENCE_API_KEY_LAN was not imported: The base URL of "lan" uses http/);
    assert.match(log.lines[1], /^warn: INFERENCE_API_KEY_PRODUCTION was not imported: .*prefix "sk-live-"/);
    assert.ok(log.lines.every((line) => !line.includes(KEY) && !line.includes('pk-test-1')), 'no key in the log');
  });
});
