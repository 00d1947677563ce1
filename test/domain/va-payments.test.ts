import { describe, expect, it } from "vitest";
import { MAX_BALANCE_MINOR } from "../../src/domain/bounds.js";
import { balanceOf, describer, post } from "../../src/domain/ledger.js";
import { toMinor } from "../../src/domain/money.js";
import { fireTimer, isDomainTimer } from "../../src/domain/timer-dispatch.js";
import { popDue } from "../../src/domain/timers.js";
import {
  DEFAULT_INBOUND_SETTLE_SECONDS,
  arrivalErrors,
  clearVaPayment,
  failVaPayment,
  findVaPayment,
  findVaPaymentById,
  receiveTransfer,
  settleVaPaymentWhenDue,
  vaPaymentView,
  type IncomingTransfer,
} from "../../src/domain/va-payments.js";
import { expectRefusal, fieldsOf, T0, withAccount } from "./context.js";

type World = ReturnType<typeof withAccount>;

/** Fires every timer due up to `upTo`, each at its own time, as the clock driver does. */
function advanceTo({ ctx, state }: World, upTo: number): void {
  for (let t = popDue(state, upTo); t; t = popDue(state, upTo)) if (isDomainTimer(t)) fireTimer({ ...ctx, now: t.at }, state, t);
  ctx.now = upTo;
}

const transfer = (w: World, over: Partial<IncomingTransfer> = {}) =>
  receiveTransfer(w.ctx, w.state, { account_number: w.account.account_number, amount: toMinor(2_500), narration: "Order 1003", ...over });

describe("receiveTransfer", () => {
  it("credits the wallet at once, records a success and emits payment.received", () => {
    const { ctx, state, account } = withAccount();
    ctx.now = T0 + 1_000;
    const payment = receiveTransfer(ctx, state, { account_number: account.account_number, amount: toMinor(15_000), narration: "INV-7", payer_name: "EZE OBI", payer_bank: "Access Bank" });
    expect(payment).toEqual({
      transaction_id: expect.stringMatching(/^TXN_/),
      reference: "INV-7",
      amount: 1_500_000,
      currency: "NGN",
      status: "success",
      payer_name: "EZE OBI",
      payer_bank: "Access Bank",
      virtual_account: account.account_number,
      created_at: T0 + 1_000,
      plan: null,
    });
    expect(state.ledger).toStrictEqual([
      { entry_id: 1, at: T0 + 1_000, kind: "va_payment", amount: 1_500_000, balance_after: 1_500_000, transaction_id: payment.transaction_id, description: undefined },
    ]);
    expect(describer(state)(state.ledger[0]!)).toBe(`Transfer into ${account.account_number} from EZE OBI`);
    const [event] = [...state.events.values()];
    expect(event).toMatchObject({ type: "payment.received", transaction_id: payment.transaction_id, data: { reference: "INV-7", amount: 15_000, status: "successful" } });
    expect(state.outbox).toEqual([event!.id]);
    expect(state.timers).toEqual([]);
  });

  it("defaults the payer and the narration; the newest payment with a narration is the one found", () => {
    const { ctx, state, account } = withAccount();
    const a = receiveTransfer(ctx, state, { account_number: account.account_number, amount: 100 });
    expect(a).toMatchObject({ reference: "Transfer to Sandbox Merchant-Ada Okafor", payer_name: "OKAFOR CHINEDU EMMANUEL", payer_bank: "Guaranty Trust Bank" });
    const b = receiveTransfer(ctx, state, { account_number: account.account_number, amount: 200 });
    expect(state.vaPaymentsByReference.get(a.reference)).toEqual([a, b]);
    expect([...state.vaPayments.values()]).toEqual([a, b]);
    expect(findVaPayment(state, a.reference)).toBe(b);
    expect(findVaPaymentById(state, a.transaction_id)).toBe(a);
    expect(expectRefusal(state, () => findVaPayment(state, "nope"), "NOT_FOUND").message).toBe("No transaction with reference nope.");
    expect(expectRefusal(state, () => findVaPaymentById(state, "TXN_NOPE"), "NOT_FOUND").message).toBe("No virtual account payment with transaction_id TXN_NOPE.");
  });

  it("keeps the narration verbatim: empty, spaces, tabs and newlines", () => {
    const w = withAccount();
    for (const narration of ["", "   ", "  Order  1003 ", "line one\nline two\t"]) {
      const p = transfer(w, { narration });
      expect(p.reference).toBe(narration);
      expect(findVaPayment(w.state, narration)).toBe(p);
      expect(w.state.events.get(w.state.outbox.at(-1)!)!.data).toMatchObject({ reference: narration });
    }
  });

  it("refuses an unknown account, or a credit past the ceiling, changing nothing", () => {
    const { ctx, state, account } = withAccount();
    expect(expectRefusal(state, () => receiveTransfer(ctx, state, { account_number: "1234567890", amount: 1 }), "NOT_FOUND").message).toBe("No virtual account 1234567890.");
    post(state, T0, [{ kind: "wallet_funding", amount: MAX_BALANCE_MINOR, transaction_id: "T", description: "d" }]);
    expectRefusal(state, () => receiveTransfer(ctx, state, { account_number: account.account_number, amount: 1 }), "BALANCE_LIMIT_EXCEEDED");
    expect(balanceOf(state)).toBe(MAX_BALANCE_MINOR);
  });

  it("refuses an outcome or a delay for a transfer that clears at once, changing nothing", () => {
    const w = withAccount();
    expect(arrivalErrors({ status: "pending", outcome: "failed", settle_after_seconds: 5 })).toEqual({});
    const err = expectRefusal(w.state, () => transfer(w, { outcome: "failed", settle_after_seconds: 5 }), "VALIDATION_ERROR");
    expect(Object.keys(fieldsOf(err)).sort()).toEqual(["outcome", "settle_after_seconds"]);
    expectRefusal(w.state, () => transfer(w, { status: "success", outcome: "success" }), "VALIDATION_ERROR");
  });
});

describe("a transfer that arrives pending or processing", () => {
  it("credits nothing and sends nothing on arrival, then clears after the default delay as an immediate transfer does", () => {
    const w = withAccount();
    const p = transfer(w, { status: "pending" });
    expect(p).toMatchObject({ status: "pending", plan: { outcome: "success", delay_ms: DEFAULT_INBOUND_SETTLE_SECONDS * 1000 } });
    expect(w.state.ledger).toEqual([]);
    expect(w.state.events.size).toBe(0);
    expect(w.state.timers).toEqual([expect.objectContaining({ kind: "va_payment.settle", ref: p.transaction_id, at: T0 + 60_000 })]);

    advanceTo(w, T0 + 59_999);
    expect(p.status).toBe("pending");
    advanceTo(w, T0 + 3_600_000);
    expect(p.status).toBe("success");
    expect(w.state.ledger).toEqual([expect.objectContaining({ at: T0 + 60_000, kind: "va_payment", amount: 250_000, transaction_id: p.transaction_id })]);
    expect([...w.state.events.values()]).toEqual([
      expect.objectContaining({ type: "payment.received", transaction_id: p.transaction_id, created_at: T0 + 60_000, data: expect.objectContaining({ reference: "Order 1003", amount: 2_500, status: "successful" }) }),
    ]);
  });

  it("fails at its time when the outcome is failed: never credited, no webhook", () => {
    const w = withAccount();
    const p = transfer(w, { status: "processing", outcome: "failed", settle_after_seconds: 600 });
    advanceTo(w, T0 + 600_000);
    expect(p.status).toBe("failed");
    expect(w.state.ledger).toEqual([]);
    expect(w.state.events.size).toBe(0);
    expect(w.state.timers).toEqual([]);
  });

  it("settles at once on the next timer run with a delay of 0", () => {
    const w = withAccount();
    const p = transfer(w, { status: "processing", settle_after_seconds: 0 });
    expect(p.status).toBe("processing");
    advanceTo(w, T0);
    expect(p.status).toBe("success");
  });

  it("clears now with the lever: credited, payment.received, its timer gone (a stale one does nothing)", () => {
    const w = withAccount();
    const p = transfer(w, { status: "pending", outcome: "failed" });
    const [timer] = w.state.timers;
    w.ctx.now = T0 + 5_000;
    expect(clearVaPayment(w.ctx, w.state, p.transaction_id)).toBe(p);
    expect(p.status).toBe("success");
    expect(balanceOf(w.state)).toBe(250_000);
    expect([...w.state.events.values()].map((e) => e.type)).toEqual(["payment.received"]);
    expect(w.state.timers).toEqual([]);
    const before = structuredClone(w.state);
    fireTimer({ ...w.ctx, now: timer!.at }, w.state, timer as typeof timer & { kind: "va_payment.settle" });
    expect(w.state).toEqual(before);
  });

  it("fails now with the lever: nothing credited, no webhook, its timer gone", () => {
    const w = withAccount();
    const p = transfer(w, { status: "processing" });
    expect(failVaPayment(w.state, p.transaction_id)).toBe(p);
    expect(p.status).toBe("failed");
    expect(w.state.ledger).toEqual([]);
    expect(w.state.events.size).toBe(0);
    expect(w.state.timers).toEqual([]);
  });

  it("refuses the levers for a payment that has ended, or an unknown one, changing nothing", () => {
    const w = withAccount();
    const done = transfer(w);
    const failed = transfer(w, { status: "pending" });
    failVaPayment(w.state, failed.transaction_id);
    for (const id of [done.transaction_id, failed.transaction_id]) {
      expectRefusal(w.state, () => clearVaPayment(w.ctx, w.state, id), "INVALID_STATE");
      expectRefusal(w.state, () => failVaPayment(w.state, id), "INVALID_STATE");
    }
    expect(expectRefusal(w.state, () => clearVaPayment(w.ctx, w.state, done.transaction_id), "INVALID_STATE").message).toBe(
      `Payment ${done.transaction_id} is success; only a pending or processing payment can be cleared.`,
    );
    expectRefusal(w.state, () => failVaPayment(w.state, "TXN_NOPE"), "NOT_FOUND");
    expect(settleVaPaymentWhenDue(w.ctx, w.state, done.transaction_id)).toBeUndefined();
    expect(settleVaPaymentWhenDue(w.ctx, w.state, "TXN_NOPE")).toBeUndefined();
  });

  it("the clear lever refuses a credit past the ceiling, changing nothing; the timer fails it instead", () => {
    const w = withAccount();
    const p = transfer(w, { status: "pending" });
    post(w.state, T0, [{ kind: "wallet_funding", amount: MAX_BALANCE_MINOR, transaction_id: "T", description: "d" }]);
    expectRefusal(w.state, () => clearVaPayment(w.ctx, w.state, p.transaction_id), "BALANCE_LIMIT_EXCEEDED");
    advanceTo(w, T0 + 60_000);
    expect(p.status).toBe("failed");
    expect(balanceOf(w.state)).toBe(MAX_BALANCE_MINOR);
    expect(w.state.events.size).toBe(0);
  });

  it("shows each state in its status record", () => {
    const w = withAccount();
    const p = transfer(w, { status: "processing" });
    expect(vaPaymentView(p)).toEqual({
      reference: "Order 1003",
      amount: 2_500,
      currency: "NGN",
      status: "processing",
      payer_name: "OKAFOR CHINEDU EMMANUEL",
      payer_bank: "Guaranty Trust Bank",
      virtual_account: w.account.account_number,
      transaction_id: p.transaction_id,
      created_at: "2026-01-05T09:00:00.000Z",
    });
    advanceTo(w, T0 + 60_000);
    expect(vaPaymentView(findVaPayment(w.state, "Order 1003")).status).toBe("success");
  });
});
