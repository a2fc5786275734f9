import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { InferenceClient } from '../../src/core/api/client';
import { responseHeader, type ResponseBody, type Transport } from '../../src/core/api/transport';
import type { ChatRequest, ChatStreamEvent } from '../../src/core/api/types';
import { createUndiciTransport } from '../../src/core/api/undiciTransport';
import { Suggester, type SuggestionBackend, type SuggestionPlace } from '../../src/core/suggestions/suggester';
import { SuggestionBilling } from '../../src/core/suggestions/suggestionBilling';
import { accountMeter } from '../../src/core/usage/accountMeter';
import { replacesBalance } from '../../src/core/usage/answerSpend';
import { BillingWindows } from '../../src/core/usage/billingWindows';
import { toUsageEntry, type UsageEntry, type UsageRecord } from '../../src/core/usage/ledger';
import { sumsOf } from '../../src/core/usage/periodSums';
import { suggestionsBudget } from '../../src/core/usage/spendBudget';
import { SpendingGuard } from '../../src/core/usage/spendingGuard';
import { currentPeriods } from '../../src/core/usage/spendingLimits';
import { seededRandom } from '../shared/seededRandom';

/**
 * The suggestions benchmark's machinery (suggestions.bench.ts): a deterministic TypeScript-like file,
 * the real suggester wired as the host wires it (real billing on the real account meter and spending
 * guard, the real InferenceClient over undici) and a typist who types the file in bursts into a
 * simulated editor, which asks the suggester on every change and cancels the previous question.
 */

/**
 * What the typist does at ×1 (the bench divides every duration by its time scale): bursts of 3–12
 * keys, a burst ending at a line's end with `lineEndPause` probability (people pause there most).
 */
export const TYPING = { keyMs: 125, burst: [3, 12], lineEndPause: 0.5, pauseMs: [200, 1_500], debounceMs: 350, firstTokenMs: 150, tokensPerSecond: 50 } as const;
/** The host reads this much around the cursor (host/suggestions/inlineProvider.ts: READ_BEFORE_CHARS, READ_AFTER_CHARS). */
const READ_BEFORE_CHARS = 6_000;
const READ_AFTER_CHARS = 2_000;
/** The suggestions' daily budget, when set: the guard checks it and holds a reservation per request (the heavier path). */
export const BUDGET_CREDITS = 100_000;

type Chooser = <T>(list: readonly T[]) => T;
const FUNCTIONS: readonly [string, string, string, string][] = [
  ['add', 'a: number, b: number', 'number', 'return a + b;'],
  ['multiply', 'a: number, b: number', 'number', 'return a * b;'],
  ['square', 'x: number', 'number', 'return x * x;'],
  ['greet', 'name: string', 'string', 'return `Hello, ${name}!`;'],
  ['isReady', 'state: State', 'boolean', 'return Boolean(state);'],
  ['sum', 'values: number[]', 'number', 'return values.reduce((total, value) => total + value, 0);'],
  ['formatUser', 'user: User', 'string', 'return `${user.name} <${user.email}>`;'],
  ['countWords', 'text: string', 'number', 'return text.split(/\\s+/).filter(Boolean).length;'],
];
/** Names with the value a model would give them (as the emulator does: a count is 0, a list [] …). */
const NAMES: readonly [string, string][] = [['total', '0'], ['count', '0'], ['items', '[]'], ['names', '[]'], ['message', "''"], ['options', '{}'], ['ready', 'false'], ['user', 'null']];
const LISTS = ['items', 'names', 'values', 'users'];
const TYPES = ['User', 'Options', 'State', 'Entry', 'Settings'];
const FIELDS = ['id: number;', 'name: string;', 'email: string;', 'createdAt: Date;', 'tags: string[];', 'enabled: boolean;'];

/** Top-level pieces of a TypeScript file: some are what a model (the emulator) suggests where the typist pauses, most are not. */
const PIECES: readonly ((pick: Chooser) => string)[] = [
  (pick) => {
    const [name, params, returns, body] = pick(FUNCTIONS);
    return `export function ${name}(${params}): ${returns} {\n  ${body}\n}\n\n`;
  },
  (pick) => {
    const [name, value] = pick(NAMES);
    return `const ${name} = ${value};\n`;
  },
  (pick) => `let ${pick(NAMES)[0]}: ${pick(TYPES)} | undefined;\n`,
  (pick) => {
    const name = pick(NAMES)[0];
    return `const ${name} = ${pick(['0', 'null'])};\n// print ${name}\nconsole.log(${name});\n\n`;
  },
  (pick) => `for (const item of ${pick(LISTS)}) {\n  console.log(item);\n}\n\n`,
  (pick) => `export interface ${pick(TYPES)} {\n  ${pick(FIELDS)}\n  ${pick(FIELDS)}\n  ${pick(FIELDS)}\n}\n\n`,
  (pick) => {
    const name = pick(NAMES)[0];
    return `if (${name}) {\n  console.log(${name});\n}\n\n`;
  },
  (pick) => `export async function load${pick(TYPES)}(path: string): Promise<string> {\n  const text = await readFile(path, 'utf8');\n  return text.trim();\n}\n\n`,
  (pick) => `export class ${pick(TYPES)}Store {\n  readonly #items = new Map<number, ${pick(TYPES)}>();\n\n  get size(): number {\n    return this.#items.size;\n  }\n}\n\n`,
];

/** A deterministic file of exactly `chars` characters. */
export function sourceText(chars: number, seed: number): string {
  const random = seededRandom(seed);
  const pick: Chooser = (list) => list[Math.floor(random() * list.length)];
  let text = "import { readFile } from 'node:fs/promises';\n\n";
  while (text.length < chars) text += pick(PIECES)(pick);
  return text.slice(0, chars);
}

/** When each response was sent and when the client read its last body piece, by request id (the emulator's time as the client sees it). */
export interface ResponseTiming { sentAt: number; lastReadAt: number }

/** The client's transport with each response timed at the socket's side. */
function timedTransport(inner: Transport, timings: Map<string, ResponseTiming>): Transport {
  return {
    async send(request) {
      const sentAt = performance.now();
      const response = await inner.send(request);
      const timing = { sentAt, lastReadAt: performance.now() };
      const id = responseHeader(response.headers, 'x-request-id');
      if (id) timings.set(id, timing);
      const inner_ = response.body;
      const body: ResponseBody = {
        cancel: () => inner_.cancel(),
        drain: (limit) => inner_.drain(limit),
        async *[Symbol.asyncIterator]() {
          for await (const piece of inner_) {
            timing.lastReadAt = performance.now();
            yield piece;
          }
        },
      };
      return { ...response, body };
    },
    close: () => inner.close(),
  };
}

export interface Service {
  client: InferenceClient;
  timings: Map<string, ResponseTiming>;
}

/** The real client over undici against the emulator, the account's balance kept from every response's headers as the host's AccountState keeps it. */
export function serviceClient(baseUrl: string, apiKey: string, account: { credits?: number; at?: number }): Service {
  const timings = new Map<string, ResponseTiming>();
  const client = new InferenceClient({
    baseUrl, apiKey, transport: timedTransport(createUndiciTransport(), timings),
    onResponse: (meta) => {
      if (meta.balanceCredits === undefined || !replacesBalance(account.at, meta)) return;
      account.credits = meta.balanceCredits;
      account.at = meta.receivedAt;
    },
  });
  return { client, timings };
}

/** One request the suggester sent: what it asked, the events it read before leaving the stream, the id the service gave it. */
export interface Sent { request: ChatRequest; events: number; requestId?: string }

/** A suggestion the service gave and the editor showed: the place it was asked at, for the alternated latency rounds. */
export interface Sample { place: SuggestionPlace; sent: Sent; text: string }

export interface Harness {
  suggester: Suggester;
  service: Service;
  /** The ledger the meter wrote. */
  entries: UsageEntry[];
  counts: { requested: number; cancelled: number; failed: number; limit: number };
  /** Why requests failed (not cancellations), as the host would log it. */
  failures: string[];
  /** How long each billed call took to open (the spending guard: with a budget, a reservation under a file lock). */
  openMs: number[];
  lastSent(): Sent | undefined;
  /** Resolves once no request holds a reservation any more (the guard releases each after its window closes). */
  released(): Promise<void>;
  dispose(): void;
}

/**
 * The suggester as the host builds it (host/suggestions/index.ts), on a fresh ledger and spending
 * guard; `budget`: the suggestions' daily budget set (else the default settings: no limit, no budget).
 */
export function suggestionHarness(service: Service, account: { credits?: number; at?: number }, env: string, model: string, debounceMs: number, budget: boolean): Harness {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'suggestions-bench-'));
  const entries: UsageEntry[] = [];
  const record = (entry: UsageRecord) => void entries.push(toUsageEntry(entry, Date.now()));
  const ledger = { clock: () => Date.now(), periodSums: async () => sumsOf(entries, currentPeriods(Date.now())), written: async () => {} };
  const log = { info: () => {}, warn: () => {} };
  const openMs: number[] = [];
  const guard = new SpendingGuard(new BillingWindows(), ledger, log, { spendingLimits: () => ({}), unmeasuredRequestCredits: () => 1 }, dir);
  const meter = accountMeter({
    billing: {
      open: async (environment, budgets) => {
        const started = performance.now();
        const window = await guard.open(environment, budgets);
        openMs.push(performance.now() - started);
        return window;
      },
    },
    account: { get: () => ({ balanceCredits: account.credits, balanceAt: account.at }) },
    models: { list: () => service.client.listModels({ type: 'chat' }) },
    usage: { record, recordUnmeasured: (entry) => record({ ...entry, credits: null }) },
    log,
  }, { who: 'Suggestions', quiet: true, readBalanceAfterAnswer: () => true });
  const billing = new SuggestionBilling(meter, () => suggestionsBudget(budget ? BUDGET_CREDITS : null));
  let last: Sent | undefined;
  const backend: SuggestionBackend = {
    target: () => ({ env, model }),
    // The host's openStream is the client's streamChat; this one also notes what the suggester read of it.
    openStream: async (_env, request, signal) => {
      const sent: Sent = (last = { request, events: 0 });
      const stream = service.client.streamChat(request, { signal });
      return (async function* (): AsyncGenerator<ChatStreamEvent> {
        for await (const event of stream) {
          sent.events++;
          if (event.type === 'response') sent.requestId = event.meta.requestId;
          yield event;
        }
      })();
    },
    // The host's wait is a timer cleared on abort; Node's abortable timer is the same.
    wait: (ms, signal) => sleep(ms, true, { signal }).catch(() => false),
  };
  const counts = { requested: 0, cancelled: 0, failed: 0, limit: 0 };
  const failures: string[] = [];
  const suggester = new Suggester(backend, billing, {
    requested: () => void counts.requested++,
    cancelled: () => void counts.cancelled++,
    limitReached: () => void counts.limit++,
    failed: (error) => {
      counts.failed++;
      failures.push(error instanceof Error ? error.message : String(error));
    },
  }, { debounceMs: () => debounceMs });
  const reservations = path.join(dir, 'usage', 'reservations.json');
  const released = async () => {
    const until = performance.now() + 10_000;
    while (fs.existsSync(reservations) && fs.readFileSync(reservations, 'utf8').trim() !== '[]') {
      if (performance.now() > until) throw new Error('a reservation was not released within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  };
  return { suggester, service, entries, counts, failures, openMs, lastSent: () => last, released, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** The place the host hands the suggester for a document holding `text` with the cursor at its end. */
export function placeAt(text: string): SuggestionPlace {
  const offset = text.length;
  return {
    document: 'file:///bench/src/sample.ts', offset,
    prefix: text.slice(Math.max(0, offset - READ_BEFORE_CHARS)), suffix: text.slice(offset, offset + READ_AFTER_CHARS),
    languageId: 'typescript', path: 'src/sample.ts', indentUnit: '  ', recentSnippets: [],
  };
}

export interface Typed {
  /** Characters written (typed or accepted), keystrokes (each a change: a character or a Tab), suggestions accepted and their characters. */
  chars: number;
  keystrokes: number;
  accepted: number;
  acceptedChars: number;
  /** Suggestions shown: the service's (one per request shown), and the cache's (typing through, or a place asked before). */
  shownService: number;
  shownCache: number;
  /** Per service suggestion shown: from the last keystroke + debounce to the suggester's answer, minus the response's own time at the transport. */
  addedMs: number[];
  responseMs: number[];
  samples: Sample[];
  seconds: number;
}

const sleepUntil = (at: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));

/**
 * Types `file` from `from` to its end at the typing pace divided by `speed`: each change cancels the
 * previous question (as VS Code's token does) and asks again; a suggestion shown when the next key
 * falls is accepted (Tab) when it is exactly the file's next characters.
 */
export async function typeFile(harness: Harness, file: string, from: number, speed: number, seed: number): Promise<Typed> {
  const random = seededRandom(seed);
  const debounceMs = TYPING.debounceMs / speed;
  const result: Typed = { chars: file.length - from, keystrokes: 0, accepted: 0, acceptedChars: 0, shownService: 0, shownCache: 0, addedMs: [], responseMs: [], samples: [], seconds: 0 };
  let current: { abort: AbortController; shown?: string } | undefined;
  const answers: Promise<void>[] = [];
  const change = (text: string) => {
    current?.abort.abort();
    const call: { abort: AbortController; shown?: string } = { abort: new AbortController() };
    current = call;
    result.keystrokes++;
    const place = placeAt(text);
    const askedAt = performance.now();
    answers.push(harness.suggester.suggest(place, call.abort.signal).then((answer) => {
      if (answer.text === undefined || call.abort.signal.aborted) return;
      call.shown = answer.text;
      if (answer.from === 'cache') return void result.shownCache++;
      result.shownService++;
      const sent = harness.lastSent();
      const timing = sent?.requestId === undefined ? undefined : harness.service.timings.get(sent.requestId);
      if (!sent || !timing) throw new Error('a suggestion from the service without its request timed');
      const response = timing.lastReadAt - timing.sentAt;
      result.responseMs.push(response);
      result.addedMs.push(performance.now() - askedAt - debounceMs - response);
      result.samples.push({ place, sent, text: answer.text });
    }));
  };
  const started = performance.now();
  let at = started;
  let position = from;
  while (position < file.length) {
    const burst = TYPING.burst[0] + Math.floor(random() * (TYPING.burst[1] - TYPING.burst[0] + 1));
    for (let key = 0; key < burst && position < file.length; key++) {
      await sleepUntil(at);
      const shown = current?.shown;
      if (shown && file.startsWith(shown, position)) {
        position += shown.length;
        result.accepted++;
        result.acceptedChars += shown.length;
      } else {
        position++;
      }
      change(file.slice(0, position));
      at += TYPING.keyMs / speed;
      if (file[position] === '\n' && random() < TYPING.lineEndPause) break;
    }
    at += (TYPING.pauseMs[0] + random() * (TYPING.pauseMs[1] - TYPING.pauseMs[0]) - TYPING.keyMs) / speed;
  }
  await Promise.all(answers);
  await harness.suggester.settled();
  result.seconds = (performance.now() - started) / 1000;
  return result;
}
