/**
 * What a call cost, from the balance before it and the balance the service reported after it;
 * undefined unless both are known, and when the balance rose: a top-up, or a balance before that
 * was another wallet's (a switched key or service), says nothing of what the call cost, and a
 * negative spend would lower every total and limit. Balances are decimals: the subtraction's binary
 * floating-point noise is rounded off.
 */
export function creditsSpent(balanceBefore: number | undefined, balanceAfter: number | undefined): number | undefined {
  if (balanceBefore === undefined || balanceAfter === undefined || balanceAfter > balanceBefore) return undefined;
  return roundCredits(balanceBefore - balanceAfter);
}

/** Credits are decimals: sums are rounded to the micro-credit, as the spend itself is. */
export function roundCredits(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** Balances read like money; what one answer or image cost is often a fraction of a credit. */
export const BALANCE_DIGITS = 2;
export const SPEND_DIGITS = 4;

/**
 * Credits as every view shows them (status bar, notifications, chat meta, exports): `1,234.5`, the
 * same text as `toLocaleString('en-US', { maximumFractionDigits })`. Written out because the first
 * use of Intl in a process loads ICU's number data, 15–90 ms measured in the extension host, and the
 * status bar formats credits during activation. Rounds the shortest decimal form of the number half
 * away from zero, as Intl does (1.005 → 1.01, where `toFixed` gives 1.00).
 */
export function formatCredits(value: number, maximumFractionDigits: number = BALANCE_DIGITS): string {
  const magnitude = Math.abs(value);
  // Past 2^53 the scaled integer below is inexact; no balance gets there, Intl handles it if one does.
  if (!Number.isFinite(value) || magnitude * 10 ** maximumFractionDigits >= Number.MAX_SAFE_INTEGER) {
    return value.toLocaleString('en-US', { maximumFractionDigits });
  }
  const [mantissa, exponent = '0'] = String(magnitude).split('e');
  const scaled = Math.round(Number(`${mantissa}e${Number(exponent) + maximumFractionDigits}`));
  const digits = String(scaled).padStart(maximumFractionDigits + 1, '0');
  const whole = digits.slice(0, digits.length - maximumFractionDigits).replace(/\B(?=(\d{3})+$)/g, ',');
  const fraction = digits.slice(digits.length - maximumFractionDigits).replace(/0+$/, '');
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}
