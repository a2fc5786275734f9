import vscode = require('vscode');
import type { ChatBackend, ComparisonBackend } from '../../../core/chat/ports';
import { pastLimitQuestionText } from '../../../core/chat/comparison/comparisonSpend';
import type { Services } from '../../shared/services';
import { readSetting } from '../../shared/config';
import { openChatStreamOnce, type ChatStreamServices } from './chatBackend';

/** The client and its 429 policy, the spending guard (limits, consent, the comparison's billing group) and the ledger. */
export type ComparisonBackendServices = ChatStreamServices & Pick<Services, 'billing' | 'usage'>;

/**
 * What a comparison needs of the host besides a single answer's (ports.ts ComparisonBackend): each
 * column opens its stream once and waits out a 429 itself (comparisonRun.ts, so that a waiting
 * column gives its slot to another), the limits are read for all of its requests at once, and the
 * one question past them is a modal.
 */
export function comparisonPorts(services: ComparisonBackendServices): Omit<ComparisonBackend, keyof ChatBackend> {
  return {
    openStreamOnce: (env, request, signal) => openChatStreamOnce(services, env, request, signal),
    rateLimitRetry: () => services.api.rateLimitRetry(),
    async limitSpend(env) {
      const limit = services.billing.limitOf(env);
      return limit ? services.billing.spend(env, limit) : [];
    },
    unmeasuredRequestCredits: () => readSetting('inference.unmeasuredRequestCredits'),
    async confirmPastLimit(question) {
      const { message, detail, send } = pastLimitQuestionText(question);
      return (await vscode.window.showWarningMessage(message, { modal: true, detail }, send)) === send;
    },
    openBillingGroup: (env) => services.billing.openGroup(env),
    measureEachModel: () => readSetting('inference.chat.comparison.measureEachModel'),
    recordMeasuredTogether: (total) => services.usage.recordMeasuredTogether(total),
  };
}
