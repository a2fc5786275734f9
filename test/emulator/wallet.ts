/** A prepaid credit wallet with reserve-then-settle billing. */
import { ApiError } from './errors';

/** Credits are kept to 6 decimals so repeated small charges do not drift. */
export function roundCredits(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

export class Wallet {
  private credits: number;

  constructor(private readonly initial: number) {
    this.credits = initial;
  }

  get balance(): number {
    return this.credits;
  }

  set(credits: number): void {
    this.credits = roundCredits(credits);
  }

  reset(): void {
    this.credits = this.initial;
  }

  /** Takes `amount` up front or throws 402; the caller must settle the reservation later. */
  reserve(amount: number): void {
    if (amount > this.credits) {
      throw new ApiError(402, 'insufficient_credits', 'insufficient_credits',
        `Insufficient credits: this call needs up to ${amount} credits, the wallet holds ${this.credits}.`,
        { 'x-service-balance-credits': String(this.credits) });
    }
    this.credits = roundCredits(this.credits - amount);
  }

  /** Refunds the part of `reserved` not covered by `actual`; returns what was charged. */
  settle(reserved: number, actual: number): number {
    const charged = roundCredits(Math.min(Math.max(actual, 0), reserved));
    this.credits = roundCredits(this.credits + reserved - charged);
    return charged;
  }
}
