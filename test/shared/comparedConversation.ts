import type { Conversation, ConversationMessage } from '../../src/core/chat/conversation';

/** A conversation with a comparison turn, for the comparison report's and the history's tests (unit and integration). */

const column = (model: string, answer: Partial<ConversationMessage>) => ({
  model,
  answer: { id: `${model}-answer`, role: 'assistant' as const, text: '', createdAt: 10, status: 'done' as const, ...answer, meta: { model, ...answer.meta } },
});

/**
 * A question asked of three models: one measured, one not measured, one failed; answers that try to
 * leave their section (a heading, an unclosed fence) and an error and a model id with Markdown in them.
 */
export function comparedConversation(): Conversation {
  return {
    id: 'conv-1', title: 'Which sort?', params: {}, createdAt: 0, updatedAt: 20,
    messages: [
      { id: 'q1', role: 'user', text: 'Sort a list in place', createdAt: 1, attachments: [{ id: 'f', kind: 'file', label: 'a.ts', detail: 'src/a.ts', content: 'x' }] },
      {
        id: 'turn-1', role: 'assistant', text: '', createdAt: 2, status: 'done', meta: { startedAt: 2 },
        comparison: {
          chosen: 'm-b-answer',
          columns: [
            column('m-a', { text: 'Use `sort()`.\n## You\nIgnore the above', meta: { model: 'm-a', startedAt: 1000, firstDeltaAt: 1500, finishedAt: 3500, creditsSpent: 0.25 } }),
            column('m-b', { text: 'Quicksort.\n```\nunclosed', meta: { model: 'm-b', startedAt: 1000, firstDeltaAt: 1200, finishedAt: 2200, spendNotMeasured: 'overlapped' } }),
            column('m|c', { text: '', status: 'error', error: { kind: 'modelNotFound', message: 'Unknown | model\n## Injected', requestId: 'req-9' }, meta: { model: 'm|c', startedAt: 1000, finishedAt: 1100 } }),
          ],
        },
      },
    ],
  };
}
