import { describe, expect, it } from "vitest";
import { schedule, popDue } from "../../src/domain/timers.js";
import { contextOf } from "../../src/engine/tenant.js";
import { emptyState } from "../../src/domain/state.js";
import { at, client } from "../client.js";
import { expectError, harness, START, until } from "../helpers.js";

describe("GET /sandbox/v1/clock", () => {
  it("shows now, mode, speed and pending timers", async () => {
    const c = client(await harness().merchant());
    expect((await c.call("GET", "/sandbox/v1/clock")).body).toEqual({
      success: true,
      data: { now: at(0), mode: "manual", speed: 1, pending_timers: 0 },
    });
    await c.processingPayout({ reference: "p1", amount: 1_000 });
    expect((await c.clock()).pending_timers).toBe(1);
  });
});

describe("POST /sandbox/v1/clock/advance", () => {
  it("accepts { seconds }, { by } and { to } and returns the new time and the timers fired", async () => {
    const c = client(await harness().merchant());
    expect(await c.advance(90)).toMatchObject({ now: at(90), fired: 0 });
    expect((await c.advance("30m")).now).toBe(at(90 + 1_800));
    expect((await c.advance("2h")).now).toBe(at(90 + 1_800 + 7_200));
    expect((await c.advance("1d")).now).toBe(at(90 + 1_800 + 7_200 + 86_400));
    expect((await c.advance("15s")).now).toBe(at(90 + 1_800 + 7_200 + 86_400 + 15));
    const to = at(3 * 86_400);
    expect(await c.advance({ to })).toMatchObject({ now: to, mode: "manual", pending_timers: 0 });
  });

  it("never goes backwards and takes exactly one of seconds, by, to", async () => {
    const c = client(await harness().merchant());
    const tryAdvance = (body: Record<string, unknown>) => c.call("POST", "/sandbox/v1/clock/advance", { body });
    await c.advance(60);
    expect(expectError(await tryAdvance({ to: at(0) }), 422, "VALIDATION_ERROR").errors).toHaveProperty("to");
    expectError(await tryAdvance({}), 422, "VALIDATION_ERROR");
    expectError(await tryAdvance({ seconds: 5, by: "1m" }), 422, "VALIDATION_ERROR");
    expectError(await tryAdvance({ seconds: -5 }), 422, "VALIDATION_ERROR");
    expectError(await tryAdvance({ by: "5 minutes" }), 422, "VALIDATION_ERROR");
    expect(c.tenant.clock.now()).toBe(START + 60_000);
  });

  it("fires due timers in time order, each at its own time, including timers they schedule", async () => {
    const c = client(await harness().merchant({ delays: { payout_settlement_seconds: 60 } }));
    await c.processingPayout({ reference: "first", amount: 1_000 });
    await c.advance(20);
    await c.processingPayout({ reference: "second", amount: 1_000 }); // due at +80 s
    expect(await c.advance("1h")).toMatchObject({ now: at(20 + 3_600), fired: 2, pending_timers: 0 });
    expect(await c.payoutStatus("first")).toMatchObject({ status: "completed", processed_at: at(60) });
    expect(await c.payoutStatus("second")).toMatchObject({ status: "completed", processed_at: at(80) });
  });

  it("a timer scheduled by a firing timer runs in the same advance when it falls inside the window", async () => {
    // Approving a held payout schedules its settlement; KYC approval at +120 s; both inside one advance.
    const c = client(await harness().merchant({ limits: { payout_review_threshold: 500 }, delays: { payout_settlement_seconds: 30 } }));
    expect((await c.payout({ reference: "held", amount: 600 })).body.data.status).toBe("pending_approval");
    await c.call("POST", "/sandbox/v1/payouts/held/approve");
    expect((await c.advance(29)).fired).toBe(0);
    expect((await c.advance(1)).fired).toBe(1);
    expect((await c.payoutStatus("held")).status).toBe("completed");
  });

  it("timer heap: ties keep scheduling order; pops in (at, seq) order", () => {
    const h = harness();
    const tenant = h.registry.get("mch_demo")!;
    const state = emptyState();
    const ctx = contextOf(tenant);
    for (const [due, ref] of [[30, "c"], [10, "a"], [30, "d"], [20, "b"], [10, "a2"], [5, "z"]] as const) {
      schedule(ctx, state, due, "payout.settle", ref);
    }
    const order: string[] = [];
    for (let t = popDue(state, 25); t; t = popDue(state, 25)) order.push(t.ref);
    expect(order).toEqual(["z", "a", "a2", "b"]);
    expect(state.timers.map((t) => t.ref).sort()).toEqual(["c", "d"]);
    expect(state.timers[0]).toMatchObject({ merchantId: "mch_demo", kind: "payout.settle" });
  });

  it("concurrent advances of one merchant are serialised and fire each timer once", async () => {
    const c = client(await harness().merchant({ delays: { payout_settlement_seconds: 10 } }));
    for (let i = 0; i < 5; i++) await c.processingPayout({ reference: `c${i}`, amount: 1_000 });
    const replies = await Promise.all([c.advance(5), c.advance(5), c.advance(5)]);
    expect(replies.map((r) => r.fired).reduce((a, b) => a + b, 0)).toBe(5);
    expect(c.tenant.clock.now()).toBe(START + 15_000);
    expect(c.tenant.state.ledger.filter((e) => e.kind === "payout_reversal")).toHaveLength(0);
  });

  it("advancing merchant A's clock does not move merchant B's or fire B's timers", async () => {
    const h = harness();
    const a = client(await h.merchant());
    const b = client(await h.merchant());
    await b.processingPayout({ reference: "b1", amount: 1_000 });
    await a.advance("1d");
    expect(b.tenant.clock.now()).toBe(START);
    expect((await b.payoutStatus("b1")).status).toBe("processing");
    expect((await b.clock()).pending_timers).toBe(1);
  });

  it("100,000 pending timers are advanced in one call", async () => {
    const c = client(await harness().merchant());
    const ctx = contextOf(c.tenant);
    for (let i = 0; i < 100_000; i++) schedule(ctx, c.tenant.state, START + 1 + (i % 997) * 1000, "kyc.approve", String(i));
    expect(await c.advance("1h")).toMatchObject({ fired: 100_000, pending_timers: 0 });
  });
});

describe("realtime mode", () => {
  it("sim time follows the (injected) wall clock scaled by speed", async () => {
    const h = harness();
    const c = client(await h.merchant({ clock: { mode: "realtime", speed: 120, now: at(0) } }));
    h.wall.now += 500; // half a wall second at 120x is one sim minute
    expect(await c.clock()).toMatchObject({ now: at(60), mode: "realtime", speed: 120 });
  });

  it("a request first catches up on timers already due", async () => {
    const h = harness();
    const c = client(await h.merchant({ clock: { mode: "realtime", now: at(0) }, delays: { payout_settlement_seconds: 30 } }));
    await c.processingPayout({ reference: "rt", amount: 1_000 });
    h.wall.now += 31_000; // no Node timer can fire: the wall clock here is a number the test moves
    expect(await c.payoutStatus("rt")).toMatchObject({ status: "completed", processed_at: at(30) });
  });

  it("timers fire by themselves, with no request, on the real wall clock (bounded poll)", async () => {
    const h = harness({ realWall: true });
    const c = client(await h.merchant({ clock: { mode: "realtime", speed: 600 }, delays: { payout_settlement_seconds: 60 } }));
    await c.processingPayout({ reference: "auto", amount: 1_000 }); // due in 60 sim seconds = 100 wall ms at 600x
    await until(() => c.tenant.state.payouts.get("auto")!.status !== "processing", "the payout to settle by itself");
    expect(c.tenant.state.payouts.get("auto")!.status).toBe("completed");
    expect(c.tenant.state.timers).toHaveLength(0);
  });

  it("switching a merchant to manual stops its timers from firing by themselves", async () => {
    const h = harness();
    const c = client(await h.merchant({ clock: { mode: "realtime", now: at(0) } }));
    await c.processingPayout({ reference: "sw", amount: 1_000 });
    await c.call("PATCH", "/sandbox/v1/merchant", { body: { clock: { mode: "manual" } } });
    h.wall.now += 3_600_000;
    expect((await c.payoutStatus("sw")).status).toBe("processing");
    expect((await c.advance(30)).fired).toBe(1);
  });
});
