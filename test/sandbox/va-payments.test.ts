/**
 * Transfers into virtual accounts through the control API: at once, or pending
 * or processing to clear or fail on the merchant's clock, or now with the clear and fail levers; the
 * transaction status record shows each state.
 */
import { describe, expect, it } from "vitest";
import { at, client, expectInvalid, type TestClient } from "../client.js";
import { expectError, expectLedgerConsistent, harness } from "../helpers.js";

async function merchantWithAccount(settings: Record<string, unknown> = { wallet_balance: 0 }) {
  const c = client(await harness().merchant(settings));
  return { c, account: (await c.virtualAccount()).account_number };
}

const statusOf = async (c: TestClient, reference: string) => {
  const res = await c.call("GET", `/api/v1/transaction/status?reference=${encodeURIComponent(reference)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const lever = (c: TestClient, transactionId: string, action: "clear" | "fail") =>
  c.call("POST", `/sandbox/v1/virtual-accounts/payments/${encodeURIComponent(transactionId)}/${action}`);

describe("POST /sandbox/v1/virtual-accounts/{account_number}/transfers with a status", () => {
  it("arrives pending: nothing credited, no webhook; after 60 s it clears as an immediate transfer does", async () => {
    const { c, account } = await merchantWithAccount();
    const p = await c.transferIn(account, 2_500, { narration: "Order 1003", status: "pending" });
    expect(p).toMatchObject({ reference: "Order 1003", amount: 2_500, status: "pending", created_at: at(0) });
    expect(await statusOf(c, "Order 1003")).toEqual(p);
    expect(await c.balance()).toBe(0);
    expect(await c.events()).toEqual([]);
    expect((await c.clock()).pending_timers).toBe(1);

    await c.advance(59);
    expect((await statusOf(c, "Order 1003")).status).toBe("pending");
    await c.advance(1);
    expect(await statusOf(c, "Order 1003")).toEqual({ ...p, status: "success" });
    expect(await c.balance()).toBe(2_500);
    const ledger = await c.ledger();
    expect(ledger.at(-1)).toMatchObject({ kind: "va_payment", type: "credit", amount: 2_500, transaction_id: p.transaction_id, created_at: at(60) });
    const [event] = await c.events("payment.received");
    expect(event).toMatchObject({
      transaction_id: p.transaction_id,
      created_at: at(60),
      data: { reference: "Order 1003", amount: 2_500, virtual_account: account, transaction_id: p.transaction_id, status: "successful" },
    });
    expectLedgerConsistent(c.tenant);
  });

  it("arrives processing and fails at settle_after_seconds: never credited, no webhook", async () => {
    const { c, account } = await merchantWithAccount();
    const p = await c.transferIn(account, 900, { narration: "Order 1004", status: "processing", outcome: "failed", settle_after_seconds: 600 });
    expect(p.status).toBe("processing");
    await c.advance("9m");
    expect((await statusOf(c, "Order 1004")).status).toBe("processing");
    await c.advance("1m");
    expect((await statusOf(c, "Order 1004")).status).toBe("failed");
    await c.advance("1d");
    expect(await c.balance()).toBe(0);
    expect(await c.ledger()).toEqual([]);
    expect(await c.events()).toEqual([]);
    expect((await c.clock()).pending_timers).toBe(0);
  });

  it("with no status, clears at once (the default, as before)", async () => {
    const { c, account } = await merchantWithAccount();
    const p = await c.transferIn(account, 100);
    expect(p.status).toBe("success");
    expect(await c.balance()).toBe(100);
    expect((await c.clock()).pending_timers).toBe(0);
  });

  it("refuses an outcome or a delay for a transfer that clears at once, and bad arrival fields, changing nothing", async () => {
    const { c, account } = await merchantWithAccount();
    const post = (body: Record<string, unknown>) => c.call("POST", `/sandbox/v1/virtual-accounts/${account}/transfers`, { body: { amount: 100, ...body } });
    expectInvalid(await post({ outcome: "failed" }), ["outcome"]);
    expectInvalid(await post({ status: "success", settle_after_seconds: 5 }), ["settle_after_seconds"]);
    expectInvalid(await post({ status: "cleared" }), ["status"]);
    expectInvalid(await post({ status: "pending", outcome: "reversed" }), ["outcome"]);
    expectInvalid(await post({ status: "pending", settle_after_seconds: -1 }), ["settle_after_seconds"]);
    expectInvalid(await post({ status: "pending", settle_after_seconds: 1.5 }), ["settle_after_seconds"]);
    expectInvalid(await post({ status: "pending", settle_after_seconds: 365 * 86_400 + 1 }), ["settle_after_seconds"]);
    expect(c.tenant.state.vaPayments.size).toBe(0);
    expect((await c.clock()).pending_timers).toBe(0);
    expect((await post({ status: "pending", settle_after_seconds: 365 * 86_400 })).status).toBe(201);
  });
});

describe("POST /sandbox/v1/virtual-accounts/payments/{transaction_id}/clear and /fail", () => {
  it("clear: credits now, sends payment.received, and the settlement timer no longer fires", async () => {
    const { c, account } = await merchantWithAccount();
    const p = await c.transferIn(account, 2_500, { narration: "Order 1003", status: "pending", outcome: "failed", settle_after_seconds: 600 });
    await c.advance(30);
    const res = await lever(c, p.transaction_id, "clear");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { ...p, status: "success" } });
    expect(await c.balance()).toBe(2_500);
    expect((await c.events("payment.received")).map((e) => [e.transaction_id, e.created_at])).toEqual([[p.transaction_id, at(30)]]);
    expect((await c.clock()).pending_timers).toBe(0);
    await c.advance("1h");
    expect((await statusOf(c, "Order 1003")).status).toBe("success");
    expect(await c.balance()).toBe(2_500);
    expectLedgerConsistent(c.tenant);
  });

  it("fail: never credited, no webhook; the timer no longer fires", async () => {
    const { c, account } = await merchantWithAccount();
    const p = await c.transferIn(account, 2_500, { narration: "Order 1003", status: "processing" });
    const res = await lever(c, p.transaction_id, "fail");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...p, status: "failed" });
    await c.advance("1h");
    expect((await statusOf(c, "Order 1003")).status).toBe("failed");
    expect(await c.balance()).toBe(0);
    expect(await c.events()).toEqual([]);
  });

  it("409 INVALID_STATE for a payment that has ended; 404 for an unknown id or another merchant's", async () => {
    const h = harness();
    const a = client(await h.merchant({ wallet_balance: 0 }));
    const b = client(await h.merchant({ wallet_balance: 0 }));
    const account = (await a.virtualAccount()).account_number;
    const done = await a.transferIn(account, 100);
    const pending = await a.transferIn(account, 100, { status: "pending" });
    for (const action of ["clear", "fail"] as const) {
      const body = expectError(await lever(a, done.transaction_id, action), 409, "INVALID_STATE");
      expect(body.message).toBe(`Payment ${done.transaction_id} is success; only a pending or processing payment can be ${action === "clear" ? "cleared" : "failed"}.`);
      expectError(await lever(a, "TXN_0000000000000000", action), 404, "NOT_FOUND");
      expectError(await lever(b, pending.transaction_id, action), 404, "NOT_FOUND");
    }
    expect((await lever(a, pending.transaction_id, "fail")).status).toBe(200);
    expectError(await lever(a, pending.transaction_id, "clear"), 409, "INVALID_STATE");
    expect(await a.balance()).toBe(100);
  });

  it("clear refuses a credit past the wallet's ceiling with 422 BALANCE_LIMIT_EXCEEDED, changing nothing", async () => {
    const { c, account } = await merchantWithAccount({ wallet_balance: 100_000_000_000 });
    const p = await c.transferIn(account, 1, { status: "pending" });
    for (let i = 0; i < 99; i++) await c.fund(100_000_000_000); // the ceiling: NGN 10,000,000,000,000
    expectError(await lever(c, p.transaction_id, "clear"), 422, "BALANCE_LIMIT_EXCEEDED");
    expect((await statusOf(c, p.reference)).status).toBe("pending");
    expect((await c.clock()).pending_timers).toBe(1);
    await c.advance(60);
    expect((await statusOf(c, p.reference)).status).toBe("failed"); // the timer has no one to refuse: returned to the payer
  });
});

describe("pending payments in snapshots", () => {
  it("a pending payment and its timer survive GET and PUT /sandbox/v1/snapshot, and clear on the restored clock", async () => {
    const { c, account } = await merchantWithAccount();
    const p = await c.transferIn(account, 2_500, { narration: "Order 1003", status: "pending", settle_after_seconds: 120 });
    const snapshot = await c.snapshot();
    expect(snapshot.state.va_payments).toEqual([expect.objectContaining({ transaction_id: p.transaction_id, status: "pending", plan: { outcome: "success", delay_ms: 120_000 } })]);
    expect(snapshot.state.timers).toEqual([expect.objectContaining({ kind: "va_payment.settle", ref: p.transaction_id })]);

    const other = client(await harness().merchant({ wallet_balance: 0 }));
    expect((await other.call("PUT", "/sandbox/v1/snapshot", { body: snapshot })).status).toBe(200);
    expect((await statusOf(other, "Order 1003")).status).toBe("pending");
    await other.advance("2m");
    expect((await statusOf(other, "Order 1003")).status).toBe("success");
    expect(await other.balance()).toBe(2_500);
  });
});
