/**
 * Every limit the spec names, in one place: the fixed ones with their values, the per-merchant ones
 * with the defaults the sandbox chose (the spec says "not shown"; a merchant's settings override them),
 * and the payout fee. attempt-caps.ts counts attempts against the caps; volume.ts sums payouts
 * against the amount limits. The README's "Where each rule lives" table points here.
 */
import type { Minor } from "./money.js";

// ---- Fixed by the spec ----------------------------------------------------------------------------

/** Airtime: 50 to 50,000 Naira. */
export const AIRTIME_AMOUNT = { min: 50, max: 50_000 } as const;
/** Electricity: 500 to 100,000 Naira. */
export const ELECTRICITY_AMOUNT = { min: 500, max: 100_000 } as const;
/** Exam pins: 1 to 20 per purchase. */
export const EXAM_QUANTITY = { min: 1, max: 20 } as const;
/** Checkout: at least 100 Naira, a description of at most 200 characters, an account valid 30 minutes. */
export const CHECKOUT_MIN_AMOUNT = 100;
export const CHECKOUT_DESCRIPTION_MAX = 200;
export const CHECKOUT_VALIDITY_MS = 30 * 60_000;
/** BVN and NIN are 11 digits; a NUBAN account number is 10. */
export const IDENTIFIER_DIGITS = { bvn: 11, nin: 11, account_number: 10 } as const;
/** Virtual accounts (the sandbox's choice): the merchant's reference, a CAC number's digits after RC or BN, an account number looked up. */
export const VIRTUAL_ACCOUNT_REFERENCE_MAX = 100;
export const CAC_DIGITS = { min: 1, max: 8 } as const;
export const ACCOUNT_LOOKUP_MAX = 20;

/** Payout fee: 1% of the amount, capped at 1,000 Naira, rounded half-up to the kobo. */
export const PAYOUT_FEE_PERCENT = 1;
export const PAYOUT_FEE_CAP: Minor = 1_000_00;
export function payoutFee(amount: Minor): Minor {
  return Math.min(Math.round((amount * PAYOUT_FEE_PERCENT) / 100), PAYOUT_FEE_CAP);
}

// ---- Per merchant: the spec names them, the sandbox chose the defaults (README "Sandbox choices") ---

/** In Naira where they are amounts; counts otherwise (0 = no cap). */
export const DEFAULT_LIMITS = {
  payout_min: 100,
  payout_max: 5_000_000,
  payout_hourly_amount: 20_000_000,
  payout_daily_amount: 100_000_000,
  payout_attempts_per_hour: 100,
  /** The spec's own value: 20 payout attempts per hour per IP. */
  payout_attempts_per_ip_per_hour: 20,
  payout_review_threshold: 1_000_000,
  requests_per_minute: 1_000,
} as const;

/** Rolling windows the caps and volume limits count over. */
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
