import { describe, expect, it } from "vitest";
import { cancelTimers, nextTimer, popDue, schedule, type Timer } from "../../src/domain/timers.js";
import type { TenantState } from "../../src/domain/state.js";
import { setup, T0 } from "./context.js";

const drain = (state: TenantState, upTo = Number.MAX_SAFE_INTEGER) => {
  const out: Timer[] = [];
  for (let t = popDue(state, upTo); t; t = popDue(state, upTo)) out.push(t);
  return out;
};
const byAtThenSeq = (a: Timer, b: Timer) => a.at - b.at || a.seq - b.seq;

describe("schedule", () => {
  it("numbers timers in scheduling order and stamps the merchant", () => {
    const { ctx, state } = setup();
    expect(schedule(ctx, state, T0 + 5, "payout.settle", "p1")).toEqual({ at: T0 + 5, seq: 1, kind: "payout.settle", merchantId: ctx.config.merchant_id, ref: "p1" });
    expect(schedule(ctx, state, T0, "vtu.settle", "v1").seq).toBe(2);
    expect(state.sequences.timer).toBe(2);
    expect(nextTimer(state)).toMatchObject({ ref: "v1" });
  });
});

describe("popDue", () => {
  it("pops in (at, seq) order: the earliest first, ties in scheduling order", () => {
    const { ctx, state } = setup();
    for (let i = 0; i < 300; i++) schedule(ctx, state, T0 + ctx.ids.int(20) * 1_000, "payout.settle", `p${i}`);
    const expected = [...state.timers].sort(byAtThenSeq);
    expect(drain(state)).toEqual(expected);
    expect(state.timers).toEqual([]);
  });

  it("pops only timers due at or before the given time", () => {
    const { ctx, state } = setup();
    schedule(ctx, state, T0 + 2_000, "payout.settle", "b");
    schedule(ctx, state, T0 + 1_000, "payout.settle", "a");
    schedule(ctx, state, T0 + 3_000, "payout.settle", "c");
    expect(popDue(state, T0 + 999)).toBeUndefined();
    expect(drain(state, T0 + 2_000).map((t) => t.ref)).toEqual(["a", "b"]);
    expect(state.timers.map((t) => t.ref)).toEqual(["c"]);
    expect(popDue(setup().state, Infinity)).toBeUndefined();
  });
});

describe("cancelTimers", () => {
  it("drops exactly the timers of one kind and ref, keeping the heap ordered", () => {
    const { ctx, state } = setup();
    for (let i = 0; i < 100; i++) {
      schedule(ctx, state, T0 + ctx.ids.int(50), i % 3 === 0 ? "vtu.settle" : "payout.settle", `r${i % 7}`);
    }
    const kept = state.timers.filter((t) => !(t.kind === "payout.settle" && t.ref === "r1"));
    cancelTimers(state, "payout.settle", "r1");
    expect(state.timers).toHaveLength(kept.length);
    expect(drain(state)).toEqual(kept.sort(byAtThenSeq));
  });

  it("leaves the heap untouched when nothing matches", () => {
    const { ctx, state } = setup();
    schedule(ctx, state, T0 + 1, "payout.settle", "a");
    schedule(ctx, state, T0, "vtu.settle", "a");
    const heap = state.timers;
    const before = [...heap];
    cancelTimers(state, "kyc.approve", "a");
    expect(state.timers).toBe(heap);
    expect(state.timers).toEqual(before);
  });
});
