import type { ChatRequest, ChatStreamEvent } from '../api/types';
import type { BilledCall } from '../usage/billedCall';
import { completionModeAt, suggestionFitsAt } from './completionShape';
import { readSuggestion, type SuggestionContext } from './postProcess';
import { buildSuggestionPrompt, suggestionRequest, type PromptLimits, type RecentSnippet } from './prompt';
import type { SuggestionsPause } from './suggestionBilling';
import { SuggestionCache, type CursorPlace } from './suggestionCache';
import { SuggestionPace } from './requestPace';

/**
 * One inline suggestion from a pause in typing to the text shown, with nothing paid for that cannot
 * be shown: a place asked before (or a suggestion being typed through) is answered from the cache; a
 * new place waits out the debounce, and any newer request of the same document (or the editor's own
 * cancellation) aborts the older one, before it is sent or while it streams, which closes its
 * connection; a stream is left as soon as it holds a whole suggestion. Every request sent is a
 * billed call (suggestionBilling.ts: the spending limits and the suggestions' own budget hold when it opens),
 * measured like a chat answer: one reading of the settled balance after it, readings one after the other.
 */

export interface SuggestionPlace extends CursorPlace {
  readonly languageId: string;
  /** Workspace-relative. */
  readonly path: string;
  /** One level of indentation as the editor inserts it. */
  readonly indentUnit: string;
  /** Regions of other files edited lately, the most recent first. */
  readonly recentSnippets: readonly RecentSnippet[];
}

/** Where suggestions go now: the active environment and the model picked for suggestions there. */
export interface SuggestionTarget {
  readonly env: string;
  readonly model: string;
}

/** How each request's billed call opens (suggestionBilling.ts): undefined while a limit or the budget keeps suggestions off. */
export interface SuggestionCalls {
  open(environment: string): Promise<BilledCall | undefined>;
  pausedFor(environment: string): SuggestionsPause | undefined;
}

/** What the suggester needs from the extension. */
export interface SuggestionBackend {
  /** Undefined while no model is picked for suggestions (ids are never guessed). */
  target(): SuggestionTarget | undefined;
  /** The streamed answer; aborting `signal` closes its connection, and so does leaving the iteration early. */
  openStream(env: string, request: ChatRequest, signal: AbortSignal): Promise<AsyncIterable<ChatStreamEvent>>;
  /** Resolves true after `ms`, or false as soon as `signal` aborts. */
  wait(ms: number, signal: AbortSignal): Promise<boolean>;
}

/** What happened to each request, for the counts and the status bar. */
export interface SuggestionEvents {
  /** A request was sent to the service. */
  requested(env: string): void;
  /** A request sent was aborted before its suggestion was complete. */
  cancelled(env: string): void;
  /** A spending limit or the suggestions' budget keeps suggestions off (until `pause.until`): nothing was sent. */
  limitReached(pause: SuggestionsPause): void;
  /** The request failed (not a cancellation): the host says so where the user looks. */
  failed(error: unknown, target: SuggestionTarget): void;
  /** A billed request's spend is in the ledger, or could not be recorded. */
  recorded?(): void;
}

export interface SuggesterOptions {
  /** The pause after the last keystroke before a request is sent. */
  debounceMs(): number;
  /** The clock of the requests' pace (suggestions take a share of the key's rate limit: requestPace.ts). */
  now?: () => number;
  promptLimits?: PromptLimits;
}

export type SuggestionResult =
  | { readonly text: string; readonly from: 'cache' | 'service' }
  | { readonly text: undefined; readonly why: 'midWord' | 'cancelled' | 'noModel' | 'empty' | 'limit' | 'pace' | 'failed' };

export class Suggester {
  readonly #cache = new SuggestionCache();
  /** The request of each document that may still be sent or streaming: at most one per document. */
  readonly #inFlight = new Map<string, AbortController>();
  readonly #pace = new SuggestionPace();
  /** Settled-balance readings, one after the other (a reading waits for the ones before it). */
  #readings: Promise<unknown> = Promise.resolve();

  readonly #backend: SuggestionBackend;
  readonly #calls: SuggestionCalls;
  readonly #events: SuggestionEvents;
  readonly #options: SuggesterOptions;

  constructor(backend: SuggestionBackend, calls: SuggestionCalls, events: SuggestionEvents, options: SuggesterOptions) {
    this.#backend = backend;
    this.#calls = calls;
    this.#events = events;
    this.#options = options;
  }

  /** Requests in flight now (sent or waiting out the debounce). */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /**
   * `cancel`: the editor's cancellation (the next keystroke or cursor move). `immediate`: the user
   * asked (Alt+\\), so there is no pause to wait out.
   */
  async suggest(place: SuggestionPlace, cancel: AbortSignal, immediate = false): Promise<SuggestionResult> {
    // Whatever this document asked before is stale now, shown or not.
    this.#inFlight.get(place.document)?.abort();
    if (!suggestionFitsAt(place.suffix)) return { text: undefined, why: 'midWord' };
    const cached = this.#cache.get(place);
    if (cached !== undefined) return { text: cached, from: 'cache' };
    const abort = new AbortController();
    const onCancel = () => abort.abort();
    cancel.addEventListener('abort', onCancel);
    if (cancel.aborted) abort.abort();
    this.#inFlight.set(place.document, abort);
    try {
      if (!immediate && !(await this.#backend.wait(this.#options.debounceMs(), abort.signal))) return { text: undefined, why: 'cancelled' };
      return await this.#request(place, abort.signal);
    } finally {
      cancel.removeEventListener('abort', onCancel);
      if (this.#inFlight.get(place.document) === abort) this.#inFlight.delete(place.document);
    }
  }

  /** Forgets the cached suggestions (the model or environment changed). */
  clear(): void {
    this.#cache.clear();
  }

  /** Resolves once every settled-balance reading asked for so far is in (tests and the bench wait for it). */
  settled(): Promise<unknown> {
    return this.#readings;
  }

  async #request(place: SuggestionPlace, signal: AbortSignal): Promise<SuggestionResult> {
    const target = this.#backend.target();
    if (!target) return { text: undefined, why: 'noModel' };
    if (!this.#pace.take((this.#options.now ?? Date.now)())) return { text: undefined, why: 'pace' };
    let call: BilledCall | undefined;
    try {
      call = await this.#calls.open(target.env);
    } catch (error) {
      this.#events.failed(error, target);
      return { text: undefined, why: 'failed' };
    }
    if (!call) {
      const pause = this.#calls.pausedFor(target.env);
      if (pause) this.#events.limitReached(pause);
      return { text: undefined, why: 'limit' };
    }
    // The limits' wait may have outlasted the pause: a request nobody can see is not sent.
    if (signal.aborted) {
      call.notBilled();
      return { text: undefined, why: 'cancelled' };
    }
    const mode = completionModeAt(place.prefix, place.suffix);
    const context: SuggestionContext = { prefix: place.prefix, suffix: place.suffix, mode, indentUnit: place.indentUnit };
    const prompt = buildSuggestionPrompt({ ...place, mode }, this.#options.promptLimits);
    const request = suggestionRequest(target.model, prompt, mode);
    const answer = { requestId: undefined as string | undefined, model: target.model, text: '', complete: false };
    this.#events.requested(target.env);
    try {
      const events = await this.#backend.openStream(target.env, request, signal);
      for await (const event of events) {
        if (event.type === 'response') {
          // The service took it: billed from here on, with or without an id to name it by.
          answer.requestId = event.meta.requestId ?? '';
          if (event.meta.modelId) answer.model = event.meta.modelId;
          this.#pace.noteRateLimit(event.meta.rateLimitRequests);
        } else if (event.type === 'delta') {
          answer.text += event.text;
          // Leaving the loop closes the connection: no token past the suggestion is paid for.
          if (readSuggestion(answer.text, context, true).ended) break;
        }
      }
      if (signal.aborted) throw signal.reason;
      answer.complete = true;
    } catch (error) {
      if (signal.aborted) this.#events.cancelled(target.env);
      else this.#events.failed(error, target);
    } finally {
      this.#record(call, answer, request);
    }
    if (!answer.complete) return { text: undefined, why: signal.aborted ? 'cancelled' : 'failed' };
    const text = readSuggestion(answer.text, context, false).suggestion;
    if (text === undefined) return { text: undefined, why: 'empty' };
    this.#cache.set(place, text);
    return { text, from: 'service' };
  }

  /** A request the service took (it has a request id) was billed, cancelled or not; one it never answered was not. */
  #record(call: BilledCall, answer: { requestId: string | undefined; model: string; text: string }, request: ChatRequest): void {
    if (answer.requestId === undefined) return call.notBilled();
    const sent = request.messages.reduce((sum, message) => sum + (typeof message.content === 'string' ? message.content.length : 0), 0);
    const entry = { requestId: answer.requestId, model: answer.model, environment: call.env, kind: 'suggestion' as const, chars: { in: sent, out: answer.text.length } };
    this.#readings = call.billedStream(entry, this.#readings).catch(() => undefined).finally(() => this.#events.recorded?.());
  }
}
