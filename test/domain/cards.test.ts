import { describe, expect, it } from "vitest";
import { MAX_BALANCE_MINOR } from "../../src/domain/bounds.js";
import {
  approveKyc,
  approveKycWhenDue,
  cardTransactionView,
  cardView,
  cardholderView,
  createCardholder,
  fundCard,
  fundsMovedView,
  issueCard,
  setCardStatus,
  spendCard,
  terminateCard,
  unloadCard,
  usdToKobo,
} from "../../src/domain/cards.js";
import { balanceOf } from "../../src/domain/ledger.js";
import { toMinor } from "../../src/domain/money.js";
import { addRule } from "../../src/domain/outcomes.js";
import { isLuhnValid } from "../../src/domain/pan.js";
import type { TenantState } from "../../src/domain/state.js";
import { expectRefusal, makeContext, setup, T0, type SetupOptions, type TestContext } from "./context.js";

const holder = { first_name: "Ada", last_name: "Okafor", email: "Ada@Example.com" };

/** An approved cardholder with one active VISA card (id 1). */
function withCard(opts: SetupOptions = {}) {
  const world = setup({ balance: 1_000_000, ...opts });
  const { cardholder } = createCardholder(world.ctx, world.state, holder);
  approveKyc(world.state, cardholder.cardholder_id);
  const card = issueCard(world.ctx, world.state, { cardholder_id: cardholder.cardholder_id, brand: "VISA", label: "Ads" });
  return { ...world, card };
}

const fundCardUsd = (w: { ctx: TestContext; state: TenantState }, usd: number) => fundCard(w.ctx, w.state, 1, toMinor(usd));

describe("usdToKobo", () => {
  const atRate = (usd_ngn_rate: number) => makeContext({ settings: { usd_ngn_rate } });

  it("is exact at a whole rate", () => {
    const ctx = atRate(1_600);
    expect(usdToKobo(ctx, 100, "charge")).toBe(160_000);
    expect(usdToKobo(ctx, 100, "credit")).toBe(160_000);
  });

  it("charges round up and credits round down at a 4-decimal rate", () => {
    const ctx = atRate(1_234.5678);
    expect(usdToKobo(ctx, 1, "charge")).toBe(1_235); // 1,234.5678 kobo
    expect(usdToKobo(ctx, 1, "credit")).toBe(1_234);
    expect(usdToKobo(ctx, 10_000, "charge")).toBe(12_345_678); // exact: no rounding either way
    expect(usdToKobo(ctx, 10_000, "credit")).toBe(12_345_678);
    expect(usdToKobo(atRate(0.0001), 1, "charge")).toBe(1);
    expect(usdToKobo(atRate(0.0001), 1, "credit")).toBe(0);
    expect(usdToKobo(atRate(99_999.9999), 1, "charge")).toBe(100_000);
    expect(usdToKobo(atRate(99_999.9999), 1, "credit")).toBe(99_999);
  });

  it("never creates a kobo over fund and unload round trips", () => {
    const w = withCard({ settings: { usd_ngn_rate: 1_234.5678, card_funding_fee_usd: 0 } });
    const start = balanceOf(w.state);
    for (let i = 0; i < 20; i++) {
      fundCard(w.ctx, w.state, 1, 1_001);
      unloadCard(w.ctx, w.state, 1, 1_001);
    }
    expect(balanceOf(w.state)).toBe(start - 20 * (usdToKobo(w.ctx, 1_001, "charge") - usdToKobo(w.ctx, 1_001, "credit")));
    expect(balanceOf(w.state)).toBeLessThan(start);
  });
});

describe("cardholders and KYC", () => {
  it("creates a PENDING cardholder with an approval timer at the KYC delay; the same email (any case) returns it", () => {
    const { ctx, state } = setup();
    const first = createCardholder(ctx, state, { ...holder, phone: "08031234567" });
    expect(first).toEqual({
      created: true,
      cardholder: { cardholder_id: 1, first_name: "Ada", last_name: "Okafor", full_name: "Ada Okafor", email: "Ada@Example.com", phone: "08031234567", kyc_status: "PENDING", created_at: T0 },
    });
    expect(state.timers).toEqual([{ at: T0 + 120_000, seq: 1, kind: "kyc.approve", merchantId: ctx.config.merchant_id, ref: "1" }]);
    const again = createCardholder(ctx, state, { ...holder, email: "ada@example.COM", first_name: "Other" });
    expect(again.created).toBe(false);
    expect(again.cardholder).toBe(first.cardholder);
    expect(state.cardholders.size).toBe(1);
  });

  it("plans KYC: pending+ emails and a `pending` rule never auto-approve; an `approved` rule sets the delay", () => {
    const { ctx, state } = setup();
    createCardholder(ctx, state, { ...holder, email: "Pending+1@example.com" });
    addRule(ctx, state, { target: "kyc", match: { last_name: "Eze" }, outcome: "pending" });
    createCardholder(ctx, state, { ...holder, last_name: "Eze", email: "eze@example.com" });
    addRule(ctx, state, { target: "kyc", match: { email: "pending+fast@example.com" }, outcome: "approved", delay_seconds: 5 });
    createCardholder(ctx, state, { ...holder, email: "pending+fast@example.com" });
    expect(state.timers).toEqual([{ at: T0 + 5_000, seq: 1, kind: "kyc.approve", merchantId: ctx.config.merchant_id, ref: "3" }]);
  });

  it("approveKyc approves once, cancelling the timer; the timer's entry point is a no-op then", () => {
    const { ctx, state } = setup();
    createCardholder(ctx, state, holder);
    expect(approveKyc(state, 1).kyc_status).toBe("APPROVED");
    expect(state.timers).toEqual([]);
    expect(expectRefusal(state, () => approveKyc(state, 1), "INVALID_STATE").message).toBe("Cardholder 1 is APPROVED; only a PENDING cardholder can be approved.");
    expect(approveKycWhenDue(state, 1)).toBeUndefined();
    expect(approveKycWhenDue(state, 2)).toBeUndefined();
    expectRefusal(state, () => approveKyc(state, 2), "NOT_FOUND");
  });

  it("approveKycWhenDue approves a pending cardholder", () => {
    const { ctx, state } = setup();
    createCardholder(ctx, state, holder);
    expect(approveKycWhenDue(state, 1)?.kyc_status).toBe("APPROVED");
  });
});

describe("issueCard", () => {
  it("refuses a cardholder whose KYC is not APPROVED", () => {
    const { ctx, state } = setup();
    createCardholder(ctx, state, holder);
    const err = expectRefusal(state, () => issueCard(ctx, state, { cardholder_id: 1, brand: "VISA" }), "KYC_NOT_APPROVED");
    expect(err.message).toBe("Cardholder 1 has kyc_status PENDING; a card can be issued only once it is APPROVED.");
    expectRefusal(state, () => issueCard(ctx, state, { cardholder_id: 9, brand: "VISA" }), "NOT_FOUND");
  });

  it("issues an active, empty card with a Luhn-valid PAN, valid three years", () => {
    const { state, card } = withCard();
    expect(card).toMatchObject({ card_id: 1, cardholder_id: 1, brand: "VISA", currency: "USD", balance: 0, status: "active", label: "Ads", expiry_month: 1, expiry_year: 2029, created_at: T0 });
    expect(card.pan).toMatch(/^4\d{15}$/);
    expect(isLuhnValid(card.pan)).toBe(true);
    expect(card.masked_pan).toBe(`${card.pan.slice(0, 4)} ${card.pan.slice(4, 6)}** **** ${card.pan.slice(-4)}`);
    expect(state.cardTransactions.get(1)).toEqual([]);
  });
});

describe("fundCard and unloadCard", () => {
  it("funding debits amount and fee at the rate as two entries, rounding each charge up", () => {
    const w = withCard({ settings: { usd_ngn_rate: 1_500.0001 } });
    const before = balanceOf(w.state);
    const moved = fundCardUsd(w, 10);
    expect(w.state.ledger.slice(-2).map((e) => [e.kind, e.amount, e.transaction_id])).toEqual([
      ["card_funding", -1_500_001, moved.txn.transaction_id], // 1,000 cents x 1,500.0001 = 1,500,000.1 kobo
      ["card_funding_fee", -150_001, moved.txn.transaction_id], // 100 cents: 150,000.01 kobo
    ]);
    expect(moved.walletAmount).toBe(1_650_002);
    expect(balanceOf(w.state)).toBe(before - 1_650_002);
    expect(moved.card.balance).toBe(1_000);
    expect(moved.txn).toEqual({
      transaction_id: moved.txn.transaction_id,
      card_id: 1,
      type: "funding",
      status: "success",
      amount: 1_000,
      balance_after: 1_000,
      description: "Card funding",
      merchant_name: null,
      decline_reason: null,
      created_at: T0,
    });
    expect(fundsMovedView(w.ctx, moved, "Card funded")).toEqual({
      success: true,
      message: "Card funded",
      card_id: 1,
      transaction_id: moved.txn.transaction_id,
      amount: 10,
      fee: 1,
      currency: "USD",
      balance: 10,
      exchange_rate: 1_500.0001,
      wallet_amount: 16_500.02,
    });
  });

  it("with no funding fee posts one entry", () => {
    const w = withCard({ settings: { card_funding_fee_usd: 0 } });
    const entries = w.state.ledger.length;
    expect(fundCardUsd(w, 10).fee).toBe(0);
    expect(w.state.ledger).toHaveLength(entries + 1);
  });

  it("refuses 13.13 USD, or an amount a card_fund rule names, with CARD_FUNDING_FAILED, charging nothing", () => {
    const w = withCard();
    expect(expectRefusal(w.state, () => fundCardUsd(w, 13.13), "CARD_FUNDING_FAILED").message).toBe("The card issuer declined funding card 1; nothing was charged.");
    addRule(w.ctx, w.state, { target: "card_fund", match: { card_id: 1, amount: 5 }, outcome: "failed", times: 1 });
    const balance = balanceOf(w.state);
    expect(() => fundCardUsd(w, 5)).toThrow(expect.objectContaining({ code: "CARD_FUNDING_FAILED" }));
    expect([balanceOf(w.state), w.card.balance, w.state.cardTransactions.get(1), w.state.outcomeRules]).toEqual([balance, 0, [], []]);
    expect(fundCardUsd(w, 5).card.balance).toBe(500); // the rule was used up
  });

  it("refuses what the wallet cannot cover, and a card balance past the ceiling", () => {
    const w = withCard({ balance: 3_000 });
    expect(expectRefusal(w.state, () => fundCardUsd(w, 1), "INSUFFICIENT_BALANCE").message).toBe(
      "Insufficient wallet balance: NGN 3200.00 needed, NGN 3000.00 available.",
    );
    w.card.balance = MAX_BALANCE_MINOR;
    expectRefusal(w.state, () => fundCard(w.ctx, w.state, 1, 1), "BALANCE_LIMIT_EXCEEDED");
  });

  it("unloading credits the wallet at the rate, rounding down, and refuses more than the card holds", () => {
    const w = withCard({ settings: { usd_ngn_rate: 1_234.5678 } });
    fundCardUsd(w, 10);
    const balance = balanceOf(w.state);
    expect(expectRefusal(w.state, () => unloadCard(w.ctx, w.state, 1, 1_001), "INSUFFICIENT_CARD_BALANCE").message).toBe(
      "Card 1 holds USD 10.00; cannot unload USD 10.01.",
    );
    const moved = unloadCard(w.ctx, w.state, 1, 333);
    expect(moved.walletAmount).toBe(411_111); // 333 x 1,234.5678 = 411,111.0774 kobo
    expect(moved.fee).toBe(0);
    expect(balanceOf(w.state)).toBe(balance + 411_111);
    expect(w.state.ledger.at(-1)).toMatchObject({ kind: "card_unload", amount: 411_111, description: "Card unload: card 1 USD 3.33" });
    expect(moved.txn).toMatchObject({ type: "unload", status: "success", amount: 333, balance_after: 667, description: "Card unload" });
  });

  it("a frozen card can still be funded and unloaded", () => {
    const w = withCard();
    setCardStatus(w.state, 1, "freeze");
    fundCardUsd(w, 2);
    unloadCard(w.ctx, w.state, 1, 100);
    expect(w.card.balance).toBe(100);
  });
});

describe("card states", () => {
  it("freeze and unfreeze only from active and frozen", () => {
    const { state, card } = withCard();
    // (The message reads "only an frozen card": reported, not pinned.)
    expect(expectRefusal(state, () => setCardStatus(state, 1, "unfreeze"), "INVALID_STATE").message).toMatch(/^Card 1 is active; only an? frozen card can be unfrozen\.$/);
    expect(setCardStatus(state, 1, "freeze").status).toBe("frozen");
    expect(expectRefusal(state, () => setCardStatus(state, 1, "freeze"), "INVALID_STATE").message).toBe("Card 1 is frozen; only an active card can be frozen.");
    expect(setCardStatus(state, 1, "unfreeze")).toBe(card);
    expect(card.status).toBe("active");
    expectRefusal(state, () => setCardStatus(state, 2, "freeze"), "NOT_FOUND");
  });

  it("terminate returns the balance to the wallet first and is permanent", () => {
    const w = withCard();
    fundCardUsd(w, 10);
    setCardStatus(w.state, 1, "freeze");
    const balance = balanceOf(w.state);
    const { card, refunded } = terminateCard(w.ctx, w.state, 1);
    expect([card.status, card.balance, refunded]).toEqual(["terminated", 0, 1_000]);
    expect(balanceOf(w.state)).toBe(balance + 1_600_000);
    expect(w.state.ledger.at(-1)!.description).toBe("Balance returned on termination: card 1 USD 10.00");
    const refusals: Array<[() => unknown, string]> = [
      [() => fundCardUsd(w, 1), "funded"],
      [() => unloadCard(w.ctx, w.state, 1, 1), "unloaded"],
      [() => setCardStatus(w.state, 1, "freeze"), "frozen"],
      [() => setCardStatus(w.state, 1, "unfreeze"), "unfrozen"],
      [() => terminateCard(w.ctx, w.state, 1), "terminated again"],
    ];
    for (const [act, action] of refusals) {
      expect(expectRefusal(w.state, act, "INVALID_STATE").message).toBe(`Card 1 is terminated; it cannot be ${action}. Termination is permanent.`);
    }
  });

  it("terminating an empty card posts nothing", () => {
    const w = withCard();
    const entries = w.state.ledger.length;
    expect(terminateCard(w.ctx, w.state, 1).refunded).toBe(0);
    expect(w.state.ledger).toHaveLength(entries);
  });
});

describe("spendCard", () => {
  it("pays from an active card with the balance; otherwise declines, records it and keeps the balance", () => {
    const w = withCard();
    fundCardUsd(w, 10);
    expect(spendCard(w.ctx, w.state, 1, 400, "Jumia")).toMatchObject({
      type: "spend",
      status: "success",
      amount: 400,
      balance_after: 600,
      description: "Jumia purchase",
      merchant_name: "Jumia",
      decline_reason: null,
    });
    expect(spendCard(w.ctx, w.state, 1, 601, "Jumia")).toMatchObject({ status: "declined", balance_after: 600, decline_reason: "Insufficient card balance" });
    setCardStatus(w.state, 1, "freeze");
    expect(spendCard(w.ctx, w.state, 1, 1, "Jumia")).toMatchObject({ status: "declined", balance_after: 600, decline_reason: "Card is frozen" });
    terminateCard(w.ctx, w.state, 1);
    expect(spendCard(w.ctx, w.state, 1, 1, "Jumia")).toMatchObject({ status: "declined", balance_after: 0, decline_reason: "Card is terminated" });
    expect(w.state.cardTransactions.get(1)!.map((t) => `${t.type}:${t.status}`)).toEqual([
      "funding:success",
      "spend:success",
      "spend:declined",
      "spend:declined",
      "unload:success",
      "spend:declined",
    ]);
    expectRefusal(w.state, () => spendCard(w.ctx, w.state, 7, 1, "Jumia"), "NOT_FOUND");
  });
});

describe("card views", () => {
  it("show USD in major units and ISO times", () => {
    const w = withCard();
    const { txn } = fundCardUsd(w, 12.5);
    expect(cardView(w.card)).toMatchObject({ card_id: 1, balance: 12.5, masked_pan: w.card.masked_pan, created_at: "2026-01-05T09:00:00.000Z" });
    expect(cardView(w.card)).not.toHaveProperty("pan");
    expect(cardTransactionView(txn)).toMatchObject({ amount: 12.5, currency: "USD", balance_after: 12.5 });
    expect(cardholderView(w.state.cardholders.get(1)!)).toEqual({ cardholder_id: 1, full_name: "Ada Okafor", email: "Ada@Example.com", phone: null, kyc_status: "APPROVED" });
  });
});
