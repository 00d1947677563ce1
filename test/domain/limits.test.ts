import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AIRTIME_AMOUNT,
  CHECKOUT_DESCRIPTION_MAX,
  CHECKOUT_MIN_AMOUNT,
  CHECKOUT_VALIDITY_MS,
  DAY,
  DEFAULT_LIMITS,
  ELECTRICITY_AMOUNT,
  EXAM_QUANTITY,
  HOUR,
  IDENTIFIER_DIGITS,
  MINUTE,
  PAYOUT_FEE_CAP,
  payoutFee,
} from "../../src/domain/limits.js";
import { toMinor } from "../../src/domain/money.js";
import { makeContext } from "./context.js";

describe("payoutFee", () => {
  it("is 1% of the amount: the README's 5,000 Naira payout pays 50", () => {
    expect(payoutFee(toMinor(5_000))).toBe(toMinor(50));
    expect(payoutFee(toMinor(100))).toBe(toMinor(1)); // the default minimum payout
    expect(payoutFee(toMinor(150.55))).toBe(151); // 150.55 kobo -> 151
  });

  it("rounds half-up at the kobo (not to even)", () => {
    expect(payoutFee(50)).toBe(1); // 0.5 kobo
    expect(payoutFee(150)).toBe(2); // 1.5
    expect(payoutFee(250)).toBe(3); // 2.5: banker's rounding would give 2
    expect(payoutFee(249)).toBe(2);
    expect(payoutFee(149)).toBe(1);
  });

  it("is nothing for amounts under half a kobo's worth", () => {
    expect(payoutFee(0)).toBe(0);
    expect(payoutFee(1)).toBe(0);
    expect(payoutFee(49)).toBe(0);
  });

  it("is capped at 1,000 Naira", () => {
    expect(PAYOUT_FEE_CAP).toBe(toMinor(1_000));
    expect(payoutFee(toMinor(99_999.49))).toBe(toMinor(999.99));
    expect(payoutFee(toMinor(99_999.5))).toBe(toMinor(1_000)); // 999.995 rounds up to the cap
    expect(payoutFee(toMinor(100_000))).toBe(toMinor(1_000));
    expect(payoutFee(toMinor(100_000.01))).toBe(toMinor(1_000));
    expect(payoutFee(toMinor(DEFAULT_LIMITS.payout_max))).toBe(toMinor(1_000));
  });

  it("is, below the cap, the nearest kobo to 1% with halves going up", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e13 }), (amount) => {
        const fee = payoutFee(amount);
        expect(fee).toBeLessThanOrEqual(PAYOUT_FEE_CAP);
        if (fee < PAYOUT_FEE_CAP) {
          expect(amount).toBeGreaterThanOrEqual(fee * 100 - 50);
          expect(amount).toBeLessThan(fee * 100 + 50);
        } else {
          expect(amount).toBeGreaterThanOrEqual(PAYOUT_FEE_CAP * 100 - 50);
        }
      }),
      { seed: 1, numRuns: 500 },
    );
  });
});

describe("the spec's limits", () => {
  it("has the fixed values of the spec", () => {
    expect(AIRTIME_AMOUNT).toEqual({ min: 50, max: 50_000 });
    expect(ELECTRICITY_AMOUNT).toEqual({ min: 500, max: 100_000 });
    expect(EXAM_QUANTITY).toEqual({ min: 1, max: 20 });
    expect([CHECKOUT_MIN_AMOUNT, CHECKOUT_DESCRIPTION_MAX, CHECKOUT_VALIDITY_MS]).toEqual([100, 200, 30 * 60_000]);
    expect(IDENTIFIER_DIGITS).toEqual({ bvn: 11, nin: 11, account_number: 10 });
    expect([MINUTE, HOUR, DAY]).toEqual([60_000, 3_600_000, 86_400_000]);
  });

  it("a new merchant's limits are the documented defaults, money in kobo", () => {
    expect(DEFAULT_LIMITS.payout_attempts_per_ip_per_hour).toBe(20);
    expect(makeContext().config.limits).toEqual({
      payout_min: toMinor(100),
      payout_max: toMinor(5_000_000),
      payout_hourly_amount: toMinor(20_000_000),
      payout_daily_amount: toMinor(100_000_000),
      payout_attempts_per_hour: 100,
      payout_attempts_per_ip_per_hour: 20,
      payout_review_threshold: toMinor(1_000_000),
      requests_per_minute: 1_000,
    });
  });
});
