import { describe, expect, it } from "vitest";
import type { DomainErrorCode } from "../../src/domain/errors.js";
import { balanceOf, describer } from "../../src/domain/ledger.js";
import { toMinor } from "../../src/domain/money.js";
import { isPlausibleNuban } from "../../src/domain/nuban.js";
import { addRule } from "../../src/domain/outcomes.js";
import {
  approvePayout,
  completePayout,
  createPayout,
  failPayout,
  payoutStatusView,
  payoutView,
  rejectPayout,
  settlePayoutWhenDue,
  type PayoutRequest,
} from "../../src/domain/payouts.js";
import { volumeUsed } from "../../src/domain/volume.js";
import { expectRefusal, fieldsOf, GTB_ACCOUNT, payoutRequest, setup, T0, thrown } from "./context.js";

const eventTypes = (state: ReturnType<typeof setup>["state"]) => [...state.events.values()].map((e) => e.type);

describe("createPayout", () => {
  it("debits amount and fee as one batch, starts processing and schedules the settlement", () => {
    const { ctx, state } = setup({ balance: 100_000 });
    const p = createPayout(ctx, state, payoutRequest({ reference: "inv-1", narration: "Rent" }));
    expect(p).toEqual({
      reference: "inv-1",
      order_no: expect.stringMatching(/^PO_[0-9A-Z]{16}$/),
      amount: 500_000,
      fee: 5_000,
      total_deducted: 505_000,
      status: "processing",
      bank_code: "058",
      bank_name: "Guaranty Trust Bank",
      account_number: GTB_ACCOUNT,
      account_name: "EZE FUNMILAYO IBRAHIM",
      narration: "Rent",
      source: "api",
      client_ip: "10.0.0.1",
      created_at: T0,
      processed_at: null,
      error: null,
      plan: { outcome: "completed", delay_ms: 30_000, error: null, queries: null },
    });
    expect(state.payouts.get("inv-1")).toBe(p);
    // The entries keep no description: it is made from the payout when the ledger is read.
    expect(state.ledger.slice(1)).toStrictEqual([
      { entry_id: 2, at: T0, kind: "payout", amount: -500_000, balance_after: 9_500_000, transaction_id: p.order_no, description: undefined },
      { entry_id: 3, at: T0, kind: "payout_fee", amount: -5_000, balance_after: 9_495_000, transaction_id: p.order_no, description: undefined },
    ]);
    const description = describer(state);
    expect(state.ledger.slice(1).map(description)).toEqual(["Payout inv-1 to Guaranty Trust Bank ****0018", "Payout fee inv-1"]);
    expect(state.timers).toEqual([{ at: T0 + 30_000, seq: 1, kind: "payout.settle", merchantId: ctx.config.merchant_id, ref: "inv-1" }]);
    expect(volumeUsed(state.windows.payoutVolume, T0)).toEqual({ hour: 500_000, day: 500_000 });
    expect(state.events.size).toBe(0);
  });

  it("makes up a unique reference when none is given", () => {
    const { ctx, state } = setup({ balance: 100_000 });
    const a = createPayout(ctx, state, payoutRequest());
    const b = createPayout(ctx, state, payoutRequest());
    expect(a.reference).toMatch(/^PAYOUT_[0-9A-Z]{16}$/);
    expect(b.reference).not.toBe(a.reference);
    expect(a.narration).toBeNull();
  });

  it("checks bank code, check digit, bank name, account name, reference, minimum, maximum, volume, then balance, changing nothing on refusal", () => {
    const { ctx, state } = setup({ balance: 1_000, settings: { limits: { payout_hourly_amount: 2_000 } } });
    createPayout(ctx, state, payoutRequest({ reference: "dup", amount: toMinor(100) }));
    addRule(ctx, state, { target: "payout", outcome: "failed", times: 1 }); // not consumed by a refusal
    expect(ctx.catalog.bankByCode.has("123")).toBe(false);
    const steps: Array<[Partial<PayoutRequest>, DomainErrorCode, string]> = [
      [{ bank_code: "123", account_number: "0000000019", reference: "dup", amount: toMinor(99.99) }, "VALIDATION_ERROR", "Unknown bank_code: use a code from GET /api/v1/payout/banks."],
      [{ account_number: "0000000019", reference: "dup", amount: toMinor(99.99), bank_name: "Access Bank" }, "INVALID_ACCOUNT", "Account 0000000019 could not be resolved at bank 058."],
      [{ bank_name: "Access Bank", account_name: "JOHN DOE", reference: "dup", amount: toMinor(99.99) }, "BANK_NAME_MISMATCH", 'bank_name "Access Bank" is not the name of bank 058: the bank list (GET /api/v1/payout/banks) names it "Guaranty Trust Bank".'],
      [{ account_name: "JOHN DOE", reference: "dup", amount: toMinor(99.99) }, "ACCOUNT_NAME_MISMATCH", 'account_name "JOHN DOE" does not match the holder of account 0000000018 at Guaranty Trust Bank: name enquiry (POST /api/v1/payout/verify-account) returns "EZE FUNMILAYO IBRAHIM".'],
      [{ reference: "dup", amount: toMinor(99.99) }, "DUPLICATE_REFERENCE", "A payout with reference dup already exists: data is that payout, as GET /api/v1/payout/status shows it."],
      [{ amount: toMinor(99.99) }, "AMOUNT_BELOW_MINIMUM", "The minimum payout is NGN 100.00."],
      [{ amount: toMinor(5_000_000.01) }, "AMOUNT_ABOVE_MAXIMUM", "The maximum payout per transaction is NGN 5000000.00."],
      [{ amount: toMinor(1_901) }, "HOURLY_LIMIT_EXCEEDED", "This payout would exceed the hourly payout limit of NGN 2000.00 (NGN 100.00 used)."],
      [{ amount: toMinor(1_000) }, "INSUFFICIENT_BALANCE", "Insufficient wallet balance: NGN 1010.00 needed, NGN 899.00 available."],
    ];
    for (const [over, code, message] of steps) {
      const err = expectRefusal(state, () => createPayout(ctx, state, payoutRequest(over)), code);
      const fields = Object.values(fieldsOf(err)).flat();
      expect(code === "VALIDATION_ERROR" ? fields : [err.message]).toEqual([message]);
    }
    expect(thrown(() => createPayout(ctx, state, payoutRequest({ reference: "dup" }))).details.data).toEqual(payoutStatusView(state.payouts.get("dup")!));
    expect(createPayout(ctx, state, payoutRequest({ amount: toMinor(890) })).plan.outcome).toBe("failed");
    expect(balanceOf(state)).toBe(toMinor(0.1));
  });

  it("names the field of a validation refusal", () => {
    const { ctx, state } = setup({ balance: 1_000 });
    expect(Object.keys(fieldsOf(expectRefusal(state, () => createPayout(ctx, state, payoutRequest({ bank_code: "123" })), "VALIDATION_ERROR")))).toEqual(["bank_code"]);
    // A NUBAN failing its check digit is the account's problem, as name enquiry says: INVALID_ACCOUNT.
    expect(expectRefusal(state, () => createPayout(ctx, state, payoutRequest({ account_number: "0000000019" })), "INVALID_ACCOUNT").details).toEqual({});
  });

  it("magic accounts skip the check digit; long bank codes check only the format", () => {
    const { ctx, state } = setup({ balance: 100_000 });
    expect(isPlausibleNuban("058", "1234560001")).toBe(false);
    expect(createPayout(ctx, state, payoutRequest({ account_number: "1234560001" })).plan).toEqual({ outcome: "failed", delay_ms: 30_000, error: "Transfer failed at the beneficiary bank", queries: null });
    expect(createPayout(ctx, state, payoutRequest({ account_number: "0000000000" })).plan).toEqual({ outcome: "failed", delay_ms: 30_000, error: "Beneficiary account not found", queries: null });
    const held = createPayout(ctx, state, payoutRequest({ account_number: "1234560002" }));
    expect(held.plan).toEqual({ outcome: "hold", delay_ms: 30_000, error: null, queries: null });
    expect(state.timers.map((t) => t.ref)).not.toContain(held.reference);
    expect(createPayout(ctx, state, payoutRequest({ bank_code: "999992", account_number: "8031234567" })).status).toBe("processing");
  });

  it("holds a payout at or above the review threshold as pending_approval, debited but not scheduled", () => {
    const { ctx, state } = setup({ balance: 3_000_000 });
    expect(createPayout(ctx, state, payoutRequest({ amount: toMinor(999_999.99) })).status).toBe("processing");
    const held = createPayout(ctx, state, payoutRequest({ amount: toMinor(1_000_000) }));
    expect(held).toMatchObject({ status: "pending_approval", fee: toMinor(1_000), total_deducted: toMinor(1_001_000) });
    expect(state.timers).toHaveLength(1);
    expect(balanceOf(state)).toBe(toMinor(998_000.01)); // 3,000,000 - (999,999.99 + 1,000) - (1,000,000 + 1,000)
    expect(volumeUsed(state.windows.payoutVolume, T0).hour).toBe(toMinor(1_999_999.99));
  });

  it("plans from the newest matching rule (facts in Naira) before magic accounts and the default", () => {
    const { ctx, state } = setup({ balance: 100_000 });
    addRule(ctx, state, { target: "payout", match: { amount: 5_000, reference: "INV-9" }, outcome: "completed", delay_seconds: 5 });
    addRule(ctx, state, { target: "payout", match: { reference: "inv-8" }, outcome: "processing" });
    expect(createPayout(ctx, state, payoutRequest({ reference: "inv-9", account_number: "0000000000" })).plan).toEqual({ outcome: "completed", delay_ms: 5_000, error: null, queries: null });
    expect(state.timers.at(-1)).toMatchObject({ at: T0 + 5_000, ref: "inv-9" });
    expect(createPayout(ctx, state, payoutRequest({ reference: "inv-8" })).plan.outcome).toBe("hold");
    expect(createPayout(ctx, state, payoutRequest({ reference: "inv-7" })).plan.outcome).toBe("completed");
  });
});

describe("payout transitions", () => {
  /** A merchant with one processing payout "p" (completes by default) and one pending_approval "big". */
  function withPayouts(plan: Partial<PayoutRequest> = {}) {
    const world = setup({ balance: 2_000_000 });
    const { ctx, state } = world;
    const p = createPayout(ctx, state, payoutRequest({ reference: "p", ...plan }));
    const big = createPayout(ctx, state, payoutRequest({ reference: "big", amount: toMinor(1_000_000) }));
    ctx.now = T0 + 10_000;
    return { ...world, p, big, balance: balanceOf(state) };
  }

  it("approve sends a pending_approval payout, scheduled from the approval", () => {
    const { ctx, state, big } = withPayouts();
    expect(approvePayout(ctx, state, "big")).toBe(big);
    expect(big.status).toBe("processing");
    expect(state.timers.find((t) => t.ref === "big")).toMatchObject({ at: T0 + 40_000, kind: "payout.settle" });
    const err = expectRefusal(state, () => approvePayout(ctx, state, "big"), "INVALID_STATE");
    expect(err.message).toBe("Payout big is processing; only a pending_approval payout can be approved.");
  });

  it("reject fails a pending_approval payout, returning amount + fee and releasing its volume", () => {
    const { ctx, state, big, balance } = withPayouts();
    rejectPayout(ctx, state, "big");
    expect(big).toMatchObject({ status: "failed", processed_at: T0 + 10_000, error: "Rejected by an administrator" });
    expect(state.ledger.at(-1)).toMatchObject({
      kind: "payout_reversal",
      amount: big.total_deducted,
      transaction_id: big.order_no,
      description: "Reversal of payout big: Rejected by an administrator",
      at: T0 + 10_000,
    });
    expect(balanceOf(state)).toBe(balance + big.total_deducted);
    expect(volumeUsed(state.windows.payoutVolume, ctx.now)).toEqual({ hour: toMinor(5_000), day: toMinor(5_000) });
    expect(eventTypes(state)).toEqual(["payout.failed"]);
    expect(state.outbox).toEqual([...state.events.keys()]);
    expectRefusal(state, () => rejectPayout(ctx, state, "p", "no"), "INVALID_STATE");
  });

  it("reject keeps the reason given", () => {
    const { ctx, state, big } = withPayouts();
    rejectPayout(ctx, state, "big", "Suspicious beneficiary");
    expect(big.error).toBe("Suspicious beneficiary");
  });

  it("complete settles a processing payout now and cancels its timer", () => {
    const { ctx, state, p, balance } = withPayouts();
    expect(completePayout(ctx, state, "p")).toBe(p);
    expect(p).toMatchObject({ status: "completed", processed_at: T0 + 10_000, error: null });
    expect(state.timers).toEqual([]);
    expect(balanceOf(state)).toBe(balance);
    expect(eventTypes(state)).toEqual(["payout.completed"]);
    expect(expectRefusal(state, () => completePayout(ctx, state, "p"), "INVALID_STATE").message).toBe(
      "Payout p is completed; only a processing payout can be completed.",
    );
    expect(expectRefusal(state, () => completePayout(ctx, state, "big"), "INVALID_STATE").message).toBe(
      "Payout big is pending_approval; only a processing payout can be completed.",
    );
  });

  it("fail reverses a processing payout with the reason, else the plan's error, else the default", () => {
    const { ctx, state, p, balance } = withPayouts();
    failPayout(ctx, state, "p");
    expect(p).toMatchObject({ status: "failed", processed_at: T0 + 10_000, error: "Transfer failed at the beneficiary bank" });
    expect(balanceOf(state)).toBe(balance + p.total_deducted);
    expect(state.timers).toEqual([]);
    expect(volumeUsed(state.windows.payoutVolume, ctx.now).hour).toBe(toMinor(1_000_000));
    expectRefusal(state, () => failPayout(ctx, state, "p"), "INVALID_STATE");

    const magic = withPayouts({ account_number: "0000000000" });
    expect(failPayout(magic.ctx, magic.state, "p").error).toBe("Beneficiary account not found");
    const given = withPayouts();
    expect(failPayout(given.ctx, given.state, "p", "Bank offline").error).toBe("Bank offline");
  });

  it("every transition of an unknown reference is NOT_FOUND", () => {
    const { ctx, state } = withPayouts();
    for (const act of [approvePayout, rejectPayout, completePayout, failPayout]) {
      expect(expectRefusal(state, () => act(ctx, state, "nope"), "NOT_FOUND").message).toBe("No payout with reference nope.");
    }
  });
});

describe("settlePayoutWhenDue", () => {
  it("applies the plan at the timer's time", () => {
    const { ctx, state } = setup({ balance: 100_000 });
    const ok = createPayout(ctx, state, payoutRequest({ reference: "ok" }));
    const bad = createPayout(ctx, state, payoutRequest({ reference: "bad", account_number: "1234560001" }));
    ctx.now = T0 + 30_000;
    expect(settlePayoutWhenDue(ctx, state, "ok")).toBe(ok);
    expect(settlePayoutWhenDue(ctx, state, "bad")).toBe(bad);
    expect([ok.status, ok.processed_at, bad.status, bad.error]).toEqual(["completed", T0 + 30_000, "failed", "Transfer failed at the beneficiary bank"]);
    expect(balanceOf(state)).toBe(toMinor(100_000 - 5_050));
  });

  it("is a no-op after a forced transition, for a held plan, a pending_approval payout or an unknown reference", () => {
    const { ctx, state } = setup({ balance: 3_000_000 });
    createPayout(ctx, state, payoutRequest({ reference: "forced" }));
    createPayout(ctx, state, payoutRequest({ reference: "held", account_number: "1234560002" }));
    createPayout(ctx, state, payoutRequest({ reference: "big", amount: toMinor(1_000_000) }));
    failPayout(ctx, state, "forced");
    ctx.now = T0 + 30_000;
    const before = structuredClone(state);
    for (const ref of ["forced", "held", "big", "nope"]) expect(settlePayoutWhenDue(ctx, state, ref)).toBeUndefined();
    expect(state).toEqual(before);
  });
});

describe("payout views", () => {
  it("show Naira, the masked account and the status record's extras", () => {
    const { ctx, state } = setup({ balance: 100_000 });
    const p = createPayout(ctx, state, payoutRequest({ reference: "v", amount: toMinor(150.55) }));
    expect(payoutView(p)).toEqual({
      reference: "v",
      amount: 150.55,
      fee: 1.51,
      total_deducted: 152.06,
      net_amount: 150.55,
      order_no: p.order_no,
      transaction_id: p.order_no,
      status: "processing",
      account: "****0018",
      account_name: "EZE FUNMILAYO IBRAHIM",
      bank_name: "Guaranty Trust Bank",
      narration: null,
      created_at: "2026-01-05T09:00:00.000Z",
    });
    expect(payoutStatusView(p)).toMatchObject({ processed_at: null, source: "api", error: null });
  });
});
