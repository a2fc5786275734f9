import * as vscode from 'vscode';
import { ApiError, toApiError } from '../../core/errors';
import { toChatMessages } from '../../core/languageModels/messages';
import { modelProfile, refusesTools, type ModelProfile } from '../../core/languageModels/modelInfo';
import { estimateMessageTokens, estimateRequestTokens, estimateTextTokens } from '../../core/languageModels/tokenEstimate';
import type { ChatRequest, ChatStreamEvent, ChatTool } from '../../core/types';
import { affectsSetting, readSetting } from '../config';
import type { Environment } from '../environments';
import type { Services } from '../services';
import { toLanguageModelError } from './lmErrors';
import { toNeutralMessage } from './messageParts';

export const VENDOR = 'inference';

/**
 * What VS Code keeps for each model. `isUserSelectable` is not in @types/vscode 1.104, but newer VS Code
 * hides provider models from the chat model picker unless it is set, and ignores it where unknown.
 */
export interface InferenceModelInformation extends vscode.LanguageModelChatInformation {
  /** The environment whose model list this came from: requests go there, with that environment's key. */
  readonly environment: string;
  readonly isUserSelectable: boolean;
}

/** How long reported parts get to reach the caller before a failure is reported after them. */
const PARTS_SETTLE_MS = 250;

/** Quiet time after the last answer before the settled balance is read. */
const BALANCE_REFRESH_DELAY_MS = 2000;

/** Sampling options a caller may pass in `modelOptions`, with the type each must have. */
const MODEL_OPTIONS = { temperature: 'number', top_p: 'number', max_tokens: 'number' } as const;

/**
 * The service's chat models in VS Code's language model API (chat view, agent mode, `vscode.lm`):
 * the list comes from the active environment's `GET /models?type=chat`, answers stream through the
 * same core client as the chat panel, and failures become LanguageModelErrors with the usual texts.
 */
export class InferenceChatModelProvider implements vscode.LanguageModelChatProvider<InferenceModelInformation>, vscode.Disposable {
  readonly #onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.#onDidChange.event;
  readonly #subscriptions: vscode.Disposable[];
  /** `env \n model` of models whose service refused tools this session. */
  readonly #refusedTools = new Set<string>();
  /** How often a person asking for the models was pointed at the key setup (tests check silence with it). */
  keySetupOffers = 0;
  #balanceRefresh: NodeJS.Timeout | undefined;
  /** Model-list questions in flight, and when the list last changed or was asked for (see `settled`). */
  #listsInFlight = 0;
  #lastListActivity = 0;

  constructor(private readonly services: Services) {
    const changed = () => {
      this.#lastListActivity = Date.now();
      this.#onDidChange.fire();
    };
    this.#subscriptions = [
      services.environments.onDidChange(changed),
      services.keys.onDidChange(changed),
      services.models.onDidChangeModels(({ kind }) => {
        if (kind === 'chat') changed();
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (affectsSetting(event, 'inference.languageModels.overrides')) changed();
      }),
    ];
  }

  async provideLanguageModelChatInformation(options: vscode.PrepareLanguageModelChatModelOptions, token: vscode.CancellationToken): Promise<InferenceModelInformation[]> {
    const env = this.services.environments.active();
    if (!env.baseUrl) return [];
    if (!(await this.services.keys.has(env.name))) {
      // Asked by a person (not silently): point at the setup; never an error, never a silent-mode notification.
      if (!options.silent) this.#offerKeySetup(env);
      return [];
    }
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    this.#listsInFlight++;
    this.#lastListActivity = Date.now();
    try {
      const ids = await this.services.models.list('chat', env.name, { signal: abort.signal, quiet: options.silent });
      return ids.map((id) => this.#information(id, env));
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.kind !== 'cancelled') this.services.log.warn(`Language models: no model list for ${env.name}: ${apiError.message}`);
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
    const envName = model.environment ?? this.services.environments.active().name;
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    const toolsOn = this.#toolsEnabled(envName, model.id);
    const offered = options.tools ?? [];
    const sendsTools = toolsOn && offered.length > 0;
    let reported = 0;
    const counted: vscode.Progress<vscode.LanguageModelResponsePart> = {
      report: (part) => {
        reported++;
        progress.report(part);
      },
    };
    try {
      if (!toolsOn && offered.length > 0 && options.toolMode === vscode.LanguageModelChatToolMode.Required) {
        throw new ApiError('badRequest', `The model "${model.id}" is used without tools (it refused them, or "inference.languageModels.overrides" turns them off), so it cannot be required to call one.`);
      }
      const request: ChatRequest = {
        model: model.id,
        messages: toChatMessages(messages.map(toNeutralMessage), { toolsAsText: !toolsOn }),
        ...sampling(options.modelOptions),
      };
      if (sendsTools) {
        request.tools = offered.map(toChatTool);
        request.tool_choice = options.toolMode === vscode.LanguageModelChatToolMode.Required ? 'required' : 'auto';
      }
      const estimate = estimateRequestTokens(request.messages, request.tools);
      if (estimate > model.maxInputTokens) {
        throw new ApiError('badRequest', `This request is about ${estimate} tokens (estimated), more than the ${model.maxInputTokens} that "${model.id}" accepts, so it was not sent. Shorten it, or raise maxInputTokens for this model in "inference.languageModels.overrides".`);
      }
      await this.#stream(envName, request, counted, abort.signal);
      this.#refreshBalanceSoon(envName);
    } catch (error) {
      if (token.isCancellationRequested) return;
      const failure = await this.#failure(envName, model.id, toApiError(error), sendsTools);
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

  /** Streams one answer; a 429 arrives before the first event, so only opening the stream is retried. */
  async #stream(envName: string, request: ChatRequest, progress: vscode.Progress<vscode.LanguageModelResponsePart>, signal: AbortSignal): Promise<void> {
    const client = await this.services.api.client(envName);
    const { events, first } = await this.services.api.withRateLimitRetry(`language model ${request.model}`, async () => {
      const iterator = client.streamChat(request, { signal })[Symbol.asyncIterator]();
      return { events: iterator, first: await iterator.next() };
    }, signal);
    try {
      for (let next = first; !next.done; next = await events.next()) report(next.value, progress);
    } finally {
      // Closes the connection when the loop ended early (an error in a consumer's progress callback).
      await events.return(undefined);
    }
  }

  async #failure(envName: string, modelId: string, error: ApiError, sentTools: boolean): Promise<vscode.LanguageModelError> {
    let failure = error;
    if (refusesTools(error, sentTools)) {
      this.#refusedTools.add(`${envName}\n${modelId}`);
      this.#onDidChange.fire();
      failure = new ApiError(error.kind, `${error.message} The model is used without tools for the rest of this session.`, {
        ...(error.status !== undefined && { status: error.status }),
        ...(error.meta && { meta: error.meta }),
        ...(error.serviceMessage !== undefined && { serviceMessage: error.serviceMessage }),
        ...(error.serviceCode !== undefined && { serviceCode: error.serviceCode }),
      });
    }
    // A 404 for a listed model means the list is stale: forget it, which also tells VS Code to re-read it.
    if (error.kind === 'modelNotFound') await this.services.models.invalidate(envName, 'chat');
    this.services.log.error(`Language model ${modelId} failed in ${envName}: ${failure.message}${failure.requestId ? ` (request ${failure.requestId})` : ''}`);
    return toLanguageModelError(failure);
  }

  /**
   * A stream reports the balance before the answer is billed, so the status bar would show the reserve.
   * As the chat panel does (same setting), read the settled balance with one model-list request, but
   * once per burst: agent mode sends many requests in a row, and each read counts against the key's RPM.
   */
  #refreshBalanceSoon(envName: string): void {
    if (!readSetting('inference.chat.refreshBalanceAfterAnswer')) return;
    clearTimeout(this.#balanceRefresh);
    this.#balanceRefresh = setTimeout(() => {
      this.services.models.list('chat', envName, { refresh: true, quiet: true }).catch((error: unknown) => {
        this.services.log.warn(`Language models: could not read the balance after an answer: ${toApiError(error).message}`);
      });
    }, BALANCE_REFRESH_DELAY_MS);
  }

  #toolsEnabled(envName: string, modelId: string): boolean {
    return modelProfile(modelId, readSetting('inference.languageModels.overrides')).toolCalling && !this.#refusedTools.has(`${envName}\n${modelId}`);
  }

  #information(id: string, env: Environment): InferenceModelInformation {
    const profile: ModelProfile = modelProfile(id, readSetting('inference.languageModels.overrides'));
    return {
      id,
      name: profile.name,
      family: profile.family,
      version: profile.version,
      detail: env.label,
      tooltip: vscode.l10n.t('{0} from the {1} environment of the inference service; usage is billed to that environment\'s wallet.', id, env.label),
      maxInputTokens: profile.maxInputTokens,
      maxOutputTokens: profile.maxOutputTokens,
      capabilities: { toolCalling: this.#toolsEnabled(env.name, id), imageInput: false },
      isUserSelectable: true,
      environment: env.name,
    };
  }

  #offerKeySetup(env: Environment): void {
    this.keySetupOffers++;
    void vscode.window.showInformationMessage(vscode.l10n.t('Set an API key for {0} to use its models in VS Code\'s chat.', env.label), vscode.l10n.t('Set API Key')).then((choice) => {
      if (choice) void vscode.commands.executeCommand('inference.setApiKey');
    });
  }

  dispose(): void {
    clearTimeout(this.#balanceRefresh);
    for (const subscription of this.#subscriptions) subscription.dispose();
    this.#onDidChange.dispose();
  }
}

function report(event: ChatStreamEvent, progress: vscode.Progress<vscode.LanguageModelResponsePart>): void {
  switch (event.type) {
    case 'delta':
      progress.report(new vscode.LanguageModelTextPart(event.text));
      return;
    case 'toolCall':
      progress.report(new vscode.LanguageModelToolCallPart(event.call.id, event.call.name, event.call.input));
      return;
    case 'end':
      if (!event.complete) throw new ApiError('streamError', 'The answer stopped before the service finished it; what arrived so far was kept.');
      return;
    default:
      // Reasoning text has no part type in VS Code 1.104's API; balance and request id reach the status bar through the client.
      return;
  }
}

function toChatTool(tool: vscode.LanguageModelChatTool): ChatTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, ...(tool.inputSchema && { parameters: tool.inputSchema }) } };
}

function sampling(modelOptions: { readonly [name: string]: unknown } | undefined): Partial<ChatRequest> {
  const picked: Record<string, number> = {};
  for (const [name, type] of Object.entries(MODEL_OPTIONS)) {
    const value = modelOptions?.[name];
    if (typeof value === type && Number.isFinite(value)) picked[name] = value as number;
  }
  return picked;
}
