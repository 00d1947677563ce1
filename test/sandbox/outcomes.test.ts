/**
 * The outcome rules API under /sandbox/v1/outcomes: creating rules (defaults, sim-time created_at,
 * refused targets and outcomes), listing and deleting them per merchant, and a payout rule consumed
 * by `times`. What each target's rules do to its flow is tested with that flow (test/api/).
 */
import { describe, expect, it } from "vitest";
import { at, client, expectInvalid, PAYOUT_ACCOUNT } from "../client.js";
import { expectError, expectLedgerConsistent, harness, makeNuban } from "../helpers.js";

const OTHER_ACCOUNT = makeNuban("058", "087654321");

describe("outcome rules API", () => {
  it("POST answers 201 with the rule; unset match, delay_seconds and times are null; created_at is sim time", async () => {
    const c = client(await harness().merchant());
    await c.advance(90);
    const res = await c.call("POST", "/sandbox/v1/outcomes", { body: { target: "payout", outcome: "failed" } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: expect.any(String),
        target: "payout",
        match: null,
        outcome: "failed",
        delay_seconds: null,
        times: null,
        window_seconds: null,
        queries: null,
        created_at: at(90),
        active_until: null,
      },
    });
    expect(res.body.data.id.length).toBeGreaterThan(0);
  });

  it("POST keeps match, delay_seconds and times when given; each rule gets its own id", async () => {
    const c = client(await harness().merchant());
    const first = await c.rule({ target: "payout", outcome: "processing" });
    await c.advance(30);
    const second = await c.rule({
      target: "vtu",
      match: { phone: "08031234567", network: "MTN" },
      outcome: "processing_fail",
      delay_seconds: 120,
      times: 3,
    });
    expect(second).toEqual({
      id: expect.any(String),
      target: "vtu",
      match: { phone: "08031234567", network: "MTN" },
      outcome: "processing_fail",
      delay_seconds: 120,
      times: 3,
      window_seconds: null,
      queries: null,
      created_at: at(30),
      active_until: null,
    });
    expect(second.id).not.toBe(first.id);
  });

  it.each([
    ["payout", "success"],
    ["vtu", "completed"],
    ["kyc", "failed"],
    ["verify_account", "found"],
    ["card_fund", "success"],
  ])("refuses target %s with outcome %s: 422 VALIDATION_ERROR naming outcome, nothing stored", async (target, outcome) => {
    const c = client(await harness().merchant());
    expectInvalid(await c.call("POST", "/sandbox/v1/outcomes", { body: { target, outcome } }), ["outcome"]);
    expect(await c.rules()).toEqual([]);
  });

  it("refuses an unknown target: 422 VALIDATION_ERROR naming target, nothing stored", async () => {
    const c = client(await harness().merchant());
    expectInvalid(await c.call("POST", "/sandbox/v1/outcomes", { body: { target: "refund", outcome: "failed" } }), ["target"]);
    expect(await c.rules()).toEqual([]);
  });

  it("GET lists the merchant's own rules, oldest first, not another merchant's", async () => {
    const h = harness();
    const a = client(await h.merchant());
    const b = client(await h.merchant());
    const r1 = await a.rule({ target: "payout", outcome: "failed" });
    await a.advance(10);
    const rb = await b.rule({ target: "kyc", outcome: "pending" });
    const r2 = await a.rule({ target: "verify_account", outcome: "not_found", match: { account_number: PAYOUT_ACCOUNT } });
    await a.advance(10);
    const r3 = await a.rule({ target: "vtu", outcome: "success", times: 1 });
    expect(await a.rules()).toEqual([r1, r2, r3]);
    expect((await a.rules()).map((r) => r.created_at)).toEqual([at(0), at(10), at(20)]);
    expect(await b.rules()).toEqual([rb]);
  });

  it("DELETE /outcomes/{id} removes one rule, then 404 for the same id; another merchant cannot delete it", async () => {
    const h = harness();
    const a = client(await h.merchant());
    const b = client(await h.merchant());
    const r1 = await a.rule({ target: "payout", outcome: "failed" });
    const r2 = await a.rule({ target: "payout", outcome: "processing" });
    const r3 = await a.rule({ target: "kyc", outcome: "pending" });
    const rb = await b.rule({ target: "card_fund", outcome: "failed" });
    // B has only one rule; deleting A's third through B's keys finds nothing.
    expect(r3.id).not.toBe(rb.id);
    expectError(await b.call("DELETE", `/sandbox/v1/outcomes/${r3.id}`), 404, "NOT_FOUND");
    expect(await a.rules()).toEqual([r1, r2, r3]);

    const del = await a.call("DELETE", `/sandbox/v1/outcomes/${r2.id}`);
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body.success).toBe(true);
    expect(await a.rules()).toEqual([r1, r3]);
    expectError(await a.call("DELETE", `/sandbox/v1/outcomes/${r2.id}`), 404, "NOT_FOUND");
    expect(await a.rules()).toEqual([r1, r3]);
    expect(await b.rules()).toEqual([rb]);
  });

  it("DELETE /outcomes removes all of the merchant's rules and only theirs", async () => {
    const h = harness();
    const a = client(await h.merchant());
    const b = client(await h.merchant());
    await a.rule({ target: "payout", outcome: "failed" });
    await a.rule({ target: "vtu", outcome: "fail" });
    const rb = await b.rule({ target: "payout", outcome: "completed" });
    const res = await a.call("DELETE", "/sandbox/v1/outcomes");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.success).toBe(true);
    expect(await a.rules()).toEqual([]);
    expect(await b.rules()).toEqual([rb]);
    // Deleting all of nothing is fine too.
    expect((await a.call("DELETE", "/sandbox/v1/outcomes")).status).toBe(200);
  });

  it("a payout rule with times: 2 is consumed by two matching payouts, then disappears; others settle by default", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    const rule = await c.rule({ target: "payout", match: { account_number: PAYOUT_ACCOUNT }, outcome: "failed", times: 2 });

    // A payout that does not match leaves the rule untouched.
    const other = await c.processingPayout({ reference: "other-1", account_number: OTHER_ACCOUNT });
    expect(await c.rules()).toEqual([rule]);

    const first = await c.processingPayout({ reference: "match-1" });
    expect(await c.rules()).toEqual([{ ...rule, times: 1 }]);
    const second = await c.processingPayout({ reference: "match-2" });
    expect(await c.rules()).toEqual([]);
    const third = await c.processingPayout({ reference: "match-3" });
    expect(await c.balance()).toBe(100_000 - 4 * 5_050);

    const moved = await c.advance(3600);
    expect(moved.fired).toBe(4);
    expect(await c.payoutStatus(other.reference)).toMatchObject({ status: "completed", processed_at: at(30), error: null });
    expect(await c.payoutStatus(first.reference)).toMatchObject({ status: "failed", processed_at: at(30), error: expect.any(String) });
    expect((await c.payoutStatus(first.reference)).error!.length).toBeGreaterThan(0);
    expect(await c.payoutStatus(second.reference)).toMatchObject({ status: "failed", processed_at: at(30) });
    expect(await c.payoutStatus(third.reference)).toMatchObject({ status: "completed", processed_at: at(30), error: null });
    // Two completed payouts stay debited, the two failed ones are returned in full.
    expect(await c.balance()).toBe(100_000 - 2 * 5_050);
    const reversals = c.tenant.state.ledger.filter((e) => e.kind === "payout_reversal");
    expect(reversals.map((e) => [e.amount, e.transaction_id])).toEqual([
      [505_000, first.order_no],
      [505_000, second.order_no],
    ]);
    expectLedgerConsistent(c.tenant);
  });
});
