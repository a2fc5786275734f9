import * as assert from 'node:assert/strict';
import { parseLedger, parseUsageEntry, serializeEntry, toUsageEntry, type UsageEntry, type UsageRecord } from '../../../src/core/usage/ledger';
import { buildUsageReport, dayKey, lastDays, spendToday, usageCsvStreamed } from '../../../src/core/usage/report';
import { parseUsageWebviewMessage } from '../../../src/core/usage/protocol';

/** Local wall-clock time, so that days are the same calendar days whatever the machine's time zone. */
const local = (month: number, day: number, hour = 12, minute = 0) => new Date(2026, month - 1, day, hour, minute).getTime();
const NOW = local(11, 22, 9, 30);

function entry(at: number, credits: number, overrides: Partial<UsageRecord> = {}): UsageEntry {
  return toUsageEntry({ requestId: `req-${at}-${credits}`, model: 'chat-a', environment: 'production', kind: 'chat', credits, ...overrides }, at);
}

describe('usage ledger entries', () => {
  it('round-trips through its JSON line and skips lines of another version or shape', () => {
    const good = entry(local(11, 21), 0.25);
    const text = [serializeEntry(good), '{"v":2,"requestId":"x"}\n', 'not json\n', '\n', JSON.stringify({ ...good, credits: 'many' }), '\n', JSON.stringify({ ...good, kind: 'audio' })].join('');
    assert.deepEqual(parseLedger(text), [good]);
    assert.equal(parseUsageEntry('null'), undefined);
    const unmeasured = entry(local(11, 21), 0, { credits: null });
    assert.deepEqual(parseLedger(serializeEntry(unmeasured)), [unmeasured], 'a request billed without a measurable cost');
  });

  it('keeps the comparison a chat answer was asked in, and drops a malformed one without losing the entry', () => {
    const asked = toUsageEntry({ requestId: 'r1', model: 'm', environment: 'production', kind: 'chat', credits: 0.5, comparison: 'turn-7' }, 1);
    assert.equal(parseUsageEntry(serializeEntry(asked))?.comparison, 'turn-7');
    const bad = parseUsageEntry(JSON.stringify({ ...asked, comparison: 42 }));
    assert.equal(bad?.credits, 0.5);
    assert.equal(bad?.comparison, undefined);
  });

  it('keeps nothing but the ledger fields, whatever the caller passed', () => {
    const record = { requestId: 'r', model: 'm', environment: 'e', kind: 'image', credits: 1, prompt: 'secret prompt', key: 'sk-123' } as UsageRecord;
    assert.deepEqual(Object.keys(toUsageEntry(record, 5)).sort(), ['at', 'credits', 'environment', 'kind', 'model', 'requestId', 'v']);
    assert.doesNotMatch(serializeEntry(toUsageEntry(record, 5)), /secret|sk-123/);
  });
});

describe('usage report', () => {
  it('names the last 30 local days, oldest first, ending today, across a month boundary', () => {
    const days = lastDays(NOW, 30);
    assert.equal(days.length, 30);
    assert.equal(days.at(-1), '2026-11-22');
    assert.equal(days[0], '2026-10-24');
    assert.equal(new Set(days).size, 30);
    assert.equal(dayKey(local(11, 22, 0, 0)), '2026-11-22');
    assert.equal(dayKey(local(11, 21, 23, 59)), '2026-11-21');
  });

  it('sums spend per day stacked by model and by kind, ignoring entries outside the window or in the future', () => {
    const entries = [
      entry(local(11, 21, 10), 1.5, { model: 'chat-a' }),
      entry(local(11, 21, 11), 0.5, { model: 'chat-b' }),
      entry(local(11, 21, 12), 2, { model: 'img-1', kind: 'image' }),
      entry(local(11, 22, 8), 0.1, { model: 'chat-a' }),
      entry(local(11, 22, 8, 5), 0.2, { model: 'chat-a' }),
      entry(local(10, 23, 12), 100, { model: 'chat-a' }), // 30 days ago: outside
      entry(local(11, 22, 10), 50, { model: 'chat-a' }), // after "now"
    ];
    const report = buildUsageReport(entries, NOW);
    const day = (date: string) => report.byModel.days.find((d) => d.date === date);
    assert.deepEqual(day('2026-11-21'), { date: '2026-11-21', total: 4, parts: { 'chat-a': 1.5, 'chat-b': 0.5, 'img-1': 2 } });
    assert.deepEqual(day('2026-11-22'), { date: '2026-11-22', total: 0.3, parts: { 'chat-a': 0.3 } }, '0.1 + 0.2 is rounded, not 0.30000000000000004');
    assert.deepEqual(report.byModel.series, ['img-1', 'chat-a', 'chat-b'], 'largest series first');
    assert.deepEqual(report.byKind.days.find((d) => d.date === '2026-11-21')?.parts, { chat: 2, image: 2 });
    assert.equal(report.byModel.days.length, 30);
    assert.equal(report.total, 4.3);
    assert.equal(report.requests, 5);
    assert.equal(report.today, 0.3);
    assert.equal(report.unmeasured, 0);
  });

  it('leaves requests without a measured cost out of every sum and list, and counts them', async () => {
    const entries = [
      entry(local(11, 21, 10), 1.5, { model: 'chat-a' }),
      entry(local(11, 22, 8), 0, { model: 'chat-a', credits: null, requestId: 'overlapped-chat' }),
      entry(local(11, 22, 8), 0, { model: 'img-1', kind: 'image', credits: null, requestId: 'overlapped-image' }),
      entry(local(10, 23, 12), 0, { credits: null }), // 30 days ago: outside
    ];
    const report = buildUsageReport(entries, NOW);
    assert.deepEqual([report.total, report.requests, report.today, report.unmeasured], [1.5, 1, 0, 2]);
    assert.deepEqual(report.byModel.series, ['chat-a']);
    assert.deepEqual(report.byKind.days.find((d) => d.date === '2026-11-22'), { date: '2026-11-22', total: 0, parts: {} });
    assert.deepEqual(report.topRequests.map((r) => r.requestId), [entries[0].requestId]);
    assert.deepEqual(report.environments, [{ environment: 'production', credits: 1.5, requests: 1 }]);
    const csv = (await usageCsvStreamed(recorded(entries))).split('\r\n');
    assert.ok(csv.some((row) => row.endsWith(',"chat","chat-a","","overlapped-chat","","",""')), 'an empty credits field in the CSV');
  });

  it('lists the most expensive requests first and totals each environment', () => {
    const entries = [
      entry(local(11, 20), 0.4, { environment: 'preview', requestId: 'p1' }),
      entry(local(11, 21), 3, { environment: 'production', requestId: 'big' }),
      entry(local(11, 22, 9), 0.4, { environment: 'production', requestId: 'recent-tie' }),
      entry(local(11, 19), 0.1, { environment: 'preview', requestId: 'p2' }),
    ];
    const report = buildUsageReport(entries, NOW, { top: 3 });
    assert.deepEqual(report.topRequests.map((r) => r.requestId), ['big', 'recent-tie', 'p1'], 'ties: the newer first');
    assert.deepEqual(report.environments, [
      { environment: 'production', credits: 3.4, requests: 2 },
      { environment: 'preview', credits: 0.5, requests: 2 },
    ]);
  });

  it('counts today from local midnight with the injected clock', () => {
    const entries = [entry(local(11, 21, 23, 59), 1), entry(local(11, 22, 0, 1), 2), entry(local(11, 22, 0, 2), 0, { credits: null })];
    assert.deepEqual(spendToday(entries, NOW), { credits: 2, unmeasured: 1 });
    assert.deepEqual(spendToday(entries, local(11, 21, 23, 59, )), { credits: 1, unmeasured: 0 });
  });

});

async function* recorded(entries: UsageEntry[]): AsyncGenerator<UsageEntry> {
  yield* entries;
}

/** RFC 4180 rows of a CSV text (quoted fields may hold separators, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') field += text[++i];
      else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') { row.push(field); field = ''; }
    else if (char === '\r' && text[i + 1] === '\n') { row.push(field); rows.push(row); row = []; field = ''; i++; }
    else field += char;
  }
  return rows;
}

/** A spreadsheet starts a formula at a cell that begins with one of these (OWASP's list). */
const FORMULA_START = /^[=+\-@\t\r]/;

describe('usage CSV', () => {
  it('has a header and one row per entry, in the order recorded, with CRLF line ends', async () => {
    const csv = await usageCsvStreamed(recorded([entry(local(11, 21, 8), 1.25, { requestId: 'a', kind: 'image', model: 'img-1' }), entry(local(11, 22, 8), 0.2, { requestId: 'b' })]));
    const lines = csv.split('\r\n');
    assert.equal(lines[0], '"time","date","environment","kind","model","credits","request_id","token","comparison","measured_together"');
    assert.equal(lines[1], `"${new Date(local(11, 21, 8)).toISOString()}","2026-11-21","production","image","img-1",1.25,"a","","",""`);
    assert.equal(lines[2], `"${new Date(local(11, 22, 8)).toISOString()}","2026-11-22","production","chat","chat-a",0.2,"b","","",""`);
    assert.equal(lines[3], '');
    assert.equal(lines.length, 4);
  });

  // Issue 27, item 4: a formula could start after a separator the first-character check never saw.
  const hostile = [
    { requestId: 'req;=1+1', model: 'chat\t=HYPERLINK("http://x")', environment: '=cmd|\' /C calc\'!A0' },
    { requestId: '+1', model: 'a,"b"', environment: 'x\n@SUM(1)' },
    { requestId: 'r,-2+3', model: '\t-1', environment: 'production' },
  ];
  let csv = '';
  before(async () => {
    csv = await usageCsvStreamed(recorded(hostile.map((fields, i) => entry(local(11, 22, 8 + i), 1, fields))));
  });

  it('quotes every text field, so that a separator, quote or line break inside one stays in it', () => {
    const rows = parseCsv(csv);
    assert.equal(rows.length, 4);
    assert.deepEqual(rows.slice(1).map((row) => [row[2], row[4], row[6]]), [
      ["'=cmd|' /C calc'!A0", "chat\t'=HYPERLINK(\"http://x\")", "req;'=1+1"],
      ['x\n\'@SUM(1)', 'a,"b"', "'+1"],
      ['production', "'\t'-1", "r,'-2+3"],
    ]);
  });

  it('leaves no cell that a spreadsheet could read as a formula, whichever separator it splits on', () => {
    // Split as a spreadsheet might: by this locale's separator (with or without honouring the quotes),
    // or as a paste does, by TAB and line breaks.
    const splits: Array<[string, (text: string) => string[]]> = [
      ['RFC 4180', (text) => parseCsv(text).flat()],
      ...[',', ';', '\t', '\n', '\r'].map((separator): [string, (text: string) => string[]] => [JSON.stringify(separator), (text) => text.split(separator)]),
    ];
    for (const [name, split] of splits) {
      for (const cell of split(csv)) {
        const content = cell.replace(/^"/, '');
        assert.doesNotMatch(content, FORMULA_START, `split by ${name}: ${JSON.stringify(cell)}`);
      }
    }
  });
});

describe('usage report: inline suggestions, a kind of their own', () => {
  const suggestion = (at: number, credits: number | null, environment = 'production') => entry(at, 0, { kind: 'suggestion', model: 'code-a', credits, environment });
  const entries = [
    entry(local(11, 21, 10), 2),
    suggestion(local(11, 21, 11), 0.01),
    suggestion(local(11, 22, 8), 0.02, 'preview'),
    suggestion(local(11, 22, 8, 1), null),
    suggestion(local(10, 1), 5), // before the window
  ];

  it('reads back old and new ledger lines alike, and stacks suggestions as their own kind', () => {
    assert.deepEqual(parseLedger(entries.map(serializeEntry).join('')), entries);
    const oldLine = '{"v":1,"requestId":"r","model":"m","environment":"e","kind":"chat","credits":1,"at":5}';
    assert.equal(parseUsageEntry(oldLine)?.kind, 'chat', 'a ledger written before suggestions reads unchanged');
    const report = buildUsageReport(entries, NOW);
    assert.deepEqual(report.byKind.series, ['chat', 'suggestion']);
    assert.deepEqual(report.byKind.days.find((d) => d.date === '2026-11-22')?.parts, { suggestion: 0.02 });
    assert.equal(report.total, 2.03);
  });

  it('sums their spend beside the counts of the same days, with credits per accepted suggestion', () => {
    const report = buildUsageReport(entries, NOW, { suggestionCounts: { requested: 40, shown: 30, accepted: 3, cancelled: 12 } });
    assert.deepEqual(report.suggestions, { credits: 0.03, requests: 2, unmeasured: 1, counts: { requested: 40, shown: 30, accepted: 3, cancelled: 12 }, creditsPerAccepted: 0.01 });
    assert.equal(buildUsageReport(entries, NOW).suggestions?.creditsPerAccepted, null, 'none accepted: no figure');
    assert.equal(buildUsageReport([entries[0]], NOW).suggestions, undefined, 'nothing of suggestions: no section');
    assert.deepEqual(buildUsageReport([entries[0]], NOW, { suggestionCounts: { requested: 1, shown: 0, accepted: 0, cancelled: 1 } }).suggestions?.counts, { requested: 1, shown: 0, accepted: 0, cancelled: 1 }, 'counted though nothing was billed');
    assert.equal(buildUsageReport(entries, NOW, { token: 'tok', suggestionCounts: { requested: 1, shown: 1, accepted: 1, cancelled: 0 } }).suggestions, undefined, 'suggestions use no endpoint token');
  });

  it('exports them in the CSV with their kind', async () => {
    async function* recorded(list: UsageEntry[]): AsyncGenerator<UsageEntry> {
      yield* list;
    }
    const rows = (await usageCsvStreamed(recorded(entries))).split('\r\n');
    assert.match(rows[2], /,"production","suggestion","code-a",0.01,/);
    assert.match(rows[4], /,"suggestion","code-a","",/, 'unmeasured: an empty credits field');
  });
});

describe('usage view protocol', () => {
  it('accepts only known messages of its version', () => {
    assert.deepEqual(parseUsageWebviewMessage({ v: 2, type: 'copyRequestId', requestId: 'r1' }), { v: 2, type: 'copyRequestId', requestId: 'r1' });
    assert.deepEqual(parseUsageWebviewMessage({ v: 2, type: 'exportCsv', extra: 1 }), { v: 2, type: 'exportCsv' });
    for (const bad of [null, 'ready', { v: 1, type: 'ready' }, { v: 3, type: 'ready' }, { v: 2, type: 'copyRequestId' }, { v: 2, type: 'copyRequestId', requestId: '' }, { v: 2, type: 'runCommand' }]) {
      assert.equal(parseUsageWebviewMessage(bad), undefined, JSON.stringify(bad));
    }
  });
});
