import type { SpendEstimate } from '../../usage/estimate';

/**
 * What a comparison would cost before it is sent, as the composer shows it: built by the engine
 * (comparison/comparisonSpend.ts), read by the webview.
 */

/** One model's estimate; `estimate` absent (shown as n/a) with too few measured answers with it. */
export interface ModelEstimate {
  model: string;
  estimate?: SpendEstimate;
  /** What this question would cost with it: its rate over the request's characters and a typical answer's. */
  credits?: number;
}

export interface ComparisonEstimate {
  models: ModelEstimate[];
  /**
   * The models' rates added up: the same characters go to each, so this is the comparison's
   * "credits per 1,000 characters", as the composer states a single model's. Of the models that have one.
   */
  creditsPer1kChars?: number;
  /** What this question would cost across the models that have an estimate. */
  credits?: number;
  /** Every model has an estimate: the totals cover the whole comparison. */
  complete: boolean;
}
