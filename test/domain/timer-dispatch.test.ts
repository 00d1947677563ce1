import { describe, expect, it } from "vitest";
import { approveKyc, createCardholder } from "../../src/domain/cards.js";
import { createCheckout } from "../../src/domain/checkout.js";
import { balanceOf } from "../../src/domain/ledger.js";
import { toMinor } from "../../src/domain/money.js";
import { completePayout, createPayout } from "../../src/domain/payouts.js";
import type { Timer } from "../../src/domain/records.js";
import { addTimelineEntry, runTimelineEntryWhenDue } from "../../src/domain/timeline.js";
import { fireTimer, isDomainTimer } from "../../src/domain/timer-dispatch.js";
import { priceAirtime, purchase, settleVtuNow } from "../../src/domain/vtu.js";
import { payoutRequest, runDue, setup, T0, withAccount } from "./context.js";


describe("fireTimer", () => {
  it("webhook attempts are not the domain's", () => {
    const timer = (kind: Timer["kind"]): Timer => ({ at: 0, seq: 1, kind, merchantId: "m", ref: "r" });
    expect(["payout.settle", "vtu.settle", "kyc.approve", "timeline.run", "webhook.attempt"].map((k) => isDomainTimer(timer(k as Timer["kind"])))).toEqual([
      true,
      true,
      true,
      true,
      false,
    ]);
  });

  it("payout.settle settles the payout at the timer's time", () => {
    const w = setup({ balance: 10_000 });
    const p = createPayout(w.ctx, w.state, payoutRequest());
    expect(runDue(w, T0 + 60_000).map((t) => t.kind)).toEqual(["payout.settle"]);
    expect(p).toMatchObject({ status: "completed", processed_at: T0 + 30_000 });
  });

  it("vtu.settle settles a processing purchase", () => {
    const w = setup({ balance: 10_000 });
    const v = purchase(w.ctx, w.state, priceAirtime({ network: "mtn", phone: "08033333333", amount: toMinor(100), airtime_type: "VTU" }));
    runDue(w, T0 + 60_000);
    expect(v).toMatchObject({ status: "fail", settled_at: T0 + 60_000 });
    expect(balanceOf(w.state)).toBe(toMinor(10_000));
  });

  it("kyc.approve approves the cardholder", () => {
    const w = setup();
    const { cardholder } = createCardholder(w.ctx, w.state, { first_name: "A", last_name: "B", email: "a@b.co" });
    runDue(w, T0 + 119_999);
    expect(cardholder.kyc_status).toBe("PENDING");
    runDue(w, T0 + 120_000);
    expect(cardholder.kyc_status).toBe("APPROVED");
  });

  it("each is a no-op when a forced transition got there first", () => {
    const w = setup({ balance: 10_000 });
    const { ctx, state } = w;
    createPayout(ctx, state, payoutRequest({ reference: "p" }));
    const v = purchase(ctx, state, priceAirtime({ network: "mtn", phone: "08022222222", amount: toMinor(100), airtime_type: "VTU" }));
    createCardholder(ctx, state, { first_name: "A", last_name: "B", email: "a@b.co" });
    // The forced transitions cancel their timers; put them back as if they had already been popped.
    const stale = [...state.timers];
    completePayout(ctx, state, "p");
    settleVtuNow(ctx, state, v.reference, "fail");
    approveKyc(state, 1);
    expect(state.timers).toEqual([]);
    const before = structuredClone(state);
    for (const t of stale) if (isDomainTimer(t)) fireTimer({ ...ctx, now: t.at }, state, t);
    expect(state).toEqual(before);
  });
});

describe("timeline", () => {
  it("runs a scheduled transfer or link payment once, recording ok", () => {
    const w = withAccount();
    const { ctx, state, account } = w;
    const link = createCheckout(ctx, state, { amount: toMinor(500) });
    const first = addTimelineEntry(ctx, state, T0 + 1_000, { kind: "transfer", account_number: account.account_number, amount: toMinor(200), narration: "inv-1" });
    addTimelineEntry(ctx, state, T0 + 2_000, { kind: "pay_link", reference: link.reference });
    expect(first).toEqual({ index: 0, at: T0 + 1_000, action: expect.objectContaining({ kind: "transfer" }), result: null });
    expect(runDue(w, T0 + 5_000).map((t) => [t.kind, t.ref])).toEqual([
      ["timeline.run", "0"],
      ["timeline.run", "1"],
    ]);
    expect(state.timeline.map((e) => e.result)).toEqual(["ok", "ok"]);
    expect(balanceOf(state)).toBe(toMinor(700));
    expect(state.vaPaymentsByReference.get("inv-1")![0]!.created_at).toBe(T0 + 1_000);
    runTimelineEntryWhenDue(ctx, state, 0); // already run: nothing happens again
    runTimelineEntryWhenDue(ctx, state, 9); // no such entry
    expect(balanceOf(state)).toBe(toMinor(700));
  });

  it("records a refusal on the entry instead of throwing", () => {
    const w = setup();
    const link = createCheckout(w.ctx, w.state, { amount: toMinor(500) });
    addTimelineEntry(w.ctx, w.state, T0 + 31 * 60_000, { kind: "pay_link", reference: link.reference });
    addTimelineEntry(w.ctx, w.state, T0, { kind: "transfer", account_number: "1234567890", amount: 100 });
    runDue(w, T0 + 31 * 60_000);
    expect(w.state.timeline.map((e) => e.result)).toEqual([
      `INVALID_STATE: Payment link ${link.reference} is expired; only a pending link can be paid.`,
      "NOT_FOUND: No virtual account 1234567890.",
    ]);
    expect(balanceOf(w.state)).toBe(0);
  });
});
