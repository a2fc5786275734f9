/** The meter every billed path is measured with, on fakes of the account, the model list, the guard and the ledger. */
import assert from 'node:assert/strict';
import { endpointMeter } from '../../../src/core/localEndpoint/endpointBilling';
import { accountMeter, readSettledBalance, type MeterOptions } from '../../../src/core/usage/accountMeter';
import { BilledCall } from '../../../src/core/usage/billedCall';
import { fakeMeterServices } from '../fakes/account';

const ENTRY = { requestId: 'req-1', model: 'm', environment: 'production', kind: 'chat' as const };

describe('account meter: the billing meter on the extension\'s services', () => {
  let services: ReturnType<typeof fakeMeterServices>;
  let readingOn: boolean;
  let clock: number;
  const now = () => clock;
  const options = (overrides: Partial<MeterOptions> = {}): MeterOptions => ({ who: 'Chat', readBalanceAfterAnswer: () => readingOn, ...overrides });

  beforeEach(() => {
    services = fakeMeterServices();
    readingOn = true;
    clock = 1000;
  });

  it('reads the settled balance with one fresh model-list request, quiet when asked, and none when the setting is off', async () => {
    services.models.answer = (env) => services.account.set(env, 9.5, 2000);
    assert.deepEqual(await readSettledBalance(services, 'production', options({ quiet: true })), { credits: 9.5, at: 2000 });
    assert.deepEqual(services.models.requests, [{ env: 'production', quiet: true }]);
    readingOn = false;
    assert.equal(await readSettledBalance(services, 'production', options()), undefined);
    assert.equal(services.models.requests.length, 1, 'no request while the setting is off');
  });

  it('has no reading until the account knows both the balance and when it arrived', async () => {
    services.models.answer = (env) => services.account.set(env, 9.5);
    assert.equal(await readSettledBalance(services, 'production', options()), undefined);
  });

  it('measures a stream from the balance known at its start to the settled reading after it', async () => {
    services.account.set('production', 10, 900);
    const call = await BilledCall.open(accountMeter(services, options()), 'Chat', 'production', { now });
    clock = 1500;
    services.models.answer = (env) => services.account.set(env, 9.25, 1600);
    assert.deepEqual(await call.billedStream(ENTRY), { credits: 0.75 });
    assert.deepEqual(services.usage.measured, [{ ...ENTRY, credits: 0.75 }]);
    assert.deepEqual(services.billing.events, ['open production', 'settling', 'close']);
  });

  it('bills a stream whose reading failed without a cost, and logs the failure under the path\'s name', async () => {
    services.account.set('production', 10, 900);
    const call = await BilledCall.open(accountMeter(services, options({ who: 'Language models' })), 'Language models', 'production', { now });
    services.models.answer = () => {
      throw new Error('503 Service Unavailable');
    };
    assert.deepEqual(await call.billedStream(ENTRY), { notMeasured: 'noReading' });
    assert.deepEqual(services.usage.unmeasured, [{ requestId: 'req-1', who: 'Language models', reason: 'noReading' }]);
    assert.deepEqual(services.log.lines, ['warn: Language models: could not read the balance after an answer: 503 Service Unavailable']);
  });

  it('opens through the spending guard with the token caller\'s budget, and a refusal there asks the service for nothing', async () => {
    const meter = accountMeter(services, options());
    (await BilledCall.open(meter, 'Local endpoint', 'production', { caller: { token: { id: 't', name: 'aider' }, dailyLimit: 5 } })).notBilled();
    services.billing.refusal = new Error('limit reached');
    await assert.rejects(BilledCall.open(meter, 'Chat', 'production'), /limit reached/);
    assert.deepEqual(services.billing.events, ['open production aider', 'close']);
    assert.deepEqual(services.models.requests, []);
    assert.deepEqual([services.usage.measured, services.usage.unmeasured], [[], []]);
  });

  it('gives the local endpoint the balance its last response reported, of the environment asked about', () => {
    services.account.set('production', 7, 1234);
    services.account.set('preview', 3);
    const meter = endpointMeter(accountMeter(services, options()), services);
    assert.deepEqual(meter.reading('production'), { credits: 7, at: 1234 });
    assert.equal(meter.reading('preview'), undefined, 'no time, no reading');
    assert.equal(meter.balance('preview'), 3);
    meter.warn('spend not recorded');
    assert.deepEqual(services.log.lines, ['warn: spend not recorded']);
  });
});
