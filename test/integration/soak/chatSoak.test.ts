import * as assert from 'node:assert/strict';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as vscode from 'vscode';
import type { ConversationMessage } from '../../../src/core/chat/conversation';
import type { ChatTestApi } from '../../../src/host/chat';
import type { Emulator, RequestRecord } from '../../emulator';
import { generateReply } from '../../emulator/textgen';
import { waitFor } from '../../harness/wait';
import { useConfiguredEmulator } from '../support/emulatorSetup';
import { SOAK_REQUESTS_ENV } from '../tags';

/**
 * Issue 12, item 2: chat requests through the real extension host against the emulator, first one
 * at a time, then four conversations in four panels at once, with a 429 injected every RATE_LIMIT_EVERY
 * requests. Every answer must be complete, byte-exact (the emulator's text is a pure function of the
 * request) and in its own conversation; no request may be retried more than the configured bound;
 * the extension host's heap afterwards must stay within a small bound of the heap before.
 * INFERENCE_SOAK_REQUESTS sets the count (`npm run soak` runs 1,000 and prints the figures).
 */
const REQUESTS = Number(process.env[SOAK_REQUESTS_ENV]) || 40;
const RATE_LIMIT_EVERY = 20;
const MAX_RETRIES = 2;
const TURNS_PER_CONVERSATION = 10;
const PANELS = 4;
const HEAP_BOUND_MB = 16;

function collectGarbage(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

async function heapMb(gc: () => void): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return process.memoryUsage().heapUsed / 1e6;
}

interface Figures { answers: number; rateLimited: number; maxRetriesSeen: number; failures: string[] }

describe('Chat soak (real extension host, emulator back end)', () => {
  // Neither the RPM window nor the wallet may end the soak: the 429s are the injected ones.
  const fixture = useConfiguredEmulator({ defaultRpm: 1_000_000, initialCredits: 1_000_000_000 });
  const chat = (): ChatTestApi => fixture().api.chat;
  const emulator = (): Emulator => fixture().emulator;
  const figures: Figures = { answers: 0, rateLimited: 0, maxRetriesSeen: 0, failures: [] };
  let sent = 0;

  before(async () => {
    const config = vscode.workspace.getConfiguration();
    await config.update('inference.rateLimit.maxRetries', MAX_RETRIES, vscode.ConfigurationTarget.Global);
    const { api } = fixture();
    await api.services.keys.set('production', emulator().keys.production.full);
    await api.services.models.select('chat', emulator().environments.production.chatModels[0], 'production');
  });

  after(async () => {
    await vscode.workspace.getConfiguration().update('inference.rateLimit.maxRetries', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  async function openPanel(): Promise<number> {
    await vscode.commands.executeCommand('inference.newChat');
    const index = chat().openConversations().length - 1;
    await waitFor('the new panel', () => chat().openConversations()[index], { timeoutMs: 5000, intervalMs: 20 });
    return index;
  }

  /** Asks one question in the panel at `index` and checks the answer against what the emulator sent. */
  /** 429s answered so far (a faulted request carries no messages to tell whose it was), counted before each reset. */
  const rateLimitedInLog = () => emulator().requests.filter((r) => r.status === 429 && r.path.endsWith('/chat/completions')).length;
  function resetEmulator(): void {
    figures.rateLimited += rateLimitedInLog();
    emulator().reset();
  }

  async function ask(index: number, question: string, alone = false): Promise<void> {
    // Two 429s in a row: the request that meets both is retried exactly up to the bound.
    if (++sent % RATE_LIMIT_EVERY === 0) emulator().injectFault('production', { fault: 'http-429', path: '/chat/completions', retryAfterSeconds: 1, times: MAX_RETRIES });
    const limitedBefore = rateLimitedInLog();
    const id = chat().openConversations()[index];
    const before = (await chat().conversation(id))?.messages.length ?? 0;
    await chat().request(id, 'send', { text: question });
    const answer = await waitFor(`the answer to "${question}"`, async () => {
      const last = (await chat().conversation(id))?.messages.at(-1);
      return last?.role === 'assistant' && last.status !== 'streaming' && (await chat().conversation(id))!.messages.length === before + 2 ? last : undefined;
    }, { timeoutMs: 60_000, intervalMs: 20 });
    // One question at a time, the 429s since it was sent are its retries.
    if (alone) figures.maxRetriesSeen = Math.max(figures.maxRetriesSeen, rateLimitedInLog() - limitedBefore);
    check(id, question, answer, await chat().conversation(id).then((c) => c!.messages));
  }

  function check(id: string, question: string, answer: ConversationMessage, messages: ConversationMessage[]): void {
    const mine = (r: RequestRecord) => r.path.endsWith('/chat/completions') && r.chat?.messages.at(-1)?.content === question;
    const records = emulator().requests.filter(mine);
    const answered = records.filter((r) => r.status === 200);
    const problems: string[] = [];
    if (answer.status !== 'done') problems.push(`status ${answer.status}${answer.error ? ` (${answer.error.message})` : ''}`);
    if (answered.length !== 1) problems.push(`${answered.length} answered requests`);
    else if (answer.text !== generateReply(answered[0].chat!.messages as { role: 'user' | 'assistant' | 'system'; content: string }[], answered[0].model!)) problems.push('answer is not byte-exact');
    if (!answer.text.includes(question)) problems.push('answer belongs to another question');
    if (messages.at(-2)?.text !== question) problems.push('the question is not where it was asked');
    if (problems.length) figures.failures.push(`${question} in ${id}: ${problems.join('; ')}`);
    else figures.answers++;
  }

  it(`answers ${REQUESTS} questions (half one at a time, half in ${PANELS} panels at once) completely, byte-exact and in their own conversations, with bounded retries and a flat heap`, async function () {
    this.timeout(60_000 + REQUESTS * 1000);
    const gc = collectGarbage();
    const started = Date.now();
    // Warm-up (first panel, first stream), then the heap before.
    const warm = await openPanel();
    await ask(warm, 'Warm-up question');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    emulator().reset();
    Object.assign(figures, { answers: 0, rateLimited: 0, maxRetriesSeen: 0, failures: [] });
    sent = 0;
    const heapBefore = await heapMb(gc);

    const sequential = Math.floor(REQUESTS / 2);
    let panel = await openPanel();
    for (let i = 0; i < sequential; i++) {
      if (i > 0 && i % TURNS_PER_CONVERSATION === 0) {
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        resetEmulator();
        panel = await openPanel();
      }
      await ask(panel, `Sequential question ${i}`, true);
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    resetEmulator();
    const sequentialMs = Date.now() - started;

    const panels: number[] = [];
    for (let p = 0; p < PANELS; p++) panels.push(await openPanel());
    const perPanel = Math.ceil((REQUESTS - sequential) / PANELS);
    await Promise.all(panels.map(async (index, p) => {
      for (let i = 0; i < perPanel; i++) {
        if (i > 0 && i % TURNS_PER_CONVERSATION === 0) {
          await chat().request(chat().openConversations()[index], 'newConversation', {});
        }
        await ask(index, `Panel ${p} question ${i}`);
      }
    }));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    resetEmulator();
    const heapAfter = await heapMb(gc);
    const seconds = (Date.now() - started) / 1000;
    console.log([
      `      soak: ${figures.answers} of ${sequential + perPanel * PANELS} answers complete and byte-exact (${sequential} sequential in ${(sequentialMs / 1000).toFixed(1)} s, ${perPanel * PANELS} in ${PANELS} panels at once)`,
      `      soak: ${figures.rateLimited} injected 429s retried automatically; most retries for one request: ${figures.maxRetriesSeen} (bound ${MAX_RETRIES})`,
      `      soak: ${seconds.toFixed(1)} s in all, ${((sequential + perPanel * PANELS) / seconds).toFixed(1)} requests/s`,
      `      soak: extension host heap ${heapBefore.toFixed(1)} MB before, ${heapAfter.toFixed(1)} MB after (${(heapAfter - heapBefore >= 0 ? '+' : '')}${(heapAfter - heapBefore).toFixed(1)} MB, bound +${HEAP_BOUND_MB} MB)`,
    ].join('\n'));
    assert.deepEqual(figures.failures.slice(0, 10), []);
    assert.equal(figures.answers, sequential + perPanel * PANELS);
    assert.equal(figures.rateLimited, MAX_RETRIES * Math.floor(sent / RATE_LIMIT_EVERY), 'every injected 429 was met and retried');
    assert.equal(figures.maxRetriesSeen, MAX_RETRIES, 'a request that met two 429s was retried exactly up to the bound');
    assert.ok(heapAfter - heapBefore < HEAP_BOUND_MB, `heap grew by ${(heapAfter - heapBefore).toFixed(1)} MB`);
  });
});
