import { describe, expect, it } from "vitest";
import { checkoutStatus, createCheckout } from "../../src/domain/checkout.js";
import { DURATION_PATTERN, durationMs } from "../../src/domain/duration.js";
import { setup } from "./context.js";

describe("durations", () => {
  it("read seconds, minutes, hours and days, decimals allowed", () => {
    expect(["15s", "30m", "2h", "1d", "1.5h", "0.25d", "0s"].map(durationMs)).toEqual([15_000, 1_800_000, 7_200_000, 86_400_000, 5_400_000, 21_600_000, 0]);
  });

  it("round to the millisecond", () => {
    expect(durationMs("0.0005s")).toBe(1);
    expect(durationMs("0.0004s")).toBe(0);
    expect(durationMs("1.0000001m")).toBe(60_000);
  });

  it("the pattern takes a number and one unit, nothing else", () => {
    const valid = ["1s", "10m", "2.5h", "3d"];
    const invalid = ["", "s", "1", "1 s", "-1s", "1.s", ".5s", "1w", "1ms", "1h30m", "1S", "+1s"];
    expect(valid.filter((t) => DURATION_PATTERN.test(t))).toEqual(valid);
    expect(invalid.filter((t) => DURATION_PATTERN.test(t))).toEqual([]);
  });

  it("\"30m\" on the clock is exactly a payment link's life", () => {
    const { ctx, state } = setup();
    const link = createCheckout(ctx, state, { amount: 10_000 });
    expect(checkoutStatus(link, ctx.now + durationMs("30m") - 1)).toBe("pending");
    expect(checkoutStatus(link, ctx.now + durationMs("30m"))).toBe("expired");
  });
});
