import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { serializeEntry, toUsageEntry, type UsageEntry, type UsageRecord } from '../../../src/core/usage/ledger';
import { limitReached, type LimitCheck } from '../../../src/core/usage/limitCheck';
import { sumsFor, sumsOf, type SpendSums } from '../../../src/core/usage/periodSums';
import { readPeriodSums, type PeriodSumsFiles } from '../../../src/core/usage/periodSumsFile';
import { kindBudgetKey, tokenBudgetKey, type SpendBudget } from '../../../src/core/usage/spendBudget';
import { currentPeriods, sumWithin } from '../../../src/core/usage/spendingLimits';

const ZONE = 'UTC';
const NOW = Date.parse('2026-03-15T12:00:00Z');
// Every period of the table (a period added to it is summed here too); the tests look at the day and month.
const PERIODS = currentPeriods(NOW, ZONE);
const DAY = PERIODS.day;
const TOKEN = { id: 'tok-1', name: 'aider' };
const tokenAt = (dailyLimit: number): SpendBudget => ({ key: tokenBudgetKey(TOKEN.id), name: TOKEN.name, dailyLimit });

function entry(at: string, credits: number | null, extra: Partial<UsageRecord> = {}): UsageEntry {
  return toUsageEntry({ requestId: `r-${at}`, model: 'm', environment: 'production', kind: 'chat', credits, ...extra }, Date.parse(at));
}

/** Sums in a comparable form (floating sums rounded). */
function plain(sums: SpendSums): unknown {
  const round = (map: SpendSums['environments']) => [...map].sort(([a], [b]) => a.localeCompare(b)).map(([key, { day, month }]) => [key, Math.round(day.measured * 1e6), day.unmeasured, Math.round(month.measured * 1e6), month.unmeasured]);
  return { environments: round(sums.environments), budgets: round(sums.budgets) };
}

describe('period sums: the day\'s and month\'s spend per environment and endpoint token', () => {
  const entries = [
    entry('2026-02-28T23:59:59Z', 50), // last month: nowhere
    entry('2026-03-01T00:00:00Z', 1.25),
    entry('2026-03-14T23:59:59Z', 2, { token: TOKEN }), // yesterday: the month only
    entry('2026-03-15T00:00:00Z', 0.5, { token: TOKEN }),
    entry('2026-03-15T08:00:00Z', null, { token: TOKEN }),
    entry('2026-03-15T09:00:00Z', 3, { environment: 'preview' }),
  ];

  it('equals the sum over the entries of each period, per environment and per token', () => {
    const sums = sumsOf(entries, PERIODS);
    const production = entries.filter((e) => e.environment === 'production');
    // Every period of the table is the sum over its own bounds.
    const over = (picked: UsageEntry[]) => Object.fromEntries(Object.entries(PERIODS).map(([period, bounds]) => [period, sumWithin(picked, bounds)]));
    assert.deepEqual(sumsFor(sums.environments, 'production'), over(production));
    assert.deepEqual(sumsFor(sums.budgets, tokenBudgetKey(TOKEN.id)), over(entries.filter((e) => e.token?.id === TOKEN.id)));
    assert.deepEqual([sumsFor(sums.budgets, tokenBudgetKey(TOKEN.id)).day, sumsFor(sums.budgets, tokenBudgetKey(TOKEN.id)).month], [{ measured: 0.5, unmeasured: 1 }, { measured: 2.5, unmeasured: 1 }]);
    assert.deepEqual(sumsFor(sums.environments, 'preview').day, { measured: 3, unmeasured: 0 });
    assert.deepEqual(sumsFor(sums.budgets, tokenBudgetKey('unknown')), over([]));
  });

  it('sums each kind across environments, so that a budget of a kind counts every environment\'s', () => {
    const suggestions = [
      entry('2026-03-15T01:00:00Z', 0.25, { kind: 'suggestion' }),
      entry('2026-03-15T02:00:00Z', null, { kind: 'suggestion', environment: 'preview' }),
      entry('2026-03-10T02:00:00Z', 1, { kind: 'suggestion', environment: 'preview' }),
    ];
    const sums = sumsOf([...entries, ...suggestions], PERIODS);
    assert.deepEqual(sumsFor(sums.budgets, kindBudgetKey('suggestion')).day, { measured: 0.25, unmeasured: 1 });
    assert.deepEqual(sumsFor(sums.budgets, kindBudgetKey('suggestion')).month, { measured: 1.25, unmeasured: 1 });
    assert.deepEqual(sumsFor(sums.budgets, kindBudgetKey('chat')).day, { measured: 3.5, unmeasured: 1 });
    assert.deepEqual(sumsFor(sums.budgets, kindBudgetKey('image')).day, { measured: 0, unmeasured: 0 });
    const check: LimitCheck = { sums, environment: 'production', consented: true, allowance: 1, reserved: 0, budgets: [{ key: kindBudgetKey('suggestion'), name: 'suggestions', dailyLimit: 1.5 }], reservedByBudget: new Map() };
    assert.equal(limitReached(check), undefined, '0.25 measured + 1 unmeasured at the allowance');
    const reached = limitReached({ ...check, reservedByBudget: new Map([[kindBudgetKey('suggestion'), 0.25]]) });
    assert.deepEqual([reached?.budget?.name, reached?.spend.counted], ['suggestions', 1.5], 'a suggestion in flight counts, whatever the environment');
  });

  it('refuses past a token\'s own daily limit whatever Send Anyway says, and past the environment\'s only without consent', () => {
    const sums = sumsOf(entries, PERIODS);
    const check = (overrides: Partial<LimitCheck>): LimitCheck => ({ sums, environment: 'production', consented: false, allowance: 1, reserved: 0, budgets: [], reservedByBudget: new Map(), ...overrides });
    // The token today: 0.5 measured + 1 unmeasured at the allowance of 1 = 1.5.
    assert.equal(limitReached(check({ budgets: [tokenAt(1.6)] })), undefined);
    assert.equal(limitReached(check({ budgets: [tokenAt(1.6)], reservedByBudget: new Map([[tokenBudgetKey(TOKEN.id), 0.1]]) }))?.budget?.name, 'aider', 'a request in flight through the token counts');
    const reached = limitReached(check({ budgets: [tokenAt(1.5)], consented: true, limit: { day: 100, warningFraction: 0.8 } }));
    assert.equal(reached?.budget?.name, 'aider');
    assert.equal(reached?.spend.counted, 1.5);
    assert.equal(reached?.spend.resetsAt, DAY.end);
    // The environment's day: 1.5 as well; its limit refuses every caller, unless the user consented.
    const environment = limitReached(check({ limit: { day: 1.5, warningFraction: 0.8 }, budgets: [tokenAt(10)] }));
    assert.deepEqual([environment?.budget, environment?.spend.period], [undefined, 'day']);
    assert.equal(limitReached(check({ limit: { day: 1.5, warningFraction: 0.8 }, consented: true })), undefined);
    assert.equal(limitReached(check({ limit: { month: 4.75, warningFraction: 0.8 } }))?.spend.period, 'month');
    assert.equal(limitReached(check({ limit: { month: 4.76, warningFraction: 0.8 } })), undefined);
  });
});

describe('period sums file beside the ledger', () => {
  let dir: string;
  let files: PeriodSumsFiles;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'period-sums-'));
    files = { ledger: path.join(dir, 'ledger.jsonl'), sums: path.join(dir, 'period-sums.json'), pid: 7 };
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const append = (...list: UsageEntry[]) => fs.appendFileSync(files.ledger, list.map(serializeEntry).join(''));
  const read = () => readPeriodSums(files, PERIODS);
  const truth = () => plain(sumsOf(fs.readFileSync(files.ledger, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as UsageEntry), PERIODS));
  const stored = () => JSON.parse(fs.readFileSync(files.sums, 'utf8')) as { ledger: { size: number } };

  it('counts a comparison\'s measured total in place of its columns, built whole or from the lines appended since', async () => {
    const columns = [entry('2026-03-14T23:59:59Z', null, { comparison: 'turn-1', model: 'a' }), entry('2026-03-15T00:00:01Z', null, { comparison: 'turn-1', model: 'b' })];
    append(entry('2026-03-15T01:00:00Z', null), ...columns);
    await read();
    const total = toUsageEntry({ requestId: '', model: '', environment: 'production', kind: 'chat', credits: 0.75, comparison: 'turn-1', covers: columns.map((e) => e.at) }, Date.parse('2026-03-15T00:00:02Z'));
    append(total);
    const all = [entry('2026-03-15T01:00:00Z', null), ...columns, total];
    const expected = { day: { measured: 0.75, unmeasured: 1 }, month: { measured: 0.75, unmeasured: 1 } };
    const fromLines = sumsFor((await read()).environments, 'production');
    assert.deepEqual([fromLines.day, fromLines.month], [expected.day, expected.month], 'the lines appended since');
    fs.rmSync(files.sums);
    const whole = sumsFor((await read()).environments, 'production');
    assert.deepEqual([whole.day, whole.month], [expected.day, expected.month], 'built from the ledger');
    const over = Object.fromEntries(Object.entries(PERIODS).map(([period, bounds]) => [period, sumWithin(all, bounds)]));
    assert.deepEqual(sumsFor(sumsOf(all, PERIODS).environments, 'production'), over, 'the sum over each period\'s entries');
  });

  it('is empty without a ledger, and is built from the ledger when missing', async () => {
    assert.deepEqual(plain(await read()), { environments: [], budgets: [] });
    append(entry('2026-03-15T01:00:00Z', 1), entry('2026-03-10T01:00:00Z', 2, { token: TOKEN }));
    assert.deepEqual(plain(await read()), truth());
    assert.equal(stored().ledger.size, fs.statSync(files.ledger).size);
  });

  it('adds only the lines other windows appended since, and waits for a line still being written', async () => {
    append(entry('2026-03-15T01:00:00Z', 1));
    await read();
    append(entry('2026-03-15T02:00:00Z', 0.25, { token: TOKEN }), entry('2026-03-15T03:00:00Z', null));
    const whole = fs.statSync(files.ledger).size;
    const half = serializeEntry(entry('2026-03-15T04:00:00Z', 7));
    fs.appendFileSync(files.ledger, half.slice(0, 20));
    assert.deepEqual(plain(await read()), plain(sumsOf([entry('2026-03-15T01:00:00Z', 1), entry('2026-03-15T02:00:00Z', 0.25, { token: TOKEN }), entry('2026-03-15T03:00:00Z', null)], PERIODS)));
    fs.appendFileSync(files.ledger, half.slice(20));
    assert.deepEqual(plain(await read()), truth());
    assert.ok(stored().ledger.size < whole, 'a few lines past the file are read again, not written after each record');
    // Once the lines past it add up, the file is brought forward (whole lines only).
    for (let i = 0; i < 200; i++) append(entry('2026-03-15T05:00:00Z', 0.01));
    fs.appendFileSync(files.ledger, half.slice(0, 20));
    assert.deepEqual(plain(await read()), plain(sumsOf(fs.readFileSync(files.ledger, 'utf8').split('\n').slice(0, -1).map((line) => JSON.parse(line) as UsageEntry), PERIODS)));
    assert.equal(stored().ledger.size, fs.statSync(files.ledger).size - 20, 'the cut line is not covered');
    fs.appendFileSync(files.ledger, half.slice(20));
    // Incremental: a sums file that says something false about covered bytes is believed (its cost is the
    // point); what it covers is checked by the bytes at its end, the file's identity and its length.
    const lie = JSON.parse(fs.readFileSync(files.sums, 'utf8')) as { environments: Array<[string, { day: { measured: number } }]> };
    lie.environments[0][1].day.measured = 1000;
    fs.writeFileSync(files.sums, JSON.stringify(lie));
    assert.ok(sumsFor((await read()).environments, 'production').day.measured > 1000);
  });

  it('is rebuilt when the ledger was compacted, replaced, cut or rewritten, and when the file is damaged or of another day', async () => {
    append(entry('2026-03-15T01:00:00Z', 1), entry('2026-03-15T02:00:00Z', 2));
    await read();
    const poison = () => {
      const lie = JSON.parse(fs.readFileSync(files.sums, 'utf8')) as { environments: Array<[string, { day: { measured: number } }]> };
      lie.environments[0][1].day.measured = 1000;
      fs.writeFileSync(files.sums, JSON.stringify(lie));
    };
    // Compaction writes a new file and renames it over the ledger: another identity.
    poison();
    const replaced = `${files.ledger}.tmp`;
    fs.writeFileSync(replaced, fs.readFileSync(files.ledger));
    fs.renameSync(replaced, files.ledger);
    assert.deepEqual(plain(await read()), truth());
    // Cut shorter than what the sums cover.
    poison();
    fs.truncateSync(files.ledger, serializeEntry(entry('2026-03-15T01:00:00Z', 1)).length);
    assert.deepEqual(plain(await read()), truth());
    // Rewritten in place to the same length: the covered bytes' end differs.
    poison();
    const text = fs.readFileSync(files.ledger, 'utf8');
    fs.writeFileSync(files.ledger, text.replace('"credits":1,', '"credits":3,'));
    assert.deepEqual(plain(await read()), truth());
    assert.equal(sumsFor((await read()).environments, 'production').day.measured, 3);
    append(entry('2026-03-15T02:00:00Z', 1));
    // Damaged, or of another version.
    fs.writeFileSync(files.sums, '{"v":1,"ledger":');
    assert.deepEqual(plain(await read()), truth());
    fs.writeFileSync(files.sums, JSON.stringify({ ...JSON.parse(fs.readFileSync(files.sums, 'utf8')) as object, v: 99 }));
    assert.deepEqual(plain(await read()), truth());
    // Version 1 named the day and the month at the top: its sums are not read, they are rebuilt.
    const current = JSON.parse(fs.readFileSync(files.sums, 'utf8')) as { periods: { day: unknown; month: unknown } };
    fs.writeFileSync(files.sums, JSON.stringify({ ...current, v: 1, day: current.periods.day, month: current.periods.month }));
    poison();
    assert.deepEqual(plain(await read()), truth());
    // Version 2 kept endpoint tokens' sums only: rebuilt, so that every kind's sums are there.
    append(entry('2026-03-15T03:00:00Z', 0.5, { kind: 'suggestion', environment: 'preview' }));
    await read();
    const { budgets, ...rest } = JSON.parse(fs.readFileSync(files.sums, 'utf8')) as { budgets: unknown[] };
    assert.ok(budgets.length > 0);
    fs.writeFileSync(files.sums, JSON.stringify({ ...rest, v: 2, tokens: [] }));
    const rebuilt = await read();
    assert.deepEqual(plain(rebuilt), truth());
    assert.deepEqual(sumsFor(rebuilt.budgets, kindBudgetKey('suggestion')).day, { measured: 0.5, unmeasured: 0 });
    assert.equal((JSON.parse(fs.readFileSync(files.sums, 'utf8')) as { v: number }).v, 3, 'written again in the current version');
    // Another day: the next day's sums start from the ledger.
    poison();
    const next = await readPeriodSums(files, currentPeriods(DAY.end, ZONE));
    assert.deepEqual(sumsFor(next.environments, 'production').day, { measured: 0, unmeasured: 0 });
    assert.equal(sumsFor(next.environments, 'production').month.measured, 4);
    assert.equal(sumsFor(next.budgets, kindBudgetKey('suggestion')).month.measured, 0.5);
  });

  it('stays true when two windows append and read at the same time', async () => {
    const other: PeriodSumsFiles = { ...files, pid: 8 };
    const all: UsageEntry[] = [];
    for (let i = 0; i < 40; i++) {
      const e = entry(`2026-03-15T0${i % 10}:00:${String(i).padStart(2, '0')}Z`, i % 5 ? 0.125 * i : null, i % 2 ? { token: TOKEN } : {});
      all.push(e);
      append(e);
      await Promise.all([read(), readPeriodSums(other, PERIODS)]);
    }
    assert.deepEqual(plain(await read()), plain(sumsOf(all, PERIODS)));
    assert.deepEqual(fs.readdirSync(dir).sort(), ['ledger.jsonl', 'period-sums.json'], 'no temporary file left');
  });
});
