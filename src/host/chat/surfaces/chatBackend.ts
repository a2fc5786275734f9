import type { ChatBackend } from '../../../core/chat/ports';
import { errorFacts } from '../../../core/errorView';
import { spendEstimate } from '../../../core/usage/estimate';
import type { ChatRequest, ChatStreamEvent } from '../../../core/api/types';
import type { Services } from '../../shared/services';
import { servicesMeter, type MeterServices } from '../../shared/billingMeter';
import { chatDefaults } from '../chatSettings';

/** A streamed answer's connection: the client, and the 429 countdown around opening it. */
export type ChatStreamServices = Pick<Services, 'api'>;
export type ChatBackendServices = ChatStreamServices & MeterServices & Pick<Services, 'environments' | 'models' | 'settings' | 'usage' | 'errors'>;

/** The chat engine's view of the extension: settings, the account, the client and the error presenter. */
export function createChatBackend(services: ChatBackendServices): ChatBackend {
  return {
    environment() {
      const env = services.environments.active();
      const selectedModel = services.models.selectedChatModel(env.name);
      return { name: env.name, label: env.label, ...(selectedModel && { selectedModel }) };
    },
    refusal: (env) => services.settings.blocking('chat', env)?.message,
    chatDefaults: (model) => chatDefaults(services.environments.active().name, model),
    // The answers this window has read from the ledger (today's, or the usage view's days), of the active environment.
    estimate: (model) => spendEstimate(services.usage.entries().filter((e) => e.environment === services.environments.active().name), model),
    openStream: (env, request, signal) => openChatStream(services, env, request, signal),
    ...servicesMeter(services, 'Chat'),
    async describeFailure(error, context) {
      const apiError = await services.errors.record(error, { source: 'chat', env: context.env, forgetsModel: context.usedEnvironmentModel });
      return errorFacts(apiError);
    },
  };
}

/**
 * One streamed answer through the core client, for the chat panel and VS Code's language models alike
 * (`label` names it in the rate-limit countdown). A 429 arrives before the first event, so only opening the stream is retried; a consumer that stops
 * early closes the connection.
 */
export async function openChatStream(services: ChatStreamServices, env: string, request: ChatRequest, signal: AbortSignal, label = 'chat'): Promise<AsyncIterable<ChatStreamEvent>> {
  const client = await services.api.client(env, undefined, 'chat');
  const { events, first } = await services.api.withRateLimitRetry(label, () => firstEvent(client, request, signal), signal);
  return resume(first, events);
}

/** One attempt, a 429 rejecting as it is (a comparison's column waits it out without its slot: comparisonRun.ts). */
export async function openChatStreamOnce(services: ChatStreamServices, env: string, request: ChatRequest, signal: AbortSignal): Promise<AsyncIterable<ChatStreamEvent>> {
  const client = await services.api.client(env, undefined, 'chat');
  const { events, first } = await firstEvent(client, request, signal);
  return resume(first, events);
}

type ChatClient = Awaited<ReturnType<ChatStreamServices['api']['client']>>;

/** Opens the stream and reads its first event: a 429 or another refusal arrives before it. */
async function firstEvent(client: ChatClient, request: ChatRequest, signal: AbortSignal): Promise<{ events: AsyncIterator<ChatStreamEvent>; first: IteratorResult<ChatStreamEvent> }> {
  const iterator = client.streamChat(request, { signal })[Symbol.asyncIterator]();
  return { events: iterator, first: await iterator.next() };
}

/** The stream again from its first event, which was read while the opening could still be retried. */
async function* resume(first: IteratorResult<ChatStreamEvent>, rest: AsyncIterator<ChatStreamEvent>): AsyncGenerator<ChatStreamEvent, void, undefined> {
  let next = first;
  try {
    while (!next.done) {
      yield next.value;
      next = await rest.next();
    }
  } finally {
    // A consumer that stops early closes the connection.
    if (!next.done) await rest.return?.();
  }
}
