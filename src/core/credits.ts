/**
 * What a call cost, from the balance before it and the balance the service reported after it;
 * undefined unless both are known. Balances are decimals: the subtraction's binary floating-point
 * noise is rounded off.
 */
export function creditsSpent(balanceBefore: number | undefined, balanceAfter: number | undefined): number | undefined {
  if (balanceBefore === undefined || balanceAfter === undefined) return undefined;
  return Math.round((balanceBefore - balanceAfter) * 1e6) / 1e6;
}
