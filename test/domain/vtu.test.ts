import { describe, expect, it } from "vitest";
import { balanceOf } from "../../src/domain/ledger.js";
import { toMinor } from "../../src/domain/money.js";
import { addRule } from "../../src/domain/outcomes.js";
import {
  priceAirtime,
  priceCable,
  priceData,
  priceElectricity,
  priceExam,
  purchase,
  purchaseResultView,
  settleVtuNow,
  settleVtuWhenDue,
  vtuRecordView,
} from "../../src/domain/vtu.js";
import { expectRefusal, fieldsOf, setup, T0 } from "./context.js";

const airtimePriced = (phone: string, amount = 100) => priceAirtime({ network: "mtn", phone, amount: toMinor(amount), airtime_type: "VTU" });
const prepaid = (ctx: ReturnType<typeof setup>["ctx"], meter_number: string) =>
  priceElectricity(ctx, { disco_id: 1, meter_number, meter_type: "Prepaid", amount: toMinor(1_000) });

describe("pricing", () => {
  it("airtime costs its amount", () => {
    expect(airtimePriced("08031234567")).toEqual({
      service: "airtime",
      amount: 10_000,
      description: "MTN VTU airtime of NGN 100.00 to 08031234567",
      details: { network: "mtn", phone: "08031234567", airtime_type: "VTU" },
      issues: null,
    });
    expect(priceAirtime({ network: "9mobile", phone: "0809", amount: 5_000, airtime_type: "Sharesell" }).description).toBe("9mobile Sharesell airtime of NGN 50.00 to 0809");
  });

  it("data costs the catalogue plan's price", () => {
    const { ctx, state } = setup();
    expect(priceData(ctx, { phone: "08031234567", data_plan_id: 101 })).toEqual({
      service: "data",
      amount: toMinor(130),
      description: "MTN SME 500MB - 30 Days to 08031234567",
      details: { network: "mtn", phone: "08031234567", data_plan_id: 101, plan: "MTN SME 500MB - 30 Days" },
      issues: null,
    });
    expect(fieldsOf(expectRefusal(state, () => priceData(ctx, { phone: "0803", data_plan_id: 9 }), "VALIDATION_ERROR"))).toEqual({
      data_plan_id: ["Unknown data plan: use an id from GET /api/v1/vtu/data-plans."],
    });
  });

  it("cable costs the plan's price and refuses an all-zero smart card", () => {
    const { ctx, state } = setup();
    expect(priceCable(ctx, { cable_plan_id: 201, smart_card_number: "1234567890" })).toEqual({
      service: "cable",
      amount: toMinor(4_400),
      description: "DStv Padi (1 month) for smart card 1234567890",
      details: { provider_name: "DSTV", cable_plan_id: 201, plan: "DStv Padi", smart_card_number: "1234567890", phone: null },
      issues: null,
    });
    expect(fieldsOf(expectRefusal(state, () => priceCable(ctx, { cable_plan_id: 201, smart_card_number: "0000000000" }), "VALIDATION_ERROR"))).toEqual({
      smart_card_number: ["DSTV could not find smart card 0000000000."],
    });
    expect(Object.keys(fieldsOf(expectRefusal(state, () => priceCable(ctx, { cable_plan_id: 1, smart_card_number: "1" }), "VALIDATION_ERROR")))).toEqual(["cable_plan_id"]);
  });

  it("electricity costs its amount; only prepaid issues a token; an all-zero meter is refused", () => {
    const { ctx, state } = setup();
    expect(prepaid(ctx, "12345678901")).toEqual({
      service: "electricity",
      amount: toMinor(1_000),
      description: "Ikeja Electric prepaid NGN 1000.00 for meter 12345678901",
      details: { disco_id: 1, disco: "IKEDC", meter_number: "12345678901", meter_type: "Prepaid", customer_name: null, customer_address: null, customer_phone: null },
      issues: "token",
    });
    expect(priceElectricity(ctx, { disco_id: 1, meter_number: "12345678901", meter_type: "Postpaid", amount: 50_000 }).issues).toBeNull();
    expect(fieldsOf(expectRefusal(state, () => prepaid(ctx, "00000000000"), "VALIDATION_ERROR"))).toEqual({ meter_number: ["IKEDC could not find meter 00000000000."] });
    expect(Object.keys(fieldsOf(expectRefusal(state, () => priceElectricity(ctx, { disco_id: 99, meter_number: "1", meter_type: "Prepaid", amount: 1 }), "VALIDATION_ERROR")))).toEqual(["disco_id"]);
  });

  it("exam pins cost quantity x selling price", () => {
    const { ctx, state } = setup();
    expect(priceExam(ctx, { exam_type_id: 301, quantity: 3 })).toEqual({
      service: "exam",
      amount: 3 * toMinor(3_900),
      description: "3 x WAEC Result Checker PIN",
      details: { exam_type_id: 301, exam: "WAEC", quantity: 3 },
      issues: "pins",
      quantity: 3,
    });
    expect(Object.keys(fieldsOf(expectRefusal(state, () => priceExam(ctx, { exam_type_id: 1, quantity: 1 }), "VALIDATION_ERROR")))).toEqual(["exam_type_id"]);
  });
});

describe("purchase", () => {
  it("success: debits once, settles at once with no timer", () => {
    const { ctx, state } = setup({ balance: 1_000 });
    const p = purchase(ctx, state, airtimePriced("08031234567"));
    expect(p).toEqual({
      reference: expect.stringMatching(/^VTU_[0-9A-Z]{16}$/),
      transaction_id: expect.stringMatching(/^TXN_[0-9A-Z]{16}$/),
      service: "airtime",
      amount: 10_000,
      status: "success",
      message: "Transaction successful",
      description: "MTN VTU airtime of NGN 100.00 to 08031234567",
      token: null,
      pins: null,
      details: { network: "mtn", phone: "08031234567", airtime_type: "VTU" },
      issues: null,
      plan: null,
      created_at: T0,
      settled_at: T0,
    });
    expect(state.vtu.get(p.reference)).toBe(p);
    expect(state.ledger.at(-1)).toMatchObject({ kind: "vtu_purchase", amount: -10_000, transaction_id: p.transaction_id, description: p.description });
    expect(balanceOf(state)).toBe(toMinor(900));
    expect(state.timers).toEqual([]);
  });

  it("fail: refunded at once under the same transaction_id", () => {
    const { ctx, state } = setup({ balance: 1_000 });
    const p = purchase(ctx, state, airtimePriced("08044444444"));
    expect(p).toMatchObject({ status: "fail", message: "Transaction failed. Your wallet has been refunded.", plan: null, settled_at: T0 });
    expect(state.ledger.slice(1).map((e) => [e.kind, e.amount, e.transaction_id])).toEqual([
      ["vtu_purchase", -10_000, p.transaction_id],
      ["vtu_refund", 10_000, p.transaction_id],
    ]);
    expect(state.ledger.at(-1)!.description).toBe(`Refund: ${p.description}`);
    expect(balanceOf(state)).toBe(toMinor(1_000));
  });

  it("processing then success: a timer at the VTU delay settles it, issuing what it issues then", () => {
    const { ctx, state } = setup({ balance: 2_000 });
    const p = purchase(ctx, state, prepaid(ctx, "22222222222"));
    expect(p).toMatchObject({ status: "processing", message: "Transaction is processing; poll the status endpoint for the final outcome.", token: null, plan: { then: "success", delay_ms: 60_000 }, settled_at: null });
    expect(state.timers).toEqual([{ at: T0 + 60_000, seq: 1, kind: "vtu.settle", merchantId: ctx.config.merchant_id, ref: p.reference }]);
    ctx.now = T0 + 60_000;
    expect(settleVtuWhenDue(ctx, state, p.reference)).toBe(p);
    expect(p).toMatchObject({ status: "success", settled_at: T0 + 60_000 });
    expect(p.token).toMatch(/^\d{4}(-\d{4}){4}$/);
    expect(balanceOf(state)).toBe(toMinor(1_000));
    expect(settleVtuWhenDue(ctx, state, p.reference)).toBeUndefined();
  });

  it("processing then fail: refunded at settlement, no token", () => {
    const { ctx, state } = setup({ balance: 2_000 });
    const p = purchase(ctx, state, prepaid(ctx, "33333333333"));
    ctx.now = T0 + 60_000;
    settleVtuWhenDue(ctx, state, p.reference);
    expect(p).toMatchObject({ status: "fail", token: null, settled_at: T0 + 60_000 });
    expect(state.ledger.at(-1)).toMatchObject({ kind: "vtu_refund", amount: toMinor(1_000), at: T0 + 60_000 });
    expect(balanceOf(state)).toBe(toMinor(2_000));
  });

  it("processing on hold: no timer, the timer entry point does nothing, a forced settlement does", () => {
    const { ctx, state } = setup({ balance: 2_000 });
    const p = purchase(ctx, state, airtimePriced("08055555555"));
    expect(p.plan).toEqual({ then: "hold", delay_ms: 60_000, queries: null });
    expect(state.timers).toEqual([]);
    expect(settleVtuWhenDue(ctx, state, p.reference)).toBeUndefined();
    expect(p.status).toBe("processing");
    expect(settleVtuNow(ctx, state, p.reference, "fail")).toBe(p);
    expect(p.status).toBe("fail");
    expect(balanceOf(state)).toBe(toMinor(2_000));
  });

  it("settleVtuNow cancels the pending timer and refuses a settled purchase or unknown reference", () => {
    const { ctx, state } = setup({ balance: 2_000 });
    const p = purchase(ctx, state, airtimePriced("08022222222"));
    const other = purchase(ctx, state, airtimePriced("2348022222222"));
    settleVtuNow(ctx, state, p.reference, "success");
    expect(state.timers.map((t) => t.ref)).toEqual([other.reference]);
    expect(expectRefusal(state, () => settleVtuNow(ctx, state, p.reference, "fail"), "INVALID_STATE").message).toBe(
      `VTU purchase ${p.reference} is success; only a processing purchase can be settled.`,
    );
    expect(expectRefusal(state, () => settleVtuNow(ctx, state, "VTU_X", "fail"), "NOT_FOUND").message).toBe("No VTU transaction with reference VTU_X.");
    expect(settleVtuWhenDue(ctx, state, "VTU_X")).toBeUndefined();
  });

  it("issues a token or pins only on success", () => {
    const { ctx, state } = setup({ balance: 100_000 });
    expect(purchase(ctx, state, prepaid(ctx, "11111111111")).token).toMatch(/^\d{4}(-\d{4}){4}$/);
    expect(purchase(ctx, state, prepaid(ctx, "44444444444")).token).toBeNull();
    const pins = purchase(ctx, state, priceExam(ctx, { exam_type_id: 301, quantity: 2 })).pins!;
    expect(pins).toHaveLength(2);
    for (const pin of pins) {
      expect(pin.pin).toMatch(/^\d{12}$/);
      expect(pin.serial).toMatch(/^SN\d{10}$/);
    }
    addRule(ctx, state, { target: "vtu", match: { service: "exam" }, outcome: "fail" });
    expect(purchase(ctx, state, priceExam(ctx, { exam_type_id: 301, quantity: 2 })).pins).toBeNull();
    expect(purchase(ctx, state, airtimePriced("08031234567")).token).toBeNull(); // airtime issues nothing
  });

  it("refuses what the wallet cannot cover, consuming no rule", () => {
    const { ctx, state } = setup({ balance: 99.99 });
    addRule(ctx, state, { target: "vtu", outcome: "fail", times: 1 });
    expectRefusal(state, () => purchase(ctx, state, airtimePriced("08031234567")), "INSUFFICIENT_BALANCE");
  });
});

describe("VTU views", () => {
  it("the purchase result says success false only for fail; the record capitalises its status", () => {
    const { ctx, state } = setup({ balance: 100_000 });
    const failed = purchase(ctx, state, airtimePriced("08044444444"));
    const processing = purchase(ctx, state, airtimePriced("08055555555"));
    const exam = purchase(ctx, state, priceExam(ctx, { exam_type_id: 302, quantity: 1 }));
    expect(purchaseResultView(failed)).toEqual({ success: false, status: "fail", message: failed.message, reference: failed.reference, token: null, amount: 100, transaction_id: failed.transaction_id });
    expect(purchaseResultView(processing).success).toBe(true);
    expect(purchaseResultView(exam).pins).toEqual(exam.pins);
    expect(vtuRecordView(failed)).toMatchObject({ success: true, type: "debit", status: "Failed", date: "2026-01-05T09:00:00.000Z" });
    expect(vtuRecordView(processing).status).toBe("Processing");
    expect(vtuRecordView(exam)).toMatchObject({ status: "Success", amount: 1_300, pins: exam.pins });
  });
});
