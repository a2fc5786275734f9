import type { BalanceReading, ChatBackend } from '../../core/chat/ports';
import { errorFacts } from '../../core/errorView';
import type { ChatStreamEvent } from '../../core/types';
import { readSetting } from '../config';
import type { Services } from '../services';
import { chatDefaults } from './chatSettings';

/** The chat engine's view of the extension: settings, the account, the client and the error presenter. */
export function createChatBackend(services: Services): ChatBackend {
  return {
    environment() {
      const env = services.environments.active();
      const selectedModel = services.models.selectedChatModel(env.name);
      return { name: env.name, label: env.label, ...(selectedModel && { selectedModel }) };
    },
    chatDefaults: (model) => chatDefaults(services.environments.active().name, model),
    async openStream(env, request, signal) {
      const client = await services.api.client(env, undefined, 'chat');
      // A 429 arrives before the first event, so only opening the stream is retried.
      const { events, first } = await services.api.withRateLimitRetry('chat', async () => {
        const iterator = client.streamChat(request, { signal })[Symbol.asyncIterator]();
        return { events: iterator, first: await iterator.next() };
      }, signal);
      return resume(first, events);
    },
    balance: (env) => services.account.get(env).balanceCredits,
    async readSettledBalance(env): Promise<BalanceReading | undefined> {
      if (!readSetting('inference.chat.refreshBalanceAfterAnswer')) return undefined;
      try {
        // The contract promises the balance header on chat and image calls only: the model list may carry none.
        await services.models.list('chat', env, { refresh: true });
      } catch (error) {
        services.log.warn(`Chat: could not read the balance after an answer: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      }
      const { balanceCredits, balanceAt } = services.account.get(env);
      return balanceCredits !== undefined && balanceAt !== undefined ? { credits: balanceCredits, at: balanceAt } : undefined;
    },
    usage: services.usage,
    async describeFailure(error, context) {
      const apiError = await services.errors.record(error, { source: 'chat', env: context.env, forgetsModel: context.usedEnvironmentModel });
      return errorFacts(apiError);
    },
  };
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
