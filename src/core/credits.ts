/**
 * What a call cost, from the balance before it and the balance the service reported after it;
 * undefined unless both are known. Balances are decimals: the subtraction's binary floating-point
 * noise is rounded off.
 */
export function creditsSpent(balanceBefore: number | undefined, balanceAfter: number | undefined): number | undefined {
  if (balanceBefore === undefined || balanceAfter === undefined) return undefined;
  return Math.round((balanceBefore - balanceAfter) * 1e6) / 1e6;
}

/** Balances read like money; what one answer or image cost is often a fraction of a credit. */
export const BALANCE_DIGITS = 2;
export const SPEND_DIGITS = 4;

/** Credits as every view shows them (status bar, notifications, chat meta, exports): `1,234.5`. */
export function formatCredits(value: number, maximumFractionDigits: number = BALANCE_DIGITS): string {
  return value.toLocaleString('en-US', { maximumFractionDigits });
}
