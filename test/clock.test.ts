import { describe, expect, it } from "vitest";
import { schedule, popDue } from "../src/domain/timers.js";
import { contextOf } from "../src/engine/tenant.js";
import { emptyState } from "../src/domain/state.js";
import { expectError, harness, makeNuban, START, type Merchant } from "./helpers.js";

const iso = (ms: number) => new Date(ms).toISOString();
const advance = (m: Merchant, body: Record<string, unknown>) => m.call("POST", "/sandbox/v1/clock/advance", { body });
const payout = (m: Merchant, reference: string, amount = 1_000) =>
  m.call("POST", "/api/v1/payout/transfer", {
    body: { amount, reference, bank_code: "058", account_number: makeNuban("058", "100200300"), account_name: "EZE NGOZI", bank_name: "GTBank" },
  });

describe("GET /sandbox/v1/clock", () => {
  it("shows now, mode, speed and pending timers", async () => {
    const m = await harness().merchant();
    expect((await m.call("GET", "/sandbox/v1/clock")).body).toEqual({
      success: true,
      data: { now: iso(START), mode: "manual", speed: 1, pending_timers: 0 },
    });
    await payout(m, "p1");
    expect((await m.call("GET", "/sandbox/v1/clock")).body.data.pending_timers).toBe(1);
  });
});

describe("POST /sandbox/v1/clock/advance", () => {
  it("accepts { seconds }, { by } and { to } and returns the new time and the timers fired", async () => {
    const m = await harness().merchant();
    expect((await advance(m, { seconds: 90 })).body.data).toMatchObject({ now: iso(START + 90_000), fired: 0 });
    expect((await advance(m, { by: "30m" })).body.data.now).toBe(iso(START + 90_000 + 1_800_000));
    expect((await advance(m, { by: "2h" })).body.data.now).toBe(iso(START + 90_000 + 1_800_000 + 7_200_000));
    expect((await advance(m, { by: "1d" })).body.data.now).toBe(iso(START + 90_000 + 1_800_000 + 7_200_000 + 86_400_000));
    expect((await advance(m, { by: "15s" })).body.data.now).toBe(iso(START + 90_000 + 1_800_000 + 7_200_000 + 86_400_000 + 15_000));
    const to = iso(START + 3 * 86_400_000);
    expect((await advance(m, { to })).body.data).toMatchObject({ now: to, mode: "manual", pending_timers: 0 });
  });

  it("never goes backwards and takes exactly one of seconds, by, to", async () => {
    const m = await harness().merchant();
    await advance(m, { seconds: 60 });
    expect(expectError(await advance(m, { to: iso(START) }), 422, "VALIDATION_ERROR").errors).toHaveProperty("to");
    expectError(await advance(m, {}), 422, "VALIDATION_ERROR");
    expectError(await advance(m, { seconds: 5, by: "1m" }), 422, "VALIDATION_ERROR");
    expectError(await advance(m, { seconds: -5 }), 422, "VALIDATION_ERROR");
    expectError(await advance(m, { by: "5 minutes" }), 422, "VALIDATION_ERROR");
    expect(m.tenant.clock.now()).toBe(START + 60_000);
  });

  it("fires due timers in time order, each at its own time, including timers they schedule", async () => {
    const h = harness();
    const m = await h.merchant({ delays: { payout_settlement_seconds: 60 } });
    await payout(m, "first");
    await advance(m, { seconds: 20 });
    await payout(m, "second"); // due at +80 s
    const res = await advance(m, { by: "1h" });
    expect(res.body.data).toMatchObject({ now: iso(START + 20_000 + 3_600_000), fired: 2, pending_timers: 0 });
    const first = (await m.call("GET", "/api/v1/payout/status?reference=first")).body.data;
    const second = (await m.call("GET", "/api/v1/payout/status?reference=second")).body.data;
    expect(first).toMatchObject({ status: "completed", processed_at: iso(START + 60_000) });
    expect(second).toMatchObject({ status: "completed", processed_at: iso(START + 80_000) });
  });

  it("a timer scheduled by a firing timer runs in the same advance when it falls inside the window", async () => {
    // Approving a held payout schedules its settlement; KYC approval at +120 s; both inside one advance.
    const m = await harness().merchant({ limits: { payout_review_threshold: 500 }, delays: { payout_settlement_seconds: 30 } });
    await payout(m, "held", 600);
    await m.call("POST", "/sandbox/v1/payouts/held/approve");
    const res = await advance(m, { seconds: 29 });
    expect(res.body.data.fired).toBe(0);
    expect((await advance(m, { seconds: 1 })).body.data.fired).toBe(1);
    expect((await m.call("GET", "/api/v1/payout/status?reference=held")).body.data.status).toBe("completed");
  });

  it("timer heap: ties keep scheduling order; pops in (at, seq) order", () => {
    const h = harness();
    const tenant = h.registry.get("mch_demo")!;
    const state = emptyState();
    const ctx = contextOf(tenant);
    for (const [at, ref] of [[30, "c"], [10, "a"], [30, "d"], [20, "b"], [10, "a2"], [5, "z"]] as const) {
      schedule(ctx, state, at, "payout.settle", ref);
    }
    const order: string[] = [];
    for (let t = popDue(state, 25); t; t = popDue(state, 25)) order.push(t.ref);
    expect(order).toEqual(["z", "a", "a2", "b"]);
    expect(state.timers.map((t) => t.ref).sort()).toEqual(["c", "d"]);
    expect(state.timers[0]).toMatchObject({ merchantId: "mch_demo", kind: "payout.settle" });
  });

  it("concurrent advances of one merchant are serialised and fire each timer once", async () => {
    const m = await harness().merchant({ delays: { payout_settlement_seconds: 10 } });
    for (let i = 0; i < 5; i++) await payout(m, `c${i}`);
    const replies = await Promise.all([advance(m, { seconds: 5 }), advance(m, { seconds: 5 }), advance(m, { seconds: 5 })]);
    expect(replies.map((r) => r.body.data.fired).reduce((a, b) => a + b, 0)).toBe(5);
    expect(m.tenant.clock.now()).toBe(START + 15_000);
    expect(m.tenant.state.ledger.filter((e) => e.kind === "payout_reversal")).toHaveLength(0);
  });

  it("advancing merchant A's clock does not move merchant B's or fire B's timers", async () => {
    const h = harness();
    const a = await h.merchant();
    const b = await h.merchant();
    await payout(b, "b1");
    await advance(a, { by: "1d" });
    expect(b.tenant.clock.now()).toBe(START);
    expect((await b.call("GET", "/api/v1/payout/status?reference=b1")).body.data.status).toBe("processing");
    expect((await b.call("GET", "/sandbox/v1/clock")).body.data.pending_timers).toBe(1);
  });

  it("100,000 pending timers are advanced in one call", async () => {
    const h = harness();
    const m = await h.merchant();
    const ctx = contextOf(m.tenant);
    for (let i = 0; i < 100_000; i++) schedule(ctx, m.tenant.state, START + 1 + (i % 997) * 1000, "kyc.approve", String(i));
    const res = await advance(m, { by: "1h" });
    expect(res.body.data).toMatchObject({ fired: 100_000, pending_timers: 0 });
  });
});

describe("realtime mode", () => {
  it("sim time follows the (injected) wall clock scaled by speed", async () => {
    const h = harness();
    const m = await h.merchant({ clock: { mode: "realtime", speed: 120, now: iso(START) } });
    h.wall.now += 500; // half a wall second at 120x is one sim minute
    expect((await m.call("GET", "/sandbox/v1/clock")).body.data).toMatchObject({ now: iso(START + 60_000), mode: "realtime", speed: 120 });
  });

  it("a request first catches up on timers already due", async () => {
    const h = harness();
    const m = await h.merchant({ clock: { mode: "realtime", now: iso(START) }, delays: { payout_settlement_seconds: 30 } });
    await payout(m, "rt");
    h.wall.now += 31_000; // no Node timer can fire: the wall clock here is a number the test moves
    const status = (await m.call("GET", "/api/v1/payout/status?reference=rt")).body.data;
    expect(status).toMatchObject({ status: "completed", processed_at: iso(START + 30_000) });
  });

  it("timers fire by themselves, with no request, on the real wall clock (bounded poll)", async () => {
    const h = harness({ realWall: true });
    const m = await h.merchant({ clock: { mode: "realtime", speed: 600 }, delays: { payout_settlement_seconds: 60 } });
    await payout(m, "auto"); // due in 60 sim seconds = 100 wall ms at 600x
    const deadline = Date.now() + 5_000;
    while (m.tenant.state.payouts.get("auto")!.status === "processing" && Date.now() < deadline) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(m.tenant.state.payouts.get("auto")!.status).toBe("completed");
    expect(m.tenant.state.timers).toHaveLength(0);
  });

  it("switching a merchant to manual stops its timers from firing by themselves", async () => {
    const h = harness();
    const m = await h.merchant({ clock: { mode: "realtime", now: iso(START) } });
    await payout(m, "sw");
    await m.call("PATCH", "/sandbox/v1/merchant", { body: { clock: { mode: "manual" } } });
    h.wall.now += 3_600_000;
    expect((await m.call("GET", "/api/v1/payout/status?reference=sw")).body.data.status).toBe("processing");
    expect((await advance(m, { seconds: 30 })).body.data.fired).toBe(1);
  });
});
