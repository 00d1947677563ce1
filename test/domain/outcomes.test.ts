import { describe, expect, it } from "vitest";
import { MAX_OUTCOME_RULES } from "../../src/domain/bounds.js";
import {
  addRule,
  bankOutage,
  cardFundFails,
  clearRules,
  deleteRule,
  isMagicAccount,
  isUnknownMeterOrCard,
  localPhone,
  planKyc,
  planNameEnquiry,
  planPayout,
  planResponseFault,
  planVtu,
  SLOW_RESPONSE_SECONDS,
  takeRule,
} from "../../src/domain/outcomes.js";
import { expectRefusal, fieldsOf, setup, T0 } from "./context.js";

describe("takeRule", () => {
  it("takes the newest rule of the target whose fields all match", () => {
    const { ctx, state } = setup();
    addRule(ctx, state, { target: "payout", outcome: "completed" });
    addRule(ctx, state, { target: "payout", match: { bank_code: "058" }, outcome: "failed" });
    addRule(ctx, state, { target: "payout", match: { bank_code: "058", narration: "x" }, outcome: "processing" });
    addRule(ctx, state, { target: "vtu", outcome: "fail" });
    expect(takeRule(ctx, state, "payout", { bank_code: "058" })?.id).toBe("rule_2");
    expect(takeRule(ctx, state, "payout", { bank_code: "044" })?.id).toBe("rule_1");
    expect(takeRule(ctx, state, "payout", { bank_code: "058", narration: "X" })?.id).toBe("rule_3");
    expect(takeRule(ctx, state, "kyc", {})).toBeUndefined();
  });

  it("compares as text, case-insensitively; a missing or null fact never matches", () => {
    const { ctx, state } = setup();
    addRule(ctx, state, { target: "vtu", match: { network: "MTN", amount: 5000, flag: true }, outcome: "fail" });
    expect(takeRule(ctx, state, "vtu", { network: "mtn", amount: "5000", flag: "TRUE" })?.id).toBe("rule_1");
    expect(takeRule(ctx, state, "vtu", { network: "mtn", amount: 5000 })).toBeUndefined();
    expect(takeRule(ctx, state, "vtu", { network: "mtn", amount: 5000, flag: null })).toBeUndefined();
    expect(takeRule(ctx, state, "vtu", { network: "mtn", amount: "5000.00", flag: true })).toBeUndefined();
  });

  it("consumes `times`, handing back the rule as it was, and removes it when used up", () => {
    const { ctx, state } = setup();
    addRule(ctx, state, { target: "kyc", outcome: "pending", times: 2 });
    expect(takeRule(ctx, state, "kyc", {})).toMatchObject({ id: "rule_1", times: 2 });
    expect(state.outcomeRules[0]!.times).toBe(1);
    expect(takeRule(ctx, state, "kyc", {})).toMatchObject({ id: "rule_1", times: 1 });
    expect(state.outcomeRules).toEqual([]);
    expect(takeRule(ctx, state, "kyc", {})).toBeUndefined();
  });

  it("a rule without `times` lasts until deleted", () => {
    const { ctx, state } = setup();
    addRule(ctx, state, { target: "kyc", outcome: "pending" });
    for (let i = 0; i < 5; i++) expect(takeRule(ctx, state, "kyc", {})?.times).toBeNull();
    deleteRule(state, "rule_1");
    expect(takeRule(ctx, state, "kyc", {})).toBeUndefined();
    expect(expectRefusal(state, () => deleteRule(state, "rule_1"), "NOT_FOUND").message).toBe("No outcome rule rule_1.");
  });
});

describe("addRule and clearRules", () => {
  it("records the rule with a per-merchant id; an empty match is no match", () => {
    const { ctx, state } = setup();
    expect(addRule(ctx, state, { target: "webhook", match: {}, outcome: "delay", delay_seconds: 90, times: 3 })).toEqual({
      id: "rule_1",
      target: "webhook",
      match: null,
      outcome: "delay",
      delay_seconds: 90,
      times: 3,
      window_seconds: null,
      queries: null,
      created_at: T0,
    });
    expect(addRule(ctx, state, { target: "webhook", outcome: "drop" })).toMatchObject({ id: "rule_2", match: null, delay_seconds: null, times: null });
  });

  it("refuses an outcome its target does not have, adding nothing", () => {
    const { ctx, state } = setup();
    const err = expectRefusal(state, () => addRule(ctx, state, { target: "payout", outcome: "success" }), "VALIDATION_ERROR");
    expect(fieldsOf(err)).toEqual({ outcome: ["For target payout the outcome must be one of: completed, failed, processing."] });
  });

  it("holds at most 100 rules", () => {
    const { ctx, state } = setup();
    for (let i = 0; i < MAX_OUTCOME_RULES; i++) addRule(ctx, state, { target: "kyc", outcome: "approved" });
    const err = expectRefusal(state, () => addRule(ctx, state, { target: "kyc", outcome: "approved" }), "VALIDATION_ERROR");
    expect(fieldsOf(err)).toEqual({ target: ["A merchant holds at most 100 outcome rules: delete some first (DELETE /sandbox/v1/outcomes)."] });
    expect(clearRules(state)).toBe(100);
    expect(state.outcomeRules).toEqual([]);
    expect(addRule(ctx, state, { target: "kyc", outcome: "approved" }).id).toBe("rule_101"); // ids are never reused
    expect(clearRules(state)).toBe(1);
  });
});

describe("planPayout", () => {
  const facts = (account_number: string, more: Record<string, unknown> = {}) => ({ account_number, bank_code: "058", amount: 5_000, reference: "r", ...more });

  it("magic account endings, else completed, after the merchant's settlement delay", () => {
    const { ctx, state } = setup({ settings: { delays: { payout_settlement_seconds: 45 } } });
    expect(planPayout(ctx, state, facts("1234560000"))).toEqual({ outcome: "failed", delay_ms: 45_000, error: "Beneficiary account not found", queries: null });
    expect(planPayout(ctx, state, facts("1234560001"))).toEqual({ outcome: "failed", delay_ms: 45_000, error: "Transfer failed at the beneficiary bank", queries: null });
    expect(planPayout(ctx, state, facts("1234560002"))).toEqual({ outcome: "hold", delay_ms: 45_000, error: null, queries: null });
    expect(planPayout(ctx, state, facts("1234560003"))).toEqual({ outcome: "failed", delay_ms: 7_200_000, error: "Transfer reversed by the beneficiary bank", queries: null });
    expect(planPayout(ctx, state, facts("1234560004"))).toEqual({ outcome: "completed", delay_ms: 45_000, error: null, queries: 3 });
    expect(planPayout(ctx, state, facts("1234560005"))).toEqual({ outcome: "failed", delay_ms: 45_000, error: "Transfer failed at the beneficiary bank", queries: 3 });
    for (const ending of ["0006", "0007", "0008", "0009", "0010", "1003"]) {
      expect(planPayout(ctx, state, facts(`123456${ending}`)), ending).toEqual({ outcome: "completed", delay_ms: 45_000, error: null, queries: null });
    }
  });

  it("a matching rule wins over a magic account, with its own delay", () => {
    const { ctx, state } = setup();
    addRule(ctx, state, { target: "payout", match: { reference: "R" }, outcome: "completed", delay_seconds: 0 });
    addRule(ctx, state, { target: "payout", match: { reference: "held" }, outcome: "processing" });
    addRule(ctx, state, { target: "payout", match: { reference: "bad" }, outcome: "failed", delay_seconds: 7 });
    expect(planPayout(ctx, state, facts("1234560000"))).toEqual({ outcome: "completed", delay_ms: 0, error: null, queries: null });
    expect(planPayout(ctx, state, facts("1234561003", { reference: "held" }))).toEqual({ outcome: "hold", delay_ms: 30_000, error: null, queries: null });
    expect(planPayout(ctx, state, facts("1234561003", { reference: "bad" }))).toEqual({ outcome: "failed", delay_ms: 7_000, error: "Transfer failed at the beneficiary bank", queries: null });
  });

  it("magic accounts are those ending 0000 to 0010", () => {
    const endings = ["0000", "0001", "0002", "0003", "0004", "0005", "0006", "0007", "0008", "0009", "0010", "0011", "0100", "1000", "1003"];
    expect(endings.filter((end) => isMagicAccount(`123456${end}`))).toEqual(endings.slice(0, 11));
  });
});

describe("planVtu", () => {
  it("magic phones in any form, and one-digit meters and smart cards, choose the outcome", () => {
    const { ctx, state } = setup();
    const plan = (details: Record<string, unknown>) => {
      const p = planVtu(ctx, state, details);
      return `${p.now}/${p.then}`;
    };
    const phones = ["08011111111", "2348022222222", "+2348033333333", "08044444444", "08055555555", "08066666666", "+2348077777777", "08088888888"];
    expect(phones.map((phone) => plan({ phone }))).toEqual([
      "success/success",
      "processing/success",
      "processing/fail",
      "fail/fail",
      "processing/hold",
      "processing/success",
      "processing/fail",
      "success/success",
    ]);
    expect(phones.map((phone) => planVtu(ctx, state, { phone }).queries)).toEqual([null, null, null, null, null, 3, 3, null]);
    expect(planVtu(ctx, state, { meter_number: "66666666666" })).toMatchObject({ now: "processing", then: "success", queries: 3 });
    expect(plan({ meter_number: "44444444444" })).toBe("fail/fail");
    expect(plan({ smart_card_number: "5555555555" })).toBe("processing/hold");
    expect(plan({ smart_card_number: "5555555554" })).toBe("success/success");
    expect(plan({ phone: "08031234567", smart_card_number: "3333333333" })).toBe("processing/fail");
    expect(plan({ phone: "08011111111", smart_card_number: "3333333333" })).toBe("success/success"); // the phone first
    expect(plan({ phone: "0801111111" })).toBe("success/success"); // ten digits: not magic, the default
    expect(planVtu(ctx, state, {}).delay_ms).toBe(60_000);
  });

  it("a matching rule wins, with its delay", () => {
    const { ctx, state } = setup();
    addRule(ctx, state, { target: "vtu", match: { service: "airtime" }, outcome: "processing_fail", delay_seconds: 3 });
    expect(planVtu(ctx, state, { service: "airtime", phone: "08011111111" })).toEqual({ now: "processing", then: "fail", delay_ms: 3_000, queries: null });
  });

  it("phones in 234 and +234 forms are the local 0 form", () => {
    expect([localPhone("+2348031234567"), localPhone("2348031234567"), localPhone("08031234567")]).toEqual(["08031234567", "08031234567", "08031234567"]);
  });

  it("meters and smart cards of all zeros are unknown", () => {
    expect([isUnknownMeterOrCard("0000000000"), isUnknownMeterOrCard("0000000001"), isUnknownMeterOrCard("1111")]).toEqual([true, false, false]);
  });
});

describe("planKyc, cardFundFails, accountResolves", () => {
  it("KYC approves after the delay unless the email starts pending+ (any case) or a rule says so", () => {
    const { ctx, state } = setup();
    expect(planKyc(ctx, state, { email: "a@example.com" })).toEqual({ approve: true, delay_ms: 120_000 });
    expect(planKyc(ctx, state, { email: "PENDING+a@example.com" })).toEqual({ approve: false, delay_ms: 120_000 });
    addRule(ctx, state, { target: "kyc", match: { email: "PENDING+b@example.com" }, outcome: "approved", delay_seconds: 1 });
    expect(planKyc(ctx, state, { email: "pending+b@example.com" })).toEqual({ approve: true, delay_ms: 1_000 });
  });

  it("card funding fails for 13.13 USD, or a rule naming the amount in USD", () => {
    const { ctx, state } = setup();
    expect([cardFundFails(ctx, state, { card_id: 1, amount: 1_313 }), cardFundFails(ctx, state, { card_id: 1, amount: 1_312 })]).toEqual([true, false]);
    addRule(ctx, state, { target: "card_fund", match: { card_id: 2, amount: "7.5" }, outcome: "failed", times: 1 });
    expect(cardFundFails(ctx, state, { card_id: 1, amount: 750 })).toBe(false);
    expect(cardFundFails(ctx, state, { card_id: 2, amount: 750 })).toBe(true);
    expect(cardFundFails(ctx, state, { card_id: 2, amount: 750 })).toBe(false);
  });

  it("an account ending 0000, or one a verify_account rule names, does not resolve", () => {
    const { ctx, state } = setup();
    const enquiry = (account_number: string) => planNameEnquiry(ctx, state, { bank_code: "058", account_number }).outcome;
    expect(enquiry("1234560000")).toBe("not_found");
    expect(enquiry("1234560001")).toBe("resolves");
    addRule(ctx, state, { target: "verify_account", match: { account_number: "0000000018" }, outcome: "not_found", times: 1 });
    expect(enquiry("0000000018")).toBe("not_found");
    expect(enquiry("0000000018")).toBe("resolves");
  });
});

describe("bankOutage", () => {
  it("a bank rule down makes its bank unavailable for window_seconds on the merchant's clock, then it answers again", () => {
    const { ctx, state } = setup();
    addRule(ctx, state, { target: "bank", match: { bank_code: "058" }, outcome: "down", window_seconds: 600 });
    expect(bankOutage(ctx, state, "058")).toEqual({ until: T0 + 600_000 });
    expect(bankOutage(ctx, state, "044")).toBeUndefined();
    ctx.now = T0 + 599_999;
    expect(bankOutage(ctx, state, "058")).toEqual({ until: T0 + 600_000 });
    ctx.now = T0 + 600_000;
    expect(bankOutage(ctx, state, "058")).toBeUndefined();
  });

  it("without window_seconds the outage has no end until its rule is deleted", () => {
    const { ctx, state } = setup();
    const rule = addRule(ctx, state, { target: "bank", outcome: "down" });
    ctx.now = T0 + 365 * 86_400_000;
    expect(bankOutage(ctx, state, "033")).toEqual({ until: null });
    deleteRule(state, rule.id);
    expect(bankOutage(ctx, state, "033")).toBeUndefined();
  });
});

describe("planResponseFault", () => {
  const payout = (account_number: string, extra: Record<string, unknown> = {}) => ({ operation: "createPayout", bank_code: "058", account_number, ...extra });

  it("magic payout endings 0006 to 0009 spoil the answer; a slow one waits SLOW_RESPONSE_SECONDS", () => {
    const { ctx, state } = setup();
    expect(planResponseFault(ctx, state, payout("0123450006"))).toEqual({ operation: "createPayout", outcome: "connection_reset", delay_ms: 0 });
    expect(planResponseFault(ctx, state, payout("0123450007"))).toEqual({ operation: "createPayout", outcome: "slow_response", delay_ms: SLOW_RESPONSE_SECONDS * 1000 });
    expect(planResponseFault(ctx, state, payout("0123450008"))).toEqual({ operation: "createPayout", outcome: "server_error", delay_ms: 0 });
    expect(planResponseFault(ctx, state, payout("0123450009"))).toEqual({ operation: "createPayout", outcome: "gateway_timeout", delay_ms: 0 });
    expect(planResponseFault(ctx, state, payout("0123450001"))).toBeUndefined();
    // The endings are payout accounts only: another operation with such a field is untouched.
    expect(planResponseFault(ctx, state, { operation: "buyAirtime", account_number: "0123450006" })).toBeUndefined();
  });

  it("a response rule matches the operation and the request's fields, wins over magic, and counts its times", () => {
    const { ctx, state } = setup();
    addRule(ctx, state, { target: "response", match: { operation: "buyAirtime", phone: "08031234567" }, outcome: "slow_response", delay_seconds: 2, times: 1 });
    addRule(ctx, state, { target: "response", match: { operation: "createPayout", reference: "r-1" }, outcome: "server_error" });
    expect(planResponseFault(ctx, state, { operation: "buyAirtime", phone: "08030000000" })).toBeUndefined();
    expect(planResponseFault(ctx, state, { operation: "buyAirtime", phone: "08031234567" })).toEqual({ operation: "buyAirtime", outcome: "slow_response", delay_ms: 2_000 });
    expect(planResponseFault(ctx, state, { operation: "buyAirtime", phone: "08031234567" })).toBeUndefined();
    expect(planResponseFault(ctx, state, payout("0123450006", { reference: "r-1" }))).toEqual({ operation: "createPayout", outcome: "server_error", delay_ms: 0 });
  });

  it("operations that move no money are never faulted, whatever the rules say", () => {
    const { ctx, state } = setup();
    addRule(ctx, state, { target: "response", outcome: "connection_reset" });
    expect(planResponseFault(ctx, state, { operation: "verifyAccount" })).toBeUndefined();
    expect(planResponseFault(ctx, state, { operation: "getPayoutStatus" })).toBeUndefined();
    expect(planResponseFault(ctx, state, { operation: "createPayout" })).toEqual({ operation: "createPayout", outcome: "connection_reset", delay_ms: 0 });
  });
});
