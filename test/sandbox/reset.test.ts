/**
 * POST /sandbox/v1/reset: it empties one merchant's state (accounts, payments, links, payouts, cards,
 * rules, pending timers) and keeps its keys, config and clock; an optional opening balance; pending
 * work never lands after it; other merchants are untouched.
 */
import { describe, expect, it } from "vitest";
import { at, client, type TestClient } from "../client.js";
import { expectError, expectLedgerConsistent, harness } from "../helpers.js";

const reset = (c: TestClient, body?: unknown) => c.call("POST", "/sandbox/v1/reset", body === undefined ? {} : { body });
const merchantOf = async (c: TestClient) => {
  const res = await c.call("GET", "/sandbox/v1/merchant");
  expect(res.status).toBe(200);
  return res.body.data;
};

/** Gives the merchant one of everything: a virtual account with a payment, a payment link, a pending payout, a funded card, rules. */
async function populate(c: TestClient) {
  const va = await c.virtualAccount({
    customer_type: "individual",
    email: "ada.obi@example.com",
    reference: "CUST-001",
    first_name: "Ada",
    last_name: "Obi",
    bvn: "22345678901",
  });
  await c.transferIn(va.account_number, 2_000, { narration: "rent-march" });

  const link = await c.checkout({ amount: 1_500 });

  const card = await c.fundedCard(10);

  // A second cardholder still waiting for KYC: a pending timer.
  await c.cardholder({ first_name: "Bola", last_name: "Ade", email: "bola@example.com" }, { approved: false });

  await c.rule({ target: "vtu", outcome: "fail" });
  await c.rule({ target: "kyc", outcome: "approved", delay_seconds: 600 });

  const payout = await c.processingPayout({ reference: "before-reset" });
  expectLedgerConsistent(c.tenant);
  return { accountNumber: va.account_number, link, holderId: card.cardholder_id, cardId: card.card_id, payout };
}

describe("POST /sandbox/v1/reset", () => {
  it("empties the merchant's state and keeps keys, config and the clock", async () => {
    const c = client(
      await harness().merchant({
        wallet_balance: 50_000,
        business_name: "Zenith Foods",
        limits: { payout_max: 20_000 },
      }),
    );
    await c.advance(5);
    const made = await populate(c);
    await c.advance(10);
    const configBefore = await merchantOf(c);
    const clockBefore = await c.clock();
    expect(clockBefore.now).toBe(at(15));
    expect(clockBefore.pending_timers).toBeGreaterThanOrEqual(2);
    expect(await c.balance()).toBeGreaterThan(0);

    const res = await reset(c);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ success: true, data: { ...configBefore, wallet_balance: 0 } });

    // The same keys still work, and nothing of the old state is left.
    expect(await c.balance()).toBe(0);
    expect(await c.ledger()).toEqual([]);
    expect(await c.virtualAccounts()).toEqual([]);
    expectError(await c.call("GET", `/api/v1/virtual-account/${made.accountNumber}`), 404, "NOT_FOUND");
    expectError(await c.call("GET", "/api/v1/transaction/status?reference=rent-march"), 404, "NOT_FOUND");
    expectError(await c.call("GET", `/api/v1/checkout/status?reference=${made.link.reference}`), 404, "NOT_FOUND");
    expectError(await c.call("GET", `/api/v1/payout/status?reference=${made.payout.reference}`), 404, "NOT_FOUND");
    const cards = await c.call("GET", "/api/v1/virtual-cards");
    expect(cards.status).toBe(200);
    expect(cards.body.data).toEqual([]);
    expectError(await c.call("GET", `/api/v1/virtual-cards/${made.cardId}`), 404, "NOT_FOUND");
    expectError(await c.call("GET", `/api/v1/virtual-cards/cardholders/${made.holderId}`), 404, "NOT_FOUND");
    expect(await c.rules()).toEqual([]);

    // The clock is where it was, with nothing pending.
    expect(await c.clock()).toEqual({ ...clockBefore, now: at(15), pending_timers: 0 });
    // Config unchanged.
    expect(await merchantOf(c)).toEqual({ ...configBefore, wallet_balance: 0 });
    expectLedgerConsistent(c.tenant);
  });

  it("keeps config working after reset: business name, limits, and a fresh payout settles on time", async () => {
    const c = client(await harness().merchant({ wallet_balance: 50_000, business_name: "Zenith Foods", limits: { payout_max: 20_000 } }));
    await populate(c);
    await c.advance(100);
    expect((await reset(c, { wallet_balance: 100_000 })).status).toBe(200);

    const link = await c.checkout({ amount: 100 });
    expect(await c.checkoutStatus(link.reference)).toMatchObject({ account_name: "Zenith Foods Checkout", created_at: at(100) });
    const before = c.tenant.state.ledger.length;
    expectError(await c.payout({ amount: 20_000.01 }), 422, "AMOUNT_ABOVE_MAXIMUM");
    expect(c.tenant.state.ledger.length).toBe(before);
    expect(await c.balance()).toBe(100_000);
    // The old reference is free again, and the new payout settles after the configured delay.
    const payout = await c.processingPayout({ reference: "before-reset", amount: 20_000 });
    await c.advance(3600);
    expect(await c.payoutStatus(payout.reference)).toMatchObject({ status: "completed", created_at: at(100), processed_at: at(130) });
    expect(await c.balance()).toBe(100_000 - 20_200);
    expectLedgerConsistent(c.tenant);
  });

  it("with { wallet_balance: 5000 } leaves a balance of 5000 as the only ledger entry", async () => {
    const c = client(await harness().merchant({ wallet_balance: 80_000 }));
    await populate(c);
    const res = await reset(c, { wallet_balance: 5000 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.wallet_balance).toBe(5000);
    expect(await c.balance()).toBe(5000);
    const ledger = await c.ledger();
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ type: "credit", amount: 5000, balance_after: 5000, created_at: at(0) });
    expect((await c.clock()).pending_timers).toBe(0);
    expectLedgerConsistent(c.tenant);
  });

  it("a payout due to settle before the reset never settles afterwards", async () => {
    const c = client(await harness().merchant({ wallet_balance: 50_000 }));
    const payout = await c.processingPayout({ reference: "due-soon" });
    await c.advance(10);
    expect((await c.clock()).pending_timers).toBe(1);
    expect((await reset(c, { wallet_balance: 5000 })).status).toBe(200);
    const moved = await c.advance(3600);
    expect(moved).toMatchObject({ fired: 0, pending_timers: 0, now: at(3610) });
    expectError(await c.call("GET", `/api/v1/payout/status?reference=${payout.reference}`), 404, "NOT_FOUND");
    expect(await c.balance()).toBe(5000);
    expect(c.tenant.state.ledger).toHaveLength(1);
    expect(c.tenant.state.ledger.some((e) => e.kind === "payout_reversal" || e.kind === "payout")).toBe(false);
    expectLedgerConsistent(c.tenant);
  });

  it("resetting merchant A leaves merchant B unchanged, B's payout still settling on time", async () => {
    const h = harness();
    const a = client(await h.merchant({ wallet_balance: 50_000 }));
    const b = client(await h.merchant({ wallet_balance: 70_000 }));
    await populate(a);
    const made = await populate(b);
    const bConfig = await merchantOf(b);
    const bRules = await b.rules();
    const bLedger = await b.ledger();
    const bClock = await b.clock();
    const bBalance = await b.balance();

    expect((await reset(a)).status).toBe(200);
    expect(await a.balance()).toBe(0);

    expect(await merchantOf(b)).toEqual(bConfig);
    expect(await b.rules()).toEqual(bRules);
    expect(await b.ledger()).toEqual(bLedger);
    expect(await b.clock()).toEqual(bClock);
    expect(await b.balance()).toBe(bBalance);
    expect(await b.virtualAccounts()).toHaveLength(1);
    await b.checkoutStatus(made.link.reference);
    await b.card(made.cardId);

    await b.advance(3600);
    expect(await b.payoutStatus(made.payout.reference)).toMatchObject({ status: "completed", processed_at: at(30) });
    expect(await b.balance()).toBe(bBalance);
    expectLedgerConsistent(b.tenant);
    expectLedgerConsistent(a.tenant);
  });
});
