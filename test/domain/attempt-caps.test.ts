import { describe, expect, it } from "vitest";
import { admit, admitPayoutAttempt, waitFor } from "../../src/domain/attempt-caps.js";
import { HOUR, MINUTE } from "../../src/domain/limits.js";
import { expectRefusal, setup, T0, thrown } from "./context.js";

describe("waitFor", () => {
  it("is 0 while the window holds fewer than the cap", () => {
    expect(waitFor([], 0, HOUR, 1)).toBe(0);
    expect(waitFor([0, 1_000], 2_000, HOUR, 3)).toBe(0);
  });

  it("is the whole seconds until the oldest counted attempt leaves the window, rounded up", () => {
    expect(waitFor([0], 1_500, HOUR, 1)).toBe(3_599); // 3,598.5 s
    expect(waitFor([0, 10_000, 20_000], 30_000, HOUR, 3)).toBe(3_570);
    expect(waitFor([0], HOUR - 1, HOUR, 1)).toBe(1); // 1 ms left: at least a second
  });

  it("counts from the attempt that must leave when the cap is below the count", () => {
    // Four in the window, cap 2: three must leave, the third oldest (2,000) last.
    expect(waitFor([0, 1_000, 2_000, 3_000], 5_000, HOUR, 2)).toBe(3_597);
  });

  it("drops attempts exactly one span old, and admits then", () => {
    const window = [0, 10_000];
    expect(waitFor(window, HOUR, HOUR, 2)).toBe(0);
    expect(window).toEqual([10_000]);
  });

  it("a cap of 0 is off", () => {
    expect(waitFor([0, 0, 0, 0], 1, HOUR, 0)).toBe(0);
  });
});

describe("admit", () => {
  it("records admitted attempts and refuses at the cap with the exact retry_after", () => {
    const window: number[] = [];
    admit(window, 0, MINUTE, 2, "RATE_LIMITED", "slow down");
    admit(window, 10_000, MINUTE, 2, "RATE_LIMITED", "slow down");
    expect(window).toEqual([0, 10_000]);
    expect(thrown(() => admit(window, 30_000, MINUTE, 2, "RATE_LIMITED", "slow down"))).toMatchObject({ code: "RATE_LIMITED", message: "slow down", details: { retry_after: 30 } });
    expect(window).toEqual([0, 10_000]); // a refusal is not recorded
  });

  it("admits again exactly retry_after seconds later, because refusals were not counted", () => {
    const window: number[] = [];
    admit(window, 0, MINUTE, 1, "IP_RATE_LIMITED", "x");
    for (const at of [1_000, 30_000, 59_999]) {
      expect(() => admit(window, at, MINUTE, 1, "IP_RATE_LIMITED", "x")).toThrow("x");
    }
    expect(waitFor(window, 59_999, MINUTE, 1)).toBe(1);
    admit(window, MINUTE, MINUTE, 1, "IP_RATE_LIMITED", "x");
    expect(window).toEqual([MINUTE]);
  });

  it("with cap 0 admits everything and records nothing", () => {
    const window: number[] = [];
    for (let i = 0; i < 50; i++) admit(window, 0, MINUTE, 0, "RATE_LIMITED", "x");
    expect(window).toEqual([]);
  });
});

describe("admitPayoutAttempt", () => {
  const countFor = (state: ReturnType<typeof setup>["state"], ip: string) => state.windows.payoutAttemptsByIp.get(ip)?.length ?? 0;

  it("allows 20 attempts per hour from one IP, then IP_RATE_LIMITED until the first is an hour old", () => {
    const { ctx, state } = setup();
    for (let i = 0; i < 20; i++) {
      ctx.now = T0 + i * MINUTE;
      admitPayoutAttempt(ctx, state, "10.0.0.1");
    }
    ctx.now = T0 + 30 * MINUTE;
    const err = expectRefusal(state, () => admitPayoutAttempt(ctx, state, "10.0.0.1"), "IP_RATE_LIMITED");
    expect(err.details.retry_after).toBe(30 * 60);
    expect(err.message).toBe("Too many payout attempts from 10.0.0.1: at most 20 per hour.");
    admitPayoutAttempt(ctx, state, "10.0.0.2"); // another IP is counted apart
    ctx.now = T0 + HOUR;
    admitPayoutAttempt(ctx, state, "10.0.0.1");
    expect(countFor(state, "10.0.0.1")).toBe(20);
    expect(state.windows.payoutAttempts).toHaveLength(21); // 22 admitted, the one at T0 has left the hour
  });

  it("counts per merchant and IP: another merchant's attempts from the same IP do not count", () => {
    const a = setup({ settings: { limits: { payout_attempts_per_ip_per_hour: 1 } } });
    const b = setup({ settings: { limits: { payout_attempts_per_ip_per_hour: 1 } } });
    admitPayoutAttempt(a.ctx, a.state, "10.0.0.1");
    admitPayoutAttempt(b.ctx, b.state, "10.0.0.1");
    expectRefusal(a.state, () => admitPayoutAttempt(a.ctx, a.state, "10.0.0.1"), "IP_RATE_LIMITED");
  });

  it("refuses past the account's hourly cap with RATE_LIMITED and takes the IP's count back", () => {
    const { ctx, state } = setup({ settings: { limits: { payout_attempts_per_hour: 2 } } });
    admitPayoutAttempt(ctx, state, "10.0.0.1");
    ctx.now += MINUTE;
    admitPayoutAttempt(ctx, state, "10.0.0.2");
    ctx.now += MINUTE;
    const err = expectRefusal(state, () => admitPayoutAttempt(ctx, state, "10.0.0.1"), "RATE_LIMITED");
    expect(err.details.retry_after).toBe(58 * 60);
    expect(err.message).toBe("Too many payout attempts: at most 2 per hour for this account.");
    expect(countFor(state, "10.0.0.1")).toBe(1);
    expect(() => admitPayoutAttempt(ctx, state, "10.0.0.3")).toThrow("at most 2 per hour");
    expect(countFor(state, "10.0.0.3")).toBe(0);
  });

  it("an IP refusal does not count against the account, and the IP cap is checked first", () => {
    const { ctx, state } = setup({ settings: { limits: { payout_attempts_per_hour: 1, payout_attempts_per_ip_per_hour: 1 } } });
    admitPayoutAttempt(ctx, state, "10.0.0.1");
    expectRefusal(state, () => admitPayoutAttempt(ctx, state, "10.0.0.1"), "IP_RATE_LIMITED");
    expect(state.windows.payoutAttempts).toEqual([T0]);
  });

  it("cap 0 turns either cap off", () => {
    const { ctx, state } = setup({ settings: { limits: { payout_attempts_per_hour: 0, payout_attempts_per_ip_per_hour: 0 } } });
    for (let i = 0; i < 200; i++) admitPayoutAttempt(ctx, state, "10.0.0.1");
    expect(state.windows.payoutAttempts).toEqual([]);
    expect(countFor(state, "10.0.0.1")).toBe(0);

    const ipOff = setup({ settings: { limits: { payout_attempts_per_hour: 1, payout_attempts_per_ip_per_hour: 0 } } });
    admitPayoutAttempt(ipOff.ctx, ipOff.state, "10.0.0.1");
    expectRefusal(ipOff.state, () => admitPayoutAttempt(ipOff.ctx, ipOff.state, "10.0.0.1"), "RATE_LIMITED");
  });
});
