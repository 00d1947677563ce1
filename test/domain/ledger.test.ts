import { describe, expect, it } from "vitest";
import { MAX_BALANCE_MINOR } from "../../src/domain/bounds.js";
import { balanceOf, describer, lastMovementAt, ledgerEntryView, post, type Posting } from "../../src/domain/ledger.js";
import { fundWallet, walletView } from "../../src/domain/wallet.js";
import { expectRefusal, setup, T0 } from "./context.js";

const debit = (amount: number, transaction_id = "TXN_D"): Posting => ({ kind: "payout", amount: -amount, transaction_id, description: "out" });
const credit = (amount: number, transaction_id = "TXN_C"): Posting => ({ kind: "wallet_funding", amount, transaction_id, description: "in" });

describe("post", () => {
  it("appends numbered entries carrying the running balance", () => {
    const { state } = setup();
    expect(balanceOf(state)).toBe(0);
    expect(lastMovementAt(state)).toBeNull();
    post(state, T0, [credit(1_000)]);
    const entries = post(state, T0 + 5, [debit(300, "PO_1"), { ...debit(50, "PO_1"), kind: "payout_fee" }]);
    expect(entries).toEqual([
      { entry_id: 2, at: T0 + 5, kind: "payout", amount: -300, balance_after: 700, transaction_id: "PO_1", description: "out" },
      { entry_id: 3, at: T0 + 5, kind: "payout_fee", amount: -50, balance_after: 650, transaction_id: "PO_1", description: "out" },
    ]);
    expect(state.ledger.map((e) => e.balance_after)).toEqual([1_000, 700, 650]);
    expect(balanceOf(state)).toBe(650);
    expect(lastMovementAt(state)).toBe(T0 + 5);
  });

  it("may take the balance exactly to zero", () => {
    const { state } = setup();
    post(state, T0, [credit(1_000)]);
    post(state, T0, [debit(600), debit(400)]);
    expect(balanceOf(state)).toBe(0);
  });

  it("refuses a batch whose total overdraws with INSUFFICIENT_BALANCE, appending none of it", () => {
    const { state } = setup();
    post(state, T0, [credit(1_000)]);
    // The first posting alone would fit: the batch is checked as a whole.
    const err = expectRefusal(state, () => post(state, T0, [debit(900), debit(200)]), "INSUFFICIENT_BALANCE");
    expect(err.message).toBe("Insufficient wallet balance: NGN 11.00 needed, NGN 10.00 available.");
    expect(state.ledger).toHaveLength(1);
  });

  it("refuses a credit past the sandbox's ceiling with BALANCE_LIMIT_EXCEEDED", () => {
    const { state } = setup();
    post(state, T0, [credit(MAX_BALANCE_MINOR - 1)]);
    post(state, T0, [credit(1)]);
    expect(balanceOf(state)).toBe(MAX_BALANCE_MINOR);
    const err = expectRefusal(state, () => post(state, T0, [credit(1)]), "BALANCE_LIMIT_EXCEEDED");
    expect(err.message).toBe("This credit would take the wallet past the sandbox's ceiling of NGN 10,000,000,000,000; nothing was credited.");
  });

  it("keeps the last balance equal to the sum of every entry", () => {
    const { ctx, state } = setup();
    for (let i = 0; i < 200; i++) {
      const amount = ctx.ids.int(10_000) + 1;
      try {
        post(state, T0 + i, [ctx.ids.int(2) === 0 ? credit(amount) : debit(amount)]);
      } catch {
        // overdrafts are refused; the invariant below must hold regardless
      }
    }
    expect(balanceOf(state)).toBe(state.ledger.reduce((sum, e) => sum + e.amount, 0));
    expect(state.ledger.every((e, i) => e.entry_id === i + 1 && e.balance_after >= 0)).toBe(true);
  });
});

describe("views", () => {
  it("shows entries in Naira with their direction", () => {
    const { state } = setup();
    const [entry] = post(state, T0, [credit(150_055)]);
    expect(ledgerEntryView(entry!, describer(state))).toEqual({
      entry_id: 1,
      kind: "wallet_funding",
      type: "credit",
      amount: 1_500.55,
      balance_after: 1_500.55,
      transaction_id: "TXN_C",
      description: "in",
      created_at: "2026-01-05T09:00:00.000Z",
    });
    const [out] = post(state, T0, [debit(55)]);
    expect(ledgerEntryView(out!, describer(state))).toMatchObject({ type: "debit", amount: 0.55, balance_after: 1_500 });
  });

  it("the wallet's updated_at is the last movement, else the merchant's creation", () => {
    const { ctx, state } = setup({ now: T0 - 60_000 });
    ctx.now = T0;
    expect(walletView(ctx, state)).toEqual({ balance: 0, currency: "NGN", updated_at: "2026-01-05T08:59:00.000Z" });
    const entry = fundWallet(ctx, state, 250_000);
    expect(entry).toMatchObject({ kind: "wallet_funding", amount: 250_000, description: "Wallet funding (sandbox)" });
    expect(entry.transaction_id).toMatch(/^TXN_[0-9A-Z]{16}$/);
    expect(walletView(ctx, state)).toEqual({ balance: 2_500, currency: "NGN", updated_at: "2026-01-05T09:00:00.000Z" });
  });
});
