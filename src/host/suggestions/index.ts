import { setTimeout as delay } from 'node:timers/promises';
import vscode = require('vscode');
import { RETRYABLE_KINDS, toApiError } from '../../core/api/errors';
import { debounceMsOf, type Ineligible } from '../../core/suggestions/eligibility';
import { Suggester, type SuggestionBackend, type SuggestionTarget } from '../../core/suggestions/suggester';
import { SuggestionBilling } from '../../core/suggestions/suggestionBilling';
import { suggestionsBudget } from '../../core/usage/spendBudget';
import { servicesMeter, type MeterServices } from '../shared/billingMeter';
import { readSetting } from '../shared/config';
import { Disposable, type Registered } from '../shared/disposable';
import type { Services } from '../shared/services';
import { InlineSuggestionProvider, SUGGESTION_ACCEPTED_COMMAND, whyNotSent } from './inlineProvider';
import { RecentEdits } from './recentEdits';
import { registerSuggestionCommands } from './suggestionCommands';
import type { SuggestionsShell } from './suggestionsShell';

export type SuggestionsServices = Pick<Services, 'globalState' | 'log' | 'environments' | 'models' | 'api' | 'usage' | 'keys' | 'suggestionCounts'> & MeterServices;

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
    const counts = services.suggestionCounts;
    // Counted in memory and written in batches: what is pending is written when the window closes (deactivate waits for it).
    this.register({ dispose: () => counts.flush() });
    // Quiet: a 429 on the balance reading fails at once; nobody is watching a countdown for a suggestion.
    const billing = new SuggestionBilling(servicesMeter(services, WHO, true), () => suggestionsBudget(readSetting('inference.suggestions.dailyBudgetCredits')));
    this.suggester = new Suggester(this.#backend(), billing, {
      requested: (env) => {
        this.tally.requested++;
        counts.record('requested', env);
      },
      cancelled: (env) => {
        this.tally.cancelled++;
        counts.record('cancelled', env);
      },
      limitReached: (pause) => {
        services.log.info(`${WHO}: paused until ${new Date(pause.until).toISOString()}: ${pause.message}`);
        shell.setRuntime({ paused: { kind: 'limit', message: pause.message, until: pause.until } });
      },
      failed: (error, target) => this.#failed(error, target),
    }, { debounceMs: () => debounceMsOf(readSetting('inference.suggestions.debounceMs')) });
    const recentEdits = this.register(new RecentEdits((document) => whyNotSent(document, true) === undefined));
    this.provider = new InlineSuggestionProvider(this.suggester, () => {
      const state = shell.state();
      return { on: state.kind === 'on', environment: services.environments.active().name };
    }, recentEdits, {
      shown: (env) => {
        this.tally.shown++;
        counts.record('shown', env);
      },
      skipped: (document, why) => this.#skipped(document, why),
    });
    this.register(vscode.commands.registerCommand(SUGGESTION_ACCEPTED_COMMAND, (env: unknown) => {
      this.tally.accepted++;
      if (typeof env === 'string') counts.record('accepted', env);
    }));
    this.register(registerSuggestionCommands(services, shell));
    // Whatever held suggestions back may be over: a new key, environment, model, limit or budget is worth a try.
    const resume = () => {
      this.suggester.clear();
      billing.resume();
      shell.setRuntime({});
    };
    this.register(services.keys.onDidChange(resume));
    this.register(services.environments.onDidChange(resume));
    this.register(services.models.onDidChangeSelection(resume));
    this.register(shell.onDidResume(() => billing.resume()));
    this.register(vscode.workspace.onDidChangeConfiguration((event) => {
      if (['inference.spendingLimits', 'inference.suggestions.dailyBudgetCredits'].some((id) => event.affectsConfiguration(id))) resume();
    }));
  }

  #backend(): SuggestionBackend {
    const services = this.#services;
    return {
      target: (): SuggestionTarget | undefined => {
        const env = services.environments.active().name;
        const model = services.models.selected('suggestion', env);
        return model ? { env, model } : undefined;
      },
      // No rate-limit countdown either: a suggestion refused now is asked again at the next pause.
      openStream: async (env, request, signal) => (await services.api.client(env, undefined, 'chat')).streamChat(request, { signal }),
      // Node's abortable timer: an abort ends the wait at once, with nothing left scheduled.
      wait: (ms, signal) => delay(ms, undefined, { signal }).then(() => true, () => false),
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
    this.#shell.setRuntime({ paused: { kind: 'failing', message: apiError.message, until: Date.now() + FAILING_PAUSE_MS } });
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
