import vscode = require('vscode');
import { RETRYABLE_KINDS, toApiError } from '../../core/api/errors';
import { Suggester, type SuggestionBackend, type SuggestionTarget } from '../../core/suggestions/suggester';
import { spendToday } from '../../core/usage/report';
import { servicesMeter, type MeterServices } from '../shared/billingMeter';
import { readSetting } from '../shared/config';
import { Disposable, type Registered } from '../shared/disposable';
import type { Services } from '../shared/services';
import { documentFacts, InlineSuggestionProvider, SUGGESTION_ACCEPTED_COMMAND } from './inlineProvider';
import { RecentEdits } from './recentEdits';
import { registerSuggestionCommands } from './suggestionCommands';
import type { SuggestionsShell } from './suggestionsShell';
import { whyNotEligible, type Ineligible } from '../../core/suggestions/eligibility';

export type SuggestionsServices = Pick<Services, 'context' | 'log' | 'environments' | 'models' | 'api' | 'usage' | 'keys'> & MeterServices;

/** How long a failure the next request would repeat (a key refused, an empty wallet) holds suggestions back. */
const FAILING_PAUSE_MS = 60_000;
const WHO = 'Suggestions';

/** What a window's suggestions did since it loaded them (tests, the bench). */
export interface SuggestionTally {
  requested: number;
  cancelled: number;
  shown: number;
  accepted: number;
  /** Questions about documents nothing may be sent of (eligibility.ts). */
  skipped: number;
}

/**
 * Inline suggestions, loaded on the first question VS Code asks while they are on, or on the first of
 * their commands. The suggester (core/suggestions/suggester.ts) decides when a request is sent and
 * meters each one; this wires it to the service, the settings, the status bar and the commands.
 */
export class SuggestionsFeature extends Disposable {
  readonly provider: InlineSuggestionProvider;
  readonly suggester: Suggester;
  readonly tally: SuggestionTally = { requested: 0, cancelled: 0, shown: 0, accepted: 0, skipped: 0 };
  /** Documents whose skipping was logged, with the reason: once each. */
  readonly #loggedSkips = new Set<string>();

  readonly #services: SuggestionsServices;
  readonly #shell: SuggestionsShell;

  constructor(services: SuggestionsServices, shell: SuggestionsShell) {
    super();
    this.#services = services;
    this.#shell = shell;
    this.suggester = new Suggester(this.#backend(), {
      requested: () => void this.tally.requested++,
      cancelled: () => void this.tally.cancelled++,
      limitReached: (error) => {
        services.log.info(`${WHO}: paused until ${new Date(error.spend.resetsAt).toISOString()}: ${error.message}`);
        this.#pause({ kind: 'limit', message: error.message, until: error.spend.resetsAt });
      },
      failed: (error, target) => this.#failed(error, target),
    }, { debounceMs: () => readSetting('inference.suggestions.debounceMs') });
    const recentEdits = this.register(new RecentEdits((document) => this.#mayBeSent(document)));
    this.provider = new InlineSuggestionProvider(this.suggester, () => {
      const state = shell.state();
      return { on: state.kind === 'on', environment: services.environments.active().name };
    }, recentEdits, {
      shown: () => void this.tally.shown++,
      skipped: (document, why) => this.#skipped(document, why),
    });
    this.register(vscode.commands.registerCommand(SUGGESTION_ACCEPTED_COMMAND, () => void this.tally.accepted++));
    this.register(registerSuggestionCommands(services, shell));
    // Whatever held suggestions back may be over: a new key, environment or model is worth a try.
    const resume = () => {
      this.suggester.clear();
      shell.setRuntime({ spend: this.#spendToday() });
    };
    this.register(services.keys.onDidChange(resume));
    this.register(services.environments.onDidChange(resume));
    this.register(services.models.onDidChangeSelection(resume));
    this.register(services.usage.onDidChange(() => shell.setRuntime({ ...this.#runtimePaused(), spend: this.#spendToday() })));
    shell.setRuntime({ spend: this.#spendToday() });
  }

  #backend(): SuggestionBackend {
    const services = this.#services;
    return {
      // Quiet: a 429 on the balance reading fails at once; nobody is watching a countdown for a suggestion.
      ...servicesMeter(services, WHO, true),
      target: (): SuggestionTarget | undefined => {
        const env = services.environments.active().name;
        const model = services.models.selected('suggestion', env);
        return model ? { env, model } : undefined;
      },
      // No rate-limit countdown either: a suggestion refused now is asked again at the next pause.
      openStream: async (env, request, signal) => (await services.api.client(env, undefined, 'chat')).streamChat(request, { signal }),
      wait: (ms, signal) => new Promise<boolean>((resolve) => {
        if (signal.aborted) return resolve(false);
        const timer = setTimeout(() => {
          signal.removeEventListener('abort', onAbort);
          resolve(true);
        }, ms);
        const onAbort = () => {
          clearTimeout(timer);
          resolve(false);
        };
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    };
  }

  #failed(error: unknown, target: SuggestionTarget): void {
    const apiError = toApiError(error);
    this.#services.log.warn(`${WHO}: request to ${target.model} in ${target.env} failed: ${apiError.message}`);
    // A 429, a timeout or a 5xx passes: the next pause asks again.
    if (RETRYABLE_KINDS.has(apiError.kind)) return;
    if (apiError.kind === 'modelNotFound') {
      // That id is stale in this environment: forget it, as the chat forgets its own (ids are never guessed).
      void this.#services.models.select('suggestion', undefined, target.env);
      return;
    }
    this.#pause({ kind: 'failing', message: apiError.message, until: Date.now() + FAILING_PAUSE_MS });
  }

  #pause(paused: Parameters<SuggestionsShell['setRuntime']>[0]['paused']): void {
    this.#shell.setRuntime({ paused, spend: this.#spendToday() });
  }

  #runtimePaused(): { paused?: Parameters<SuggestionsShell['setRuntime']>[0]['paused'] } {
    const state = this.#shell.state();
    return state.kind === 'limit' || state.kind === 'failing' ? { paused: state } : {};
  }

  /** Every environment's suggestions today, from the entries the ledger holds for today. */
  #spendToday() {
    const entries = this.#services.usage.entries().filter((entry) => entry.kind === 'suggestion');
    return spendToday(entries, this.#services.usage.clock());
  }

  #mayBeSent(document: vscode.TextDocument): boolean {
    return whyNotEligible(documentFacts(document), {
      disabledLanguages: [],
      maxFileKB: readSetting('inference.suggestions.maxFileSizeKB'),
      workspaceTrusted: vscode.workspace.isTrusted,
      allowUntrusted: readSetting('inference.suggestions.allowInUntrustedWorkspaces'),
    }) === undefined;
  }

  #skipped(document: vscode.TextDocument, why: Ineligible): void {
    this.tally.skipped++;
    const key = `${why}\n${document.uri.toString()}`;
    if (this.#loggedSkips.has(key)) return;
    if (this.#loggedSkips.size >= 1_000) this.#loggedSkips.clear();
    this.#loggedSkips.add(key);
    // The path is the user's own; the reason says which rule, so that a missing suggestion is explained.
    this.#services.log.info(`${WHO}: nothing is sent of ${vscode.workspace.asRelativePath(document.uri, false)} (${why})`);
  }
}

export function registerSuggestions(services: SuggestionsServices, shell: SuggestionsShell): Registered<SuggestionsFeature> {
  return new SuggestionsFeature(services, shell);
}
