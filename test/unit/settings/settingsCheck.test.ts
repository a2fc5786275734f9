import assert from 'node:assert/strict';
import { checkBaseUrl, originOf } from '../../../src/core/api/baseUrl';
import { checkEnvironmentName } from '../../../src/core/settings/environmentName';
import { isLoopbackHost } from '../../../src/core/api/loopback';
import { checkActiveEnvironment, checkEnvironments, checkSettings, problemsBlocking } from '../../../src/core/settings/settingsCheck';

function refused(raw: unknown): string {
  const checked = checkBaseUrl(raw);
  assert.ok(!checked.ok, `expected ${JSON.stringify(raw)} to be refused`);
  return checked.problem;
}

describe('isLoopbackHost', () => {
  it('accepts only this machine', () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '[::1]', '::1', '::ffff:7f00:1', '[::ffff:127.0.0.1]']) {
      assert.equal(isLoopbackHost(host), true, host);
    }
    // *.localhost is resolved by the system's resolver in Node, not pinned to loopback as in browsers.
    for (const host of ['api.localhost', 'example.com', '10.0.0.1', '128.0.0.1', '127.0.0.1.nip.io', 'localhost.attacker.example', '::2', '::ffff:a00:1', '127.0.0.256', '0.0.0.0']) {
      assert.equal(isLoopbackHost(host), false, host);
    }
  });

  it('agrees with how WHATWG URL writes host names', () => {
    assert.equal(isLoopbackHost(new URL('http://[::ffff:127.0.0.1]:8/').hostname), true);
    assert.equal(isLoopbackHost(new URL('http://0x7f.1/').hostname), true, 'URL normalises 0x7f.1 to 127.0.0.1');
  });
});

describe('checkBaseUrl', () => {
  it('accepts https anywhere and http to this machine, trailing slashes trimmed', () => {
    assert.deepEqual(checkBaseUrl(' https://api.example.com/api/v1/ '), { ok: true, baseUrl: 'https://api.example.com/api/v1', origin: 'https://api.example.com' });
    assert.deepEqual(checkBaseUrl('http://127.0.0.1:8787/prefix/api/v1'), { ok: true, baseUrl: 'http://127.0.0.1:8787/prefix/api/v1', origin: 'http://127.0.0.1:8787' });
    assert.equal(checkBaseUrl('http://localhost/api/v1').ok, true);
  });

  it('refuses each malformed URL with a reason', () => {
    assert.match(refused(''), /is empty/);
    assert.match(refused(42), /is empty/);
    assert.match(refused('api.example.com/api/v1'), /not a valid URL/);
    assert.match(refused('ftp://example.com/api/v1'), /"ftp:"/);
    assert.match(refused('http://example.com/api/v1'), /plain http to another machine/);
    assert.match(refused('https://user:pw@example.com/api/v1'), /user name or password/);
    assert.match(refused('https://example.com/api/v1?x=1'), /query or fragment/);
    assert.match(refused('https://example.com/v1'), /does not end in \/api\/v1.*https:\/\/example\.com\/api\/v1/);
    assert.match(refused('https://example.com/api/v1/models'), /does not end in \/api\/v1/);
  });

  it('gives origins as scheme, host and port', () => {
    assert.equal(originOf('https://Example.com:443/api/v1'), 'https://example.com');
    assert.equal(originOf('http://127.0.0.1:9/api/v1'), 'http://127.0.0.1:9');
    assert.equal(originOf('nonsense'), undefined);
  });

  it('checks environment names for Add Environment', () => {
    assert.equal(checkEnvironmentName('local-2'), undefined);
    assert.match(checkEnvironmentName(' ') ?? '', /empty/);
    assert.match(checkEnvironmentName('a b') ?? '', /letters, digits/);
    assert.match(checkEnvironmentName('Local', ['local']) ?? '', /already/);
  });
});

describe('checkEnvironments and checkActiveEnvironment', () => {
  it('has no phantom environments when nothing is configured', () => {
    assert.deepEqual(checkEnvironments(undefined), { environments: [], problems: [] });
    assert.deepEqual(checkEnvironments({}), { environments: [], problems: [] });
  });

  it('lists a broken environment with one problem naming the setting and the environment', () => {
    const { environments, problems } = checkEnvironments({
      good: { baseUrl: 'https://a.example/api/v1', keyPrefix: 'k-', label: ' Good ' },
      bad: { baseUrl: 'https://b.example/v2' },
      odd: 'https://c.example/api/v1',
    });
    assert.deepEqual(environments.map((env) => [env.name, env.label, env.origin, env.problem?.environment]), [
      ['good', 'Good', 'https://a.example', undefined],
      ['bad', 'bad', undefined, 'bad'],
      ['odd', 'odd', undefined, 'odd'],
    ]);
    assert.equal(problems.length, 2);
    for (const problem of problems) {
      assert.equal(problem.setting, 'inference.environments');
      assert.match(problem.message, /^Setting "inference\.environments": .*Nothing is sent to "(bad|odd)"/);
    }
    assert.match(checkEnvironments([]).problems[0].message, /must be an object/);
  });

  it('checks alternate base URLs as the primary: https or loopback http, the same path, each host once', () => {
    const { environments } = checkEnvironments({
      two: { baseUrl: 'https://a.example/api/v1', baseUrls: ['https://b.example/api/v1/', 'http://127.0.0.1:8080/api/v1'] },
      plain: { baseUrl: 'https://a.example/api/v1', baseUrls: ['http://b.example/api/v1'] },
      path: { baseUrl: 'https://a.example/x/api/v1', baseUrls: ['https://b.example/api/v1'] },
      twice: { baseUrl: 'https://a.example/api/v1', baseUrls: ['https://a.example/api/v1'] },
      notList: { baseUrl: 'https://a.example/api/v1', baseUrls: 'https://b.example/api/v1' },
    });
    const [two, plain, path, twice, notList] = environments;
    assert.deepEqual(two.alternateBaseUrls, ['https://b.example/api/v1', 'http://127.0.0.1:8080/api/v1']);
    assert.deepEqual(two.origins, ['https://a.example', 'https://b.example', 'http://127.0.0.1:8080']);
    assert.equal(two.problem, undefined);
    assert.match(plain.problem?.message ?? '', /alternate base URL of "plain" .*plain http to another machine/);
    assert.match(path.problem?.message ?? '', /another path than the primary base URL \(\/x\/api\/v1\)/);
    assert.match(twice.problem?.message ?? '', /repeats a host/);
    assert.match(notList.problem?.message ?? '', /must be a list/);
    for (const env of [plain, path, twice, notList]) assert.equal(env.origins, undefined, 'a refused environment has no host a key could go to');
  });

  it('refuses an unknown active environment instead of falling back', () => {
    assert.equal(checkActiveEnvironment('', ['a']), undefined, 'empty means the first one');
    assert.equal(checkActiveEnvironment('a', ['a']), undefined);
    assert.match(checkActiveEnvironment('prod', ['a', 'b'])?.message ?? '', /"inference\.activeEnvironment" names "prod", which is not in "inference\.environments" \(configured: "a", "b"\)/);
    assert.match(checkActiveEnvironment('production', [])?.message ?? '', /Add Environment/);
  });
});

describe('checkSettings', () => {
  it('says only that the environments are unreadable when they are not named entries (not also that the active one is missing)', () => {
    const problems = checkSettings({ 'inference.environments': 'https://a.example/api/v1', 'inference.activeEnvironment': 'production' });
    assert.deepEqual(problems.map((problem) => problem.setting), ['inference.environments']);
    assert.match(problems[0].message, /must be an object of named environments/);
  });

  it('finds nothing wrong with the defaults or sensible values', () => {
    assert.deepEqual(checkSettings({}), []);
    assert.deepEqual(checkSettings({
      'inference.environments': { local: { baseUrl: 'http://127.0.0.1:1/api/v1' } },
      'inference.activeEnvironment': 'local',
      'inference.timeouts.connectSeconds': 30,
      'inference.chat.temperature': null,
      'inference.chat.maxTokens': 512,
      'inference.images.sizePresets': ['1024x768', ' 512 × 512 '],
      'inference.images.responseFormat': 'url',
    }), []);
  });

  it('gives one message per bad setting, naming it, and says what it blocks', () => {
    const problems = checkSettings({
      'inference.timeouts.connectSeconds': -5,
      'inference.timeouts.responseSeconds': 1e9,
      'inference.timeouts.idleSeconds': 'soon',
      'inference.rateLimit.maxRetries': 2.5,
      'inference.chat.temperature': 7,
      'inference.chat.maxTokens': 0,
      'inference.images.sizePresets': '1024x1024',
      'inference.balanceWarningThreshold': -1,
    });
    assert.deepEqual(problems.map((p) => [p.setting, p.blocks]), [
      ['inference.balanceWarningThreshold', 'nothing'],
      ['inference.rateLimit.maxRetries', 'all'],
      ['inference.timeouts.connectSeconds', 'all'],
      ['inference.timeouts.responseSeconds', 'all'],
      ['inference.timeouts.idleSeconds', 'all'],
      ['inference.chat.temperature', 'chat'],
      ['inference.chat.maxTokens', 'chat'],
      ['inference.images.sizePresets', 'image'],
    ]);
    for (const problem of problems) assert.ok(problem.message.startsWith(`Setting "${problem.setting}"`), problem.message);
    assert.match(problems[2].message, /is -5: it must be a number of seconds from 1 to 600\. Nothing is sent/);
    assert.match(problems[7].message, /must be a list of sizes/);
    assert.match(checkSettings({ 'inference.images.sizePresets': ['1024x768', 'big'] })[0].message, /contains "big"/);
    assert.match(checkSettings({ 'inference.images.sizePresets': ['99999x1'] })[0].message, /sides from 1 to 16384/);
  });

  it('tells which problems stop which request', () => {
    const problems = checkSettings({
      'inference.environments': { ok: { baseUrl: 'https://a.example/api/v1' }, broken: { baseUrl: 'https://b.example' } },
      'inference.chat.topP': 3,
    });
    assert.deepEqual(problemsBlocking(problems, 'other', 'ok'), []);
    assert.deepEqual(problemsBlocking(problems, 'chat', 'ok').map((p) => p.setting), ['inference.chat.topP']);
    assert.deepEqual(problemsBlocking(problems, 'image', 'broken').map((p) => p.environment), ['broken']);
  });
});

/**
 * Each bad setting a user can write, as the Bad settings integration suite met them one by one in
 * the extension host: one problem, naming the setting in a sentence that says what to do, that stops
 * the requests it concerns. The extension host proves the path once per kind of request
 * (test/integration/account/badSettings.test.ts); the sentences and what they stop are proved here.
 */
describe('checkSettings: every bad setting, one sentence, the requests it stops', () => {
  const BASE = 'http://127.0.0.1:8787/api/v1';
  const environments = (baseUrl: unknown) => ({ production: { baseUrl }, preview: { baseUrl: BASE } });
  const cases: { what: string; setting: string; value: unknown; purpose: 'chat' | 'image' | 'other'; message: RegExp }[] = [
    { what: 'a malformed base URL', setting: 'inference.environments', value: environments('127.0.0.1:8787/api/v1'), purpose: 'other', message: /base URL of "production" \("127\.0\.0\.1:8787\/api\/v1"\) is not a valid URL/ },
    { what: 'a base URL without /api/v1', setting: 'inference.environments', value: environments('http://127.0.0.1:8787/v1'), purpose: 'other', message: /does not end in \/api\/v1/ },
    { what: 'plain http to another machine', setting: 'inference.environments', value: environments('http://example.com/api/v1'), purpose: 'other', message: /plain http to another machine/ },
    { what: 'a base URL that is not http(s)', setting: 'inference.environments', value: environments('ftp://127.0.0.1/api/v1'), purpose: 'other', message: /base URL of "production"/ },
    { what: 'environments that are not named entries', setting: 'inference.environments', value: BASE, purpose: 'other', message: /"inference\.environments" must be an object of named environments/ },
    { what: 'an unknown active environment', setting: 'inference.activeEnvironment', value: 'staging', purpose: 'other', message: /"inference\.activeEnvironment" names "staging", which is not in "inference\.environments" \(configured: "production", "preview"\)/ },
    { what: 'a negative timeout', setting: 'inference.timeouts.connectSeconds', value: -5, purpose: 'other', message: /"inference\.timeouts\.connectSeconds" is -5: it must be a number of seconds from 1 to 600/ },
    { what: 'an absurd timeout', setting: 'inference.timeouts.idleSeconds', value: 1e9, purpose: 'other', message: /"inference\.timeouts\.idleSeconds" is 1000000000/ },
    { what: 'a negative response timeout', setting: 'inference.timeouts.responseSeconds', value: -1, purpose: 'other', message: /"inference\.timeouts\.responseSeconds" is -1: it must be a number of seconds from 1 to 7,200/ },
    { what: 'a timeout that is not a number', setting: 'inference.timeouts.connectSeconds', value: '30', purpose: 'other', message: /"inference\.timeouts\.connectSeconds" is .*30.*: it must be a number of seconds/ },
    { what: 'an absurd retry count', setting: 'inference.rateLimit.maxRetries', value: 1000, purpose: 'other', message: /"inference\.rateLimit\.maxRetries" is 1000: it must be a whole number of retries from 0 to 10/ },
    { what: 'an absurd temperature', setting: 'inference.chat.temperature', value: 40, purpose: 'chat', message: /"inference\.chat\.temperature" is 40: it must be a number from 0 to 2, or null/ },
    { what: 'a negative temperature', setting: 'inference.chat.temperature', value: -0.5, purpose: 'chat', message: /"inference\.chat\.temperature" is -0\.5/ },
    { what: 'an absurd top P', setting: 'inference.chat.topP', value: 7, purpose: 'chat', message: /"inference\.chat\.topP" is 7: it must be a number from 0 to 1, or null/ },
    { what: 'a negative max tokens', setting: 'inference.chat.maxTokens', value: -1, purpose: 'chat', message: /"inference\.chat\.maxTokens" is -1/ },
    { what: 'an absurd max tokens', setting: 'inference.chat.maxTokens', value: 1e12, purpose: 'chat', message: /"inference\.chat\.maxTokens" is 1000000000000/ },
    { what: 'a size list that is not a list', setting: 'inference.images.sizePresets', value: '1024x1024', purpose: 'image', message: /"inference\.images\.sizePresets" must be a list of sizes/ },
    { what: 'a size list with an entry that is not a size', setting: 'inference.images.sizePresets', value: ['1024x768', 'huge'], purpose: 'image', message: /"inference\.images\.sizePresets" contains .*huge/ },
  ];

  for (const bad of cases) {
    it(`${bad.what}: ${bad.setting}`, () => {
      const values: Record<string, unknown> = { 'inference.environments': environments(BASE), 'inference.activeEnvironment': 'production', [bad.setting]: bad.value };
      const problems = checkSettings(values);
      assert.equal(problems.length, 1, `one problem: ${JSON.stringify(problems)}`);
      const [problem] = problems;
      assert.match(problem.message, bad.message);
      assert.ok(problem.message.includes(`"${bad.setting}"`), 'the sentence names the setting');
      assert.deepEqual(problemsBlocking(problems, bad.purpose, 'production'), [problem], `it stops a request of kind "${bad.purpose}"`);
      // What it does not concern goes on: a chat or image setting stops nothing else.
      for (const other of (['chat', 'image', 'other'] as const).filter((purpose) => purpose !== bad.purpose)) {
        const stops = problemsBlocking(problems, other, 'production').length > 0;
        assert.equal(stops, bad.purpose === 'other', `a "${bad.purpose}" problem ${bad.purpose === 'other' ? 'stops' : 'does not stop'} a request of kind "${other}"`);
      }
    });
  }
});
