import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ComparisonColumn, ConversationMessage } from '../../src/core/chat/conversation';
import { columnFigures } from '../../src/core/chat/protocol/columnFigures';
import type { UsageEntry } from '../../src/core/usage/ledger';
import { sumsOf } from '../../src/core/usage/periodSums';
import type { RequestRecord } from '../emulator';
import { waitFor } from '../harness/wait';
import { openNewChatPanel } from './support/chatPanels';
import { useConfiguredEmulator } from './support/emulatorSetup';

const SMALL = 'emu-chat-small';
const LARGE = 'emu-chat-large';
const MEASURE_EACH = 'inference.chat.comparison.measureEachModel';

/**
 * One question asked of several models at once, through the panel's requests as its webview sends
 * them, against the emulator: its request log is the truth the columns' figures and the comparison's
 * total are held against. The two models differ in speed and price (the emulator's modelPacing and
 * modelPrices).
 */
describe('Chat comparison of models (real extension host, emulator back end)', () => {
  const fixture = useConfiguredEmulator({
    modelPacing: { [SMALL]: { firstTokenDelayMs: 50, tokensPerSecond: 400 }, [LARGE]: { firstTokenDelayMs: 600, tokensPerSecond: 150 } },
    modelPrices: { [LARGE]: { chatPerRequest: 2, chatPer1kTokens: 8 } },
  });
  const chat = () => fixture().api.chat;
  const posts = (since = 0): RequestRecord[] => fixture().emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions') && r.startedAt >= since);
  const turnOf = async (id: string): Promise<ConversationMessage | undefined> => (await chat().conversation(id))?.messages.at(-1);
  const column = (turn: ConversationMessage | undefined, model: string): ComparisonColumn => turn?.comparison?.columns.find((c) => c.model === model) ?? assert.fail(`no column ${model}`);
  /** The comparison's turn once every column ended and its own spend is in (measured or not). */
  const settled = (id: string) => waitFor('the comparison to end, its spend in', async () => {
    const turn = await turnOf(id);
    return turn?.comparison && turn.status === 'done' && (turn.meta?.creditsSpent !== undefined || turn.meta?.spendNotMeasured !== undefined) ? turn : undefined;
  }, { timeoutMs: 30_000, intervalMs: 20 });
  /** A new panel whose account knows the wallet's balance now (the emulator's wallet is reset before each test). */
  const newPanel = async () => {
    await fixture().api.services.models.list('chat', 'production', { refresh: true, quiet: true });
    return openNewChatPanel(chat());
  };

  before(async () => {
    const { api, emulator } = fixture();
    await api.services.keys.set('production', emulator.keys.production.full);
    await api.services.models.select('chat', SMALL, 'production');
  });

  afterEach(async () => {
    await vscode.workspace.getConfiguration().update(MEASURE_EACH, undefined, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('sends exactly one POST per model; each column\'s figures agree with the emulator\'s timings, the total with its charges', async () => {
    const id = await newPanel();
    const sentAt = Date.now();
    await chat().request(id, 'compare', { text: 'Compare the two of you', models: [SMALL, LARGE] });
    const turn = await settled(id);
    const settledAt = Date.now();
    const requests = posts(sentAt);
    assert.deepEqual(requests.map((r) => r.model).sort(), [LARGE, SMALL], 'one request per model');
    assert.ok(requests.every((r) => r.status === 200 && r.chat?.messages.at(-1)?.content === 'Compare the two of you'));
    for (const model of [SMALL, LARGE]) {
      const shown = column(turn, model);
      const { meta } = shown.answer;
      const figures = columnFigures(shown);
      const record = requests.find((r) => r.model === model) ?? assert.fail(`no request for ${model}`);
      const serviceTtft = (record.firstContentAt ?? Infinity) - record.startedAt;
      const serviceTotal = (record.finishedAt ?? Infinity) - record.startedAt;
      // The emulator runs in this extension host, so the column's times and the emulator's are on one
      // clock: each of the column's must fall between the events that cause and bound it, however
      // busy the machine. Its clock starts after the question was asked and before the request
      // arrives; it sees the first token after the emulator wrote it; it ends after that and before
      // the test saw the comparison settle. (A margin in milliseconds over the emulator's figures
      // failed a busy CI: 708 ms against 97 ms, the difference spent before the request arrived.)
      const order = (what: string, earlier: number | undefined, later: number | undefined) =>
        assert.ok(earlier !== undefined && later !== undefined && earlier <= later, `${model}: ${what} (${earlier} then ${later})`);
      order('the question, then the column\'s clock starts', sentAt, meta?.startedAt);
      order('the column\'s clock starts, then the request arrives', meta?.startedAt, record.startedAt);
      order('the emulator writes the first token, then the column sees it', record.firstContentAt, meta?.firstDeltaAt);
      order('the column\'s first token, then its end', meta?.firstDeltaAt, meta?.finishedAt);
      order('the column ends, then the comparison settles', meta?.finishedAt, settledAt);
      assert.ok(figures.timeToFirstTokenMs !== undefined && figures.totalMs !== undefined, `${model}: both times`);
      assert.ok((figures.charsPerSecond ?? 0) > 0, `${model}: a rate`);
      assert.deepEqual(figures.spend, { notMeasured: 'overlapped' }, `${model}: ran beside the other`);
      console.log(`        ${model}: time to first token ${figures.timeToFirstTokenMs} ms (emulator ${serviceTtft} ms), total ${figures.totalMs} ms (emulator ${serviceTotal} ms), ${figures.charsPerSecond} chars/s, charged ${record.creditsCharged}`);
    }
    const small = columnFigures(column(turn, SMALL));
    const large = columnFigures(column(turn, LARGE));
    assert.ok((large.timeToFirstTokenMs ?? 0) > (small.timeToFirstTokenMs ?? Infinity), 'the slow model is slower to start');
    const charged = Math.round(requests.reduce((sum, r) => sum + r.creditsCharged, 0) * 1e6) / 1e6;
    assert.equal(turn.meta?.creditsSpent, charged, 'the comparison\'s total is what the service charged for its requests');
    console.log(`        the comparison's measured total: ${turn.meta?.creditsSpent} credits (the emulator charged ${charged})`);
    const ledger = fixture().api.services.usage;
    const found = await waitFor('both requests and the total in the ledger', () => {
      const named = ledger.entries().filter((e) => e.comparison === turn.id);
      return named.length === 3 ? named : undefined;
    }, { timeoutMs: 10_000, intervalMs: 20 });
    const entries = found.filter((e) => !e.covers);
    assert.deepEqual(entries.map((e) => e.requestId).sort(), requests.map((r) => r.id).sort(), 'each request in the ledger, named by the comparison');
    assert.ok(entries.every((e) => e.credits === null), 'each unmeasured on its own');
    const total = found.find((e) => e.covers);
    assert.deepEqual([total?.credits, total?.covers], [charged, entries.map((e) => e.at)], 'the measured total, in place of both');
    // What the limits count (the sums kept beside the file): the total, not an allowance per column.
    await ledger.written();
    const sums = await ledger.periodSums();
    const day = (from: readonly UsageEntry[]) => sumsOf(from, sums.periods).environments.get('production')?.day;
    assert.deepEqual(sums.environments.get('production')?.day, day(ledger.entries()), 'the kept sums, as the entries count');
    assert.equal((day(ledger.entries().filter((e) => e !== total))?.unmeasured ?? 0) - (day(ledger.entries())?.unmeasured ?? 0), 2, 'both columns taken back');
  });

  it('keeps a 404 in its own column while the other answers, and refuses a model the environment does not list', async () => {
    const id = await newPanel();
    await assert.rejects(chat().request(id, 'compare', { text: 'Who?', models: [SMALL, 'emu-chat-gone'] }), /does not list the model "emu-chat-gone"/);
    const sentAt = Date.now();
    fixture().emulator.injectFault('production', { fault: 'http-404', path: '/chat/completions' });
    await chat().request(id, 'compare', { text: 'Who answers?', models: [SMALL, LARGE] });
    const turn = await settled(id);
    const columns = turn.comparison?.columns ?? [];
    assert.deepEqual(columns.map((c) => c.answer.status).sort(), ['done', 'error'], 'the first request to arrive was refused, the other answered');
    assert.equal(columns.find((c) => c.answer.status === 'error')?.answer.error?.status, 404);
    assert.deepEqual(posts(sentAt).map((r) => r.status).sort(), [200, 404], 'one request per model');
  });

  it('waits out a 429 on one column as a single request would, while the others go on', async () => {
    const id = await newPanel();
    const sentAt = Date.now();
    fixture().emulator.injectFault('production', { fault: 'http-429', retryAfterSeconds: 1, path: '/chat/completions' });
    await chat().request(id, 'compare', { text: 'Rate limited?', models: [SMALL, LARGE] });
    const turn = await settled(id);
    const requests = posts(sentAt);
    const refused = requests.find((r) => r.status === 429) ?? assert.fail('no 429');
    const retried = requests.filter((r) => r.status === 200);
    assert.equal(requests.length, 3, 'the refused request, then one answer per model');
    assert.deepEqual([SMALL, LARGE].map((m) => column(turn, m).answer.status), ['done', 'done']);
    // The other column was not held up: it was sent before the refused one's retry (which waited its second).
    const retry = retried.filter((r) => r.startedAt > refused.startedAt).at(-1) ?? assert.fail('no retry');
    const other = retried.find((r) => r !== retry) ?? assert.fail('no other');
    assert.ok(retry.startedAt - refused.startedAt >= 900, `retried ${retry.startedAt - refused.startedAt} ms after the 429`);
    assert.notEqual(other.model, retry.model);
    assert.ok(other.startedAt < retry.startedAt, 'the other column was sent without waiting for the refused one');
    const waited = columnFigures(column(turn, retry.model ?? ''));
    assert.ok((waited.timeToFirstTokenMs ?? Infinity) < retry.startedAt - refused.startedAt, `its time to first token (${waited.timeToFirstTokenMs} ms) counts from the retry, not the wait`);
  });

  it('stops one column while the other finishes', async () => {
    const { emulator } = fixture();
    const id = await newPanel();
    emulator.scriptReply('production', { text: 'one two three four five six seven eight', chunkChars: 3, holdAfterPieces: 2 });
    await chat().request(id, 'compare', { text: 'Stop one of you', models: [SMALL, LARGE] });
    // The first request to arrive takes the held reply; the other answers as generated.
    const held = await waitFor('a column held mid-answer', async () => {
      const turn = await turnOf(id);
      return emulator.held() > 0 ? turn?.comparison?.columns.find((c) => c.answer.text.length > 0 && c.answer.status === 'streaming') : undefined;
    }, { timeoutMs: 15_000, intervalMs: 20 });
    await chat().request(id, 'stopColumn', { columnId: held.answer.id });
    const turn = await settled(id);
    const stopped = column(turn, held.model);
    const other = turn.comparison?.columns.find((c) => c.model !== held.model) ?? assert.fail('no other column');
    assert.equal(stopped.answer.status, 'stopped');
    assert.ok(stopped.answer.text.length > 0, 'its partial answer is kept');
    assert.equal(other.answer.status, 'done');
    const record = emulator.requests.find((r) => r.id === stopped.answer.meta?.requestId);
    assert.ok(record?.clientClosedAt !== undefined, 'its connection was closed');
  });

  it('continues with one answer: its model goes on, the comparison stays as it was', async () => {
    const id = await newPanel();
    await chat().request(id, 'compare', { text: 'Pick me', models: [SMALL, LARGE] });
    const turn = await settled(id);
    const chosen = column(turn, LARGE);
    await chat().request(id, 'continueWith', { turnId: turn.id, columnId: chosen.answer.id });
    const sentAt = Date.now();
    await chat().request(id, 'send', { text: 'Go on' });
    await waitFor('the answer after the comparison', async () => {
      const last = await turnOf(id);
      return last?.role === 'assistant' && last.id !== turn.id && last.status === 'done' ? last : undefined;
    }, { timeoutMs: 30_000, intervalMs: 20 });
    const [next] = posts(sentAt);
    assert.equal(next.model, LARGE);
    assert.deepEqual(next.chat?.messages.map((m) => [m.role, m.content]), [['user', 'Pick me'], ['assistant', chosen.answer.text], ['user', 'Go on']]);
    const saved = await chat().conversation(id);
    assert.equal(saved?.model, LARGE);
    const kept = saved?.messages.find((m) => m.id === turn.id);
    assert.equal(kept?.comparison?.chosen, chosen.answer.id);
    assert.equal(kept?.comparison?.columns.length, 2);
  });

  it(`runs the columns one at a time with ${MEASURE_EACH}, each column measured and the total theirs`, async () => {
    await vscode.workspace.getConfiguration().update(MEASURE_EACH, true, vscode.ConfigurationTarget.Global);
    const id = await newPanel();
    const sentAt = Date.now();
    await chat().request(id, 'compare', { text: 'One at a time', models: [SMALL, LARGE] });
    const turn = await settled(id);
    const [first, second] = posts(sentAt).sort((a, b) => a.startedAt - b.startedAt);
    assert.ok(second.startedAt >= (first.finishedAt ?? Infinity), 'the second was sent after the first ended');
    for (const record of [first, second]) {
      const spend = columnFigures(column(turn, record.model ?? '')).spend;
      assert.deepEqual(spend, { credits: record.creditsCharged }, `${record.model}: its own charge`);
    }
    assert.equal(turn.meta?.creditsSpent, Math.round((first.creditsCharged + second.creditsCharged) * 1e6) / 1e6);
  });
});
