import { describe, expect, it } from "vitest";
import {
  checkoutCreatedView,
  checkoutLinks,
  checkoutStatus,
  checkoutView,
  createCheckout,
  findCheckout,
  payCheckout,
} from "../../src/domain/checkout.js";
import { CHECKOUT_VALIDITY_MS } from "../../src/domain/limits.js";
import { balanceOf } from "../../src/domain/ledger.js";
import { toMinor } from "../../src/domain/money.js";
import { makeNuban, isPlausibleNuban } from "../../src/domain/nuban.js";
import { expectRefusal, makeContext, setup, T0 } from "./context.js";

const request = { amount: toMinor(2_500), description: "Order 42", customer_email: "ada@example.com", customer_name: "Ada Okafor", redirect_url: "https://shop.example/done" };

describe("createCheckout", () => {
  it("opens a one-time partner-bank account for 30 minutes and claims its reference and account sandbox-wide", () => {
    const { ctx, state } = setup();
    const c = createCheckout(ctx, state, request);
    expect(c).toEqual({
      reference: expect.stringMatching(/^CHK_[0-9A-Z]{16}$/),
      transaction_id: expect.stringMatching(/^TXN_[0-9A-Z]{16}$/),
      amount: 250_000,
      description: "Order 42",
      redirect_url: "https://shop.example/done",
      customer_email: "ada@example.com",
      customer_name: "Ada Okafor",
      account_number: expect.stringMatching(/^\d{10}$/),
      account_name: "Sandbox Merchant Checkout",
      bank_name: "Partner Bank (Sandbox)",
      status: "pending",
      created_at: T0,
      expires_at: T0 + 30 * 60_000,
      paid_at: null,
    });
    expect(isPlausibleNuban("999", c.account_number)).toBe(true);
    expect(ctx.claimed).toEqual(new Set([`checkout:${c.reference}`, `account:${c.account_number}`]));
    expect(state.checkouts.get(c.reference)).toBe(c);
    expect(state.checkoutsByAccount.get(c.account_number)).toBe(c.reference);
  });

  it("leaves out what was not given", () => {
    const { ctx, state } = setup();
    expect(createCheckout(ctx, state, { amount: toMinor(100) })).toMatchObject({ description: null, redirect_url: null, customer_email: null, customer_name: null });
  });

  it("draws another reference, or another account number, when someone in the sandbox holds it", () => {
    // A twin context with the same seed draws what the real one would draw first.
    const twin = makeContext();
    const firstReference = twin.ids.id("CHK");
    twin.ids.id("TXN");
    const firstAccount = makeNuban("999", twin.ids.digits(9));

    const takenReference = setup();
    takenReference.ctx.claimed.add(`checkout:${firstReference}`);
    expect(createCheckout(takenReference.ctx, takenReference.state, request).reference).not.toBe(firstReference);

    const takenAccount = setup();
    takenAccount.ctx.claimed.add(`account:${firstAccount}`);
    const c = createCheckout(takenAccount.ctx, takenAccount.state, request);
    expect(c.reference).toBe(firstReference);
    expect(c.account_number).not.toBe(firstAccount);
  });
});

describe("checkoutStatus", () => {
  it("is pending until exactly 30 minutes after creation, then expired; paid stays paid", () => {
    const { ctx, state } = setup();
    const c = createCheckout(ctx, state, request);
    expect(CHECKOUT_VALIDITY_MS).toBe(1_800_000);
    expect(checkoutStatus(c, T0 + CHECKOUT_VALIDITY_MS - 1)).toBe("pending");
    expect(checkoutStatus(c, T0 + CHECKOUT_VALIDITY_MS)).toBe("expired");
    ctx.now = T0 + CHECKOUT_VALIDITY_MS - 1;
    payCheckout(ctx, state, c.reference);
    expect(checkoutStatus(c, T0 + 10 * CHECKOUT_VALIDITY_MS)).toBe("paid");
  });
});

describe("payCheckout", () => {
  it("accepts the exact amount: credits the wallet, marks it paid and emits checkout.completed", () => {
    const { ctx, state } = setup({ balance: 10 });
    const c = createCheckout(ctx, state, request);
    ctx.now = T0 + 60_000;
    expect(payCheckout(ctx, state, c.reference, toMinor(2_500))).toBe(c);
    expect(c).toMatchObject({ status: "paid", paid_at: T0 + 60_000 });
    expect(state.ledger.at(-1)).toEqual({
      entry_id: 2,
      at: T0 + 60_000,
      kind: "checkout_payment",
      amount: 250_000,
      balance_after: 251_000,
      transaction_id: c.transaction_id,
      description: `Payment link ${c.reference} paid`,
    });
    const [event] = [...state.events.values()];
    expect(event).toMatchObject({ type: "checkout.completed", transaction_id: c.transaction_id, created_at: T0 + 60_000, status: "pending" });
    expect(state.outbox).toEqual([event!.id]);
  });

  it("without an amount pays the link's own amount", () => {
    const { ctx, state } = setup();
    const c = createCheckout(ctx, state, request);
    payCheckout(ctx, state, c.reference);
    expect(balanceOf(state)).toBe(c.amount);
  });

  it("refuses any other amount with AMOUNT_MISMATCH, crediting nothing and leaving the link pending", () => {
    const { ctx, state } = setup();
    const c = createCheckout(ctx, state, request);
    const err = expectRefusal(state, () => payCheckout(ctx, state, c.reference, toMinor(2_499.99)), "AMOUNT_MISMATCH");
    expect(err.message).toBe("This link accepts exactly NGN 2500.00; a transfer of NGN 2499.99 is refused and returned to the payer.");
    expect(checkoutStatus(c, ctx.now)).toBe("pending");
  });

  it("refuses an expired or paid link with INVALID_STATE naming its status", () => {
    const { ctx, state } = setup();
    const expired = createCheckout(ctx, state, request);
    const paid = createCheckout(ctx, state, request);
    payCheckout(ctx, state, paid.reference);
    ctx.now = T0 + CHECKOUT_VALIDITY_MS;
    expect(expectRefusal(state, () => payCheckout(ctx, state, expired.reference), "INVALID_STATE").message).toBe(
      `Payment link ${expired.reference} is expired; only a pending link can be paid.`,
    );
    expect(expectRefusal(state, () => payCheckout(ctx, state, paid.reference), "INVALID_STATE").message).toBe(
      `Payment link ${paid.reference} is paid; only a pending link can be paid.`,
    );
    // The status is checked before the amount.
    expectRefusal(state, () => payCheckout(ctx, state, expired.reference, 1), "INVALID_STATE");
  });

  it("an unknown reference is NOT_FOUND", () => {
    const { ctx, state } = setup();
    expect(expectRefusal(state, () => payCheckout(ctx, state, "CHK_NOPE"), "NOT_FOUND").message).toBe("No payment link with reference CHK_NOPE.");
    expect(() => findCheckout(state, "CHK_NOPE")).toThrow("No payment link");
  });
});

describe("checkout views", () => {
  it("link to the sandbox's own pages and show the status derived from the clock", () => {
    const { ctx, state } = setup();
    const c = createCheckout(ctx, state, request);
    c.reference = "CHK/1 2";
    expect(checkoutLinks("https://sb.example", c)).toEqual({
      payment_link: "https://sb.example/pay/CHK%2F1%202",
      checkout_url: "https://sb.example/processor/checkout/CHK%2F1%202",
    });
    expect(checkoutCreatedView("https://sb.example", c)).toMatchObject({ success: true, order_no: c.transaction_id, amount: 2_500, status: "pending", expires_at: "2026-01-05T09:30:00.000Z", paid_at: null });
    expect(checkoutView(c, T0 + CHECKOUT_VALIDITY_MS)).toMatchObject({ status: "expired", order_no: c.transaction_id, created_at: "2026-01-05T09:00:00.000Z", paid_at: null });
  });
});
