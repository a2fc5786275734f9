import vscode = require('vscode');
import { ApiError, toApiError } from '../../core/api/errors';
import { toChatMessages } from '../../core/languageModels/messages';
import { refusesTools } from '../../core/languageModels/modelInfo';
import { estimateMessageTokens, estimateTextTokens } from '../../core/languageModels/tokenEstimate';
import { openChatStream, type ChatStreamServices } from '../chat/surfaces/chatBackend';
import { affectsSetting } from '../shared/config';
import type { Environment } from '../shared/environments';
import type { Services } from '../shared/services';
import { AnswerLedger } from '../../core/languageModels/answerLedger';
import { servicesMeter, type MeterServices } from '../shared/billingMeter';
import { buildChatRequest, reportEvent } from './chatRequest';
import { toLanguageModelError } from './lmErrors';
import { toNeutralMessage } from './messageParts';
import { modelInformation, ToolSupport, type InferenceModelInformation } from './modelInformation';

export { VENDOR, type InferenceModelInformation } from './modelInformation';

/** The list's sources and their events (environments, keys, models), the stream, the meter and the log. */
export type LanguageModelServices = ChatStreamServices & MeterServices & Pick<Services, 'environments' | 'keys' | 'models' | 'log'>;

/** How long reported parts get to reach the caller before a failure is reported after them. */
const PARTS_SETTLE_MS = 250;

/**
 * The service's chat models in VS Code's language model API (chat view, agent mode, `vscode.lm`):
 * the list is the extension's stored model list of the active environment (`GET /models?type=chat`
 * when there is none for its address and key), answers stream through the same core client as the chat panel, their spend
 * goes into the usage ledger, and failures become LanguageModelErrors with the usual texts.
 */
export class InferenceChatModelProvider implements vscode.LanguageModelChatProvider<InferenceModelInformation>, vscode.Disposable {
  readonly #onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.#onDidChange.event;
  readonly #subscriptions: vscode.Disposable[];
  readonly #tools = new ToolSupport();
  readonly ledger: AnswerLedger;
  /** How often a person asking for the models was pointed at the key setup (tests check silence with it). */
  keySetupOffers = 0;
  /** Model-list questions in flight, and when the list last changed or was asked for (see `settled`). */
  #listsInFlight = 0;
  #lastListActivity = 0;

  readonly #services: LanguageModelServices;

  constructor(services: LanguageModelServices) {
    this.#services = services;
    // Readings nobody watches: a 429 fails at once rather than showing a countdown.
    this.ledger = new AnswerLedger(servicesMeter(services, 'Language models', true), (message) => services.log.warn(message));
    const changed = () => {
      this.#lastListActivity = Date.now();
      this.#onDidChange.fire();
    };
    // Only what changes the active environment's list: every event makes VS Code ask for it again.
    const isActive = (env: string) => env === services.environments.active().name;
    this.#subscriptions = [
      services.environments.onDidChange(changed),
      services.keys.onDidChange((env) => isActive(env) && changed()),
      services.models.onDidChangeModels(({ env, kind }) => kind === 'chat' && isActive(env) && changed()),
      vscode.workspace.onDidChangeConfiguration((event) => affectsSetting(event, 'inference.languageModels.overrides') && changed()),
    ];
  }

  /**
   * VS Code asks at start, after each change event and whenever a picker opens, mostly `silent`: the
   * list stored for the environment's address and key answers (persisted across windows); past
   * `inference.modelCacheMinutes` it still answers and is refreshed in the background, at most once
   * per lifetime for all windows. Without a stored list, questions asked together share one request;
   * without a key, nothing is asked.
   */
  async provideLanguageModelChatInformation(options: vscode.PrepareLanguageModelChatModelOptions, token: vscode.CancellationToken): Promise<InferenceModelInformation[]> {
    const env = this.#services.environments.active();
    if (!env.baseUrl) return [];
    if (!(await this.#services.keys.has(env.name))) {
      // Asked by a person (not silently): point at the setup; never an error, never a silent-mode notification.
      if (!options.silent) this.#offerKeySetup(env);
      return [];
    }
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    this.#listsInFlight++;
    this.#lastListActivity = Date.now();
    try {
      const ids = await this.#services.models.list('chat', env.name, { signal: abort.signal, quiet: options.silent, staleWhileRefreshing: true });
      return ids.map((id) => modelInformation(id, env, this.#tools));
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.kind !== 'cancelled') this.#services.log.warn(`Language models: no model list for ${env.name}: ${apiError.message}`);
      return [];
    } finally {
      cancel.dispose();
      this.#listsInFlight--;
      this.#lastListActivity = Date.now();
    }
  }

  /**
   * Whether VS Code's questions for the model list are over: none in flight and none for `quietMs`
   * (VS Code asks a little after the change event). Tests that count the service's requests wait
   * for this, since a key or environment change makes VS Code refresh the list in the background.
   */
  settled(quietMs = 300): boolean {
    return this.#listsInFlight === 0 && Date.now() - this.#lastListActivity >= quietMs;
  }

  async provideLanguageModelChatResponse(
    model: InferenceModelInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const envName = model.environment ?? this.#services.environments.active().name;
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    const toolsOn = this.#tools.enabled(envName, model.id);
    let reported = 0;
    try {
      const request = buildChatRequest(model, messages, options, toolsOn);
      const answer = await this.ledger.start(envName);
      try {
        const events = await openChatStream(this.#services, envName, request, abort.signal, `language model ${model.id}`);
        for await (const event of events) {
          if (event.type === 'response') Object.assign(answer, { requestId: event.meta.requestId ?? '', model: event.meta.modelId ?? model.id });
          if (event.type === 'delta' || event.type === 'toolCall') reported++;
          reportEvent(event, progress);
        }
      } finally {
        this.ledger.end(answer);
      }
    } catch (error) {
      if (token.isCancellationRequested) return;
      const failure = await this.#failure(envName, model.id, toApiError(error), toolsOn && (options.tools?.length ?? 0) > 0);
      // VS Code batches reported parts and, once a request fails, drops those its caller has not read
      // yet: give the partial answer time to arrive before the error does.
      if (reported > 0) await new Promise((resolve) => setTimeout(resolve, PARTS_SETTLE_MS));
      throw failure;
    } finally {
      cancel.dispose();
    }
  }

  async provideTokenCount(_model: InferenceModelInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    if (typeof text === 'string') return estimateTextTokens(text);
    return toChatMessages([toNeutralMessage(text)]).reduce((sum, message) => sum + estimateMessageTokens(message), 0);
  }

  async #failure(envName: string, modelId: string, error: ApiError, sentTools: boolean): Promise<vscode.LanguageModelError> {
    let failure = error;
    if (refusesTools(error, sentTools)) {
      this.#tools.refuse(envName, modelId);
      this.#onDidChange.fire();
      failure = new ApiError(error.kind, `${error.message} The model is used without tools for the rest of this session.`, {
        ...(error.status !== undefined && { status: error.status }),
        ...(error.meta && { meta: error.meta }),
        ...(error.serviceMessage !== undefined && { serviceMessage: error.serviceMessage }),
        ...(error.serviceCode !== undefined && { serviceCode: error.serviceCode }),
      });
    }
    // A 404 for a listed model means the list is stale: forget it, which also tells VS Code to re-read it.
    if (error.kind === 'modelNotFound') await this.#services.models.invalidate(envName, 'chat');
    this.#services.log.error(`Language model ${modelId} failed in ${envName}: ${failure.message}${failure.requestId ? ` (request ${failure.requestId})` : ''}`);
    return toLanguageModelError(failure);
  }

  #offerKeySetup(env: Environment): void {
    this.keySetupOffers++;
    void vscode.window.showInformationMessage(vscode.l10n.t('Set an API key for {0} to use its models in VS Code\'s chat.', env.label), vscode.l10n.t('Set API Key')).then((choice) => {
      if (choice) void vscode.commands.executeCommand('inference.setApiKey');
    });
  }

  dispose(): void {
    for (const subscription of this.#subscriptions) subscription.dispose();
    this.#onDidChange.dispose();
  }
}
