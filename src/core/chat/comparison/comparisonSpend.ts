import * as l10n from '@vscode/l10n';
import type { SpendEstimate } from '../../usage/estimate';
import type { ComparisonEstimate, ModelEstimate } from '../protocol/comparisonEstimate';

export type { ComparisonEstimate, ModelEstimate } from '../protocol/comparisonEstimate';
import { SpendConsent } from '../../usage/spendConsent';
import { limitSummary, type PeriodSpend } from '../../usage/spendingLimits';
import { formatCredits, SPEND_DIGITS } from '../../credits';
import type { ComparisonBackend, PastLimitQuestion } from '../ports';

/**
 * Money first: what a comparison would cost, model by model, from the user's own ledger (the
 * single-model estimate, usage/estimate.ts), and the one question to the user when its requests
 * together would reach a spending limit.
 */

const round = (credits: number): number => Math.round(credits * 1e6) / 1e6;

/** `sentChars`: the characters the request carries (the conversation so far, the question and its context). */
export function comparisonEstimate(models: readonly string[], estimateOf: (model: string) => SpendEstimate | undefined, sentChars: number): ComparisonEstimate {
  const rows: ModelEstimate[] = models.map((model) => {
    const estimate = estimateOf(model);
    if (!estimate) return { model };
    return { model, estimate, credits: round((estimate.creditsPer1kChars * (sentChars + estimate.answerChars)) / 1000) };
  });
  const known = rows.filter((row) => row.estimate !== undefined);
  const complete = known.length === rows.length;
  if (!known.length) return { models: rows, complete };
  return {
    models: rows,
    creditsPer1kChars: round(known.reduce((sum, row) => sum + (row.estimate?.creditsPer1kChars ?? 0), 0)),
    credits: round(known.reduce((sum, row) => sum + (row.credits ?? 0), 0)),
    complete,
  };
}

/**
 * What each request counts against the limits until its spend is in: at least the unmeasured
 * allowance (the guard holds that much for a request in flight, and an answer overlapped by its
 * neighbours is not measured, so it counts that much for good), its estimate when that is more.
 */
export function countedPerRequest(estimate: ComparisonEstimate, allowance: number): number[] {
  return estimate.models.map((row) => Math.max(allowance, row.credits ?? 0));
}

/** The first period (day, then month) whose limit the requests would reach together, and what they count. */
export function limitCrossed(spends: readonly PeriodSpend[], perRequest: readonly number[]): { spend: PeriodSpend; credits: number } | undefined {
  const credits = round(perRequest.reduce((sum, each) => sum + each, 0));
  const spend = spends.find((period) => period.counted + credits >= period.limit);
  return spend && { spend, credits };
}

/** The words of the one question (the host shows them in a modal): what is reached, what the requests count, the button that sends them all. */
export function pastLimitQuestionText({ environment, requests, spend, credits }: PastLimitQuestion): { message: string; detail: string; send: string } {
  return {
    message: l10n.t('Send the comparison past the spending limit of "{0}"?', environment),
    detail: `${limitSummary(spend, environment)} ${l10n.t('Its {0} requests would count {1} credits together (each its estimate from your ledger, at least the allowance for a request not measured). Each request is still metered on its own; this lets only these {0} through.', requests, formatCredits(credits, SPEND_DIGITS))}`,
    send: l10n.t('Send All {0}', requests),
  };
}

/** The user declined to send the comparison past a spending limit: nothing was sent. */
export class ComparisonDeclinedError extends Error {}

/**
 * Before any of the comparison's requests is sent: when together they would reach a limit of the
 * environment, the user is asked once for all of them. Resolves with the consent that lets exactly
 * those requests through (undefined when no limit is in the way: each is then checked as usual);
 * rejects with ComparisonDeclinedError when the user says no.
 */
export async function consentForComparison(backend: ComparisonBackend, environment: string, estimate: ComparisonEstimate): Promise<SpendConsent | undefined> {
  const spends = await backend.limitSpend(environment);
  if (!spends.length) return undefined;
  const crossed = limitCrossed(spends, countedPerRequest(estimate, backend.unmeasuredRequestCredits()));
  if (!crossed) return undefined;
  const requests = estimate.models.length;
  const send = await backend.confirmPastLimit({ environment, requests, spend: crossed.spend, credits: crossed.credits });
  if (!send) throw new ComparisonDeclinedError(l10n.t('The comparison was not sent: its {0} requests would reach the spending limit of "{1}".', requests, environment));
  return new SpendConsent(environment, requests);
}
