import { describe, expect, it } from "vitest";
import { admit, admitPayoutAttempt, forgetIdleAddresses, keepAddress, realSecondsFor, waitFor, type CapClock } from "../../src/domain/attempt-caps.js";
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

describe("realSecondsFor", () => {
  it("is the sim wait divided by the speed, in whole real seconds rounded up, at least 1", () => {
    expect(realSecondsFor(30_000, 1)).toBe(30);
    expect(realSecondsFor(30_001, 1)).toBe(31);
    expect(realSecondsFor(1_800_000, 60)).toBe(30);
    expect(realSecondsFor(1_800_001, 60)).toBe(31);
    expect(realSecondsFor(10_000, 0.5)).toBe(20);
    expect(realSecondsFor(1, 100_000)).toBe(1);
  });

  it("never falls short of the sim wait by the clock's own sum, floor(real ms x speed), whatever the float rounding", () => {
    for (const speed of [0.1, 0.3, 0.7, 1.1, 3, 7.3, 13, 59.9, 1_000]) {
      for (let simMs = 1; simMs < 200_000; simMs += 997) {
        const seconds = realSecondsFor(simMs, speed);
        expect(Math.floor(seconds * 1000 * speed), `${simMs} ms at speed ${speed}`).toBeGreaterThanOrEqual(simMs);
        if (seconds > 1) expect(Math.floor((seconds - 1) * 1000 * speed)).toBeLessThan(simMs); // and not a second more than needed
      }
    }
  });
});

const MANUAL: CapClock = { mode: "manual", speed: 1 };

describe("admit", () => {
  it("records admitted attempts and refuses at the cap with the exact retry_after, in real seconds on the wall clock", () => {
    const window: number[] = [];
    admit(window, 0, MINUTE, 2, "RATE_LIMITED", "slow down.");
    admit(window, 10_000, MINUTE, 2, "RATE_LIMITED", "slow down.");
    expect(window).toEqual([0, 10_000]);
    const err = thrown(() => admit(window, 30_000, MINUTE, 2, "RATE_LIMITED", "slow down."));
    expect(err).toMatchObject({ code: "RATE_LIMITED", message: "slow down. Retry in 30 s.", details: { retry_after: 30 } });
    expect(err.details.retry_after_header).toBeUndefined(); // a Retry-After header goes with it
    expect(window).toEqual([0, 10_000]); // a refusal is not recorded
  });

  it("on a manual clock: sim seconds, no Retry-After header, and the message names the advance that gets past the cap", () => {
    const window = [0];
    const err = thrown(() => admit(window, 20_500, MINUTE, 1, "IP_RATE_LIMITED", "too many.", MANUAL));
    expect(err.details).toEqual({ retry_after: 40, retry_after_header: false });
    expect(err.message).toBe(
      "too many. This account's clock is manual, so waiting does not help: advance the clock by 40 seconds (POST /sandbox/v1/clock/advance) to get past it.",
    );
  });

  it("on a realtime clock at speed s: real seconds, ceil(sim seconds / s)", () => {
    const window = [0];
    const err = thrown(() => admit(window, 0, HOUR, 1, "RATE_LIMITED", "too many.", { mode: "realtime", speed: 60 }));
    expect(err.details).toEqual({ retry_after: 60 });
    expect(err.message).toBe("too many. Retry in 60 s.");
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
      admitPayoutAttempt(ctx, state, "10.0.0.1", MANUAL);
    }
    ctx.now = T0 + 30 * MINUTE;
    const err = expectRefusal(state, () => admitPayoutAttempt(ctx, state, "10.0.0.1", MANUAL), "IP_RATE_LIMITED");
    expect(err.details.retry_after).toBe(30 * 60);
    expect(err.message).toBe(
      "Too many payout attempts from 10.0.0.1: at most 20 per hour. This account's clock is manual, so waiting does not help: " +
        "advance the clock by 1800 seconds (POST /sandbox/v1/clock/advance) to get past it.",
    );
    expect(err.details.retry_after_header).toBe(false);
    admitPayoutAttempt(ctx, state, "10.0.0.2", MANUAL); // another IP is counted apart
    ctx.now = T0 + HOUR;
    admitPayoutAttempt(ctx, state, "10.0.0.1", MANUAL);
    expect(countFor(state, "10.0.0.1")).toBe(20);
    expect(state.windows.payoutAttempts).toHaveLength(21); // 22 admitted, the one at T0 has left the hour
  });

  it("counts per merchant and IP: another merchant's attempts from the same IP do not count", () => {
    const a = setup({ settings: { limits: { payout_attempts_per_ip_per_hour: 1 } } });
    const b = setup({ settings: { limits: { payout_attempts_per_ip_per_hour: 1 } } });
    admitPayoutAttempt(a.ctx, a.state, "10.0.0.1", MANUAL);
    admitPayoutAttempt(b.ctx, b.state, "10.0.0.1", MANUAL);
    expectRefusal(a.state, () => admitPayoutAttempt(a.ctx, a.state, "10.0.0.1", MANUAL), "IP_RATE_LIMITED");
  });

  it("refuses past the account's hourly cap with RATE_LIMITED and takes the IP's count back", () => {
    const { ctx, state } = setup({ settings: { limits: { payout_attempts_per_hour: 2 } } });
    admitPayoutAttempt(ctx, state, "10.0.0.1", MANUAL);
    ctx.now += MINUTE;
    admitPayoutAttempt(ctx, state, "10.0.0.2", MANUAL);
    ctx.now += MINUTE;
    const err = expectRefusal(state, () => admitPayoutAttempt(ctx, state, "10.0.0.1", MANUAL), "RATE_LIMITED");
    expect(err.details.retry_after).toBe(58 * 60);
    expect(err.message).toMatch(/^Too many payout attempts: at most 2 per hour for this account\. .* advance the clock by 3480 seconds /);
    expect(countFor(state, "10.0.0.1")).toBe(1);
    expect(() => admitPayoutAttempt(ctx, state, "10.0.0.3", MANUAL)).toThrow("at most 2 per hour");
    expect(countFor(state, "10.0.0.3")).toBe(0);
  });

  it("an IP refusal does not count against the account, and the IP cap is checked first", () => {
    const { ctx, state } = setup({ settings: { limits: { payout_attempts_per_hour: 1, payout_attempts_per_ip_per_hour: 1 } } });
    admitPayoutAttempt(ctx, state, "10.0.0.1", MANUAL);
    expectRefusal(state, () => admitPayoutAttempt(ctx, state, "10.0.0.1", MANUAL), "IP_RATE_LIMITED");
    expect(state.windows.payoutAttempts).toEqual([T0]);
  });

  it("cap 0 turns either cap off", () => {
    const { ctx, state } = setup({ settings: { limits: { payout_attempts_per_hour: 0, payout_attempts_per_ip_per_hour: 0 } } });
    for (let i = 0; i < 200; i++) admitPayoutAttempt(ctx, state, "10.0.0.1", MANUAL);
    expect(state.windows.payoutAttempts).toEqual([]);
    expect(countFor(state, "10.0.0.1")).toBe(0);

    const ipOff = setup({ settings: { limits: { payout_attempts_per_hour: 1, payout_attempts_per_ip_per_hour: 0 } } });
    admitPayoutAttempt(ipOff.ctx, ipOff.state, "10.0.0.1", MANUAL);
    expectRefusal(ipOff.state, () => admitPayoutAttempt(ipOff.ctx, ipOff.state, "10.0.0.1", MANUAL), "RATE_LIMITED");
  });

  // Each cap, on each kind of merchant clock: a client that waits (or advances) exactly retry_after gets in.
  for (const cap of ["IP_RATE_LIMITED", "RATE_LIMITED"] as const) {
    const limits = cap === "IP_RATE_LIMITED" ? { payout_attempts_per_ip_per_hour: 2, payout_attempts_per_hour: 0 } : { payout_attempts_per_hour: 2, payout_attempts_per_ip_per_hour: 0 };
    for (const clock of [MANUAL, { mode: "realtime", speed: 1 }, { mode: "realtime", speed: 60 }, { mode: "realtime", speed: 0.5 }] as CapClock[]) {
      it(`${cap} on a ${clock.mode} clock at speed ${clock.speed}: admitted again exactly retry_after later, not a second sooner`, () => {
        const { ctx, state } = setup({ settings: { limits } });
        admitPayoutAttempt(ctx, state, "10.0.0.1", clock);
        ctx.now += 7 * MINUTE + 300;
        admitPayoutAttempt(ctx, state, "10.0.0.1", clock);
        ctx.now += 11 * MINUTE;
        const err = expectRefusal(state, () => admitPayoutAttempt(ctx, state, "10.0.0.1", clock), cap);
        const simLeft = HOUR - (18 * MINUTE + 300); // until the first attempt is an hour old
        const seconds = err.details.retry_after!;
        // The sim time that retry_after stands for: sim seconds on a manual clock, real seconds x speed otherwise.
        const simOf = (s: number) => (clock.mode === "manual" ? s * 1000 : Math.floor(s * 1000 * clock.speed));
        expect(seconds).toBe(clock.mode === "manual" ? Math.ceil(simLeft / 1000) : Math.ceil(simLeft / clock.speed / 1000));
        expect(err.details.retry_after_header).toBe(clock.mode === "manual" ? false : undefined);
        const refusedAt = ctx.now;
        ctx.now = refusedAt + simOf(seconds - 1);
        expectRefusal(state, () => admitPayoutAttempt(ctx, state, "10.0.0.1", clock), cap);
        ctx.now = refusedAt + simOf(seconds);
        admitPayoutAttempt(ctx, state, "10.0.0.1", clock);
      });
    }
  }
});

describe("windows per client address", () => {
  it("are kept least recently admitted first: idle ones are forgotten from the front, and past the cap the least recent go", () => {
    const windows = new Map<string, number[]>();
    keepAddress(windows, "a", [0], 3);
    keepAddress(windows, "b", [10], 3);
    keepAddress(windows, "a", [0, 20], 3); // admitted again: to the back
    expect([...windows.keys()]).toEqual(["b", "a"]);
    keepAddress(windows, "c", [30], 3);
    keepAddress(windows, "d", [40], 3);
    expect([...windows.keys()]).toEqual(["a", "c", "d"]); // b, the least recent, went
    keepAddress(windows, "e", [], 3); // nothing admitted (a cap of 0): not kept
    expect(windows.has("e")).toBe(false);
    forgetIdleAddresses(windows, 35 + MINUTE, MINUTE); // a's last (20) and c's (30) are a minute old
    expect([...windows.keys()]).toEqual(["d"]);
  });

  it("a payout attempt refused for its address, or for the account, leaves the address where it was", () => {
    const { ctx, state } = setup({ settings: { limits: { payout_attempts_per_ip_per_hour: 1, payout_attempts_per_hour: 3 } } });
    for (const ip of ["10.0.0.1", "10.0.0.2", "10.0.0.3"]) admitPayoutAttempt(ctx, state, ip, MANUAL);
    expectRefusal(state, () => admitPayoutAttempt(ctx, state, "10.0.0.1", MANUAL), "IP_RATE_LIMITED");
    expectRefusal(state, () => admitPayoutAttempt(ctx, state, "10.0.0.4", MANUAL), "RATE_LIMITED");
    expect([...state.windows.payoutAttemptsByIp.keys()]).toEqual(["10.0.0.1", "10.0.0.2", "10.0.0.3"]);
  });
});
