/**
 * VTU endpoints under /api/v1/vtu: the product lists, the five purchases (debit first; success,
 * processing, or fail with an immediate refund), the transaction status record, insufficient balance
 * and the `vtu` capability.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { balanceOf, expectError, expectLedgerConsistent, harness, START, type Merchant, type Reply } from "./helpers.js";

const fixture = (name: string): any[] => JSON.parse(readFileSync(new URL(`../fixtures/${name}.json`, import.meta.url), "utf8"));
const DATA_PLANS = fixture("data-plans");
const CABLE_PLANS = fixture("cable-plans");
const DISCOS = fixture("discos");
const EXAM_TYPES = fixture("exam-types");

const TOKEN_FORMAT = /^\d{4}-\d{4}-\d{4}-\d{4}-\d{4}$/;
const FAIL_PHONE = "08044444444";
const PROCESSING_PHONE = "08022222222";

/** What a refused request must leave untouched. */
function snapshot(m: Merchant) {
  return { ledger: m.tenant.state.ledger.map((e) => ({ ...e })), vtu: m.tenant.state.vtu.size };
}

async function expectUnchanged(m: Merchant, before: ReturnType<typeof snapshot>, balance: number) {
  expect(m.tenant.state.ledger).toEqual(before.ledger);
  expect(m.tenant.state.vtu.size).toBe(before.vtu);
  expect(await balanceOf(m)).toBe(balance);
  expectLedgerConsistent(m.tenant);
}

/** The exact purchase result shape (top level, no data wrapper). */
function expectPurchase(res: Reply, status: "success" | "processing" | "fail", amount: number, token: "token" | null = null) {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data).toBeUndefined();
  expect(res.body).toMatchObject({
    success: status !== "fail",
    status,
    amount,
  });
  expect(typeof res.body.message).toBe("string");
  expect(res.body.message.length).toBeGreaterThan(0);
  expect(typeof res.body.reference).toBe("string");
  expect(res.body.reference.length).toBeGreaterThan(0);
  expect(typeof res.body.transaction_id).toBe("string");
  expect(res.body.transaction_id.length).toBeGreaterThan(0);
  if (token === "token") expect(res.body.token).toMatch(TOKEN_FORMAT);
  else expect(res.body.token).toBeNull();
}

/** The ledger entries of one purchase, by its transaction_id. */
function entriesOf(m: Merchant, transactionId: string) {
  return m.tenant.state.ledger.filter((e) => e.transaction_id === transactionId).map((e) => ({ kind: e.kind, amount: e.amount }));
}

const VALID_BODIES: Record<string, Record<string, unknown>> = {
  airtime: { network: "mtn", phone: "08031234567", amount: 100 },
  data: { phone: "08031234567", data_plan_id: 102 },
  cable: { cable_plan_id: 204, smart_card_number: "1234567890" },
  electricity: { disco_id: 1, meter_number: "45012345678", meter_type: "Prepaid", amount: 1_000 },
  exam: { exam_type_id: 301, quantity: 1 },
};

describe("GET /api/v1/vtu/data-plans", () => {
  it("lists every data plan of the fixture in a data wrapper", async () => {
    const m = await harness().merchant();
    const res = await m.call("GET", "/api/v1/vtu/data-plans");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: DATA_PLANS });
    expect(new Set(DATA_PLANS.map((p) => p.network))).toEqual(new Set(["mtn", "glo", "airtel", "9mobile"]));
  });

  it.each(["mtn", "glo", "airtel", "9mobile"])("filters by network=%s", async (network) => {
    const m = await harness().merchant();
    const res = await m.call("GET", `/api/v1/vtu/data-plans?network=${network}`);
    expect(res.status).toBe(200);
    const expected = DATA_PLANS.filter((p) => p.network === network);
    expect(expected.length).toBeGreaterThan(0);
    expect(res.body).toEqual({ success: true, data: expected });
  });

  it("refuses an unknown network with 422 VALIDATION_ERROR naming network", async () => {
    const m = await harness().merchant();
    const err = expectError(await m.call("GET", "/api/v1/vtu/data-plans?network=etisalat"), 422, "VALIDATION_ERROR");
    expect(Object.keys(err.errors ?? {})).toEqual(["network"]);
  });
});

describe("GET /api/v1/vtu/cable-plans", () => {
  it("lists every cable plan of the fixture in a data wrapper", async () => {
    const m = await harness().merchant();
    const res = await m.call("GET", "/api/v1/vtu/cable-plans");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: CABLE_PLANS });
  });

  it.each([
    ["DSTV", "DSTV"],
    ["dstv", "DSTV"],
    ["GOTV", "GOTV"],
    ["GOtv", "GOTV"],
    ["Startimes", "STARTIMES"],
    ["STARTIMES", "STARTIMES"],
  ])("filters by provider_name=%s (case-insensitive)", async (query, provider) => {
    const m = await harness().merchant();
    const res = await m.call("GET", `/api/v1/vtu/cable-plans?provider_name=${query}`);
    expect(res.status).toBe(200);
    const expected = CABLE_PLANS.filter((p) => p.provider_name === provider);
    expect(expected.length).toBeGreaterThan(0);
    expect(res.body).toEqual({ success: true, data: expected });
  });

  it("refuses an unknown provider_name with 422 VALIDATION_ERROR", async () => {
    const m = await harness().merchant();
    const err = expectError(await m.call("GET", "/api/v1/vtu/cable-plans?provider_name=Showmax"), 422, "VALIDATION_ERROR");
    expect(Object.keys(err.errors ?? {})).toEqual(["provider_name"]);
  });
});

describe("GET /api/v1/vtu/discos", () => {
  it("lists the 12 discos, Aba Power included, matching the fixture", async () => {
    const m = await harness().merchant();
    const res = await m.call("GET", "/api/v1/vtu/discos");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: DISCOS });
    expect(res.body.data).toHaveLength(12);
    expect(res.body.data.some((d: { name: string }) => /Aba Power/.test(d.name))).toBe(true);
    expect(res.body.data.every((d: { id: unknown }) => Number.isInteger(d.id))).toBe(true);
  });
});

describe("GET /api/v1/vtu/exam-types", () => {
  it("lists the exam types with selling_price, matching the fixture", async () => {
    const m = await harness().merchant();
    const res = await m.call("GET", "/api/v1/vtu/exam-types");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: EXAM_TYPES });
    for (const exam of res.body.data) {
      expect(Number.isInteger(exam.id)).toBe(true);
      expect(typeof exam.selling_price).toBe("number");
      expect(exam.selling_price).toBeGreaterThan(0);
    }
    const names = res.body.data.map((e: { name: string }) => e.name).join(" | ");
    for (const exam of ["WAEC", "NECO", "NABTEB", "JAMB UTME", "JAMB Direct Entry"]) expect(names).toContain(exam);
  });
});

describe("POST /api/v1/vtu/airtime", () => {
  it("buys airtime: 200, top-level result, wallet debited by the exact amount", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const res = await m.call("POST", "/api/v1/vtu/airtime", { body: { network: "mtn", phone: "08031234567", amount: 150.5 } });
    expectPurchase(res, "success", 150.5);
    expect(res.body).toEqual({
      success: true,
      status: "success",
      message: expect.any(String),
      reference: expect.any(String),
      token: null,
      amount: 150.5,
      transaction_id: expect.any(String),
    });
    expect(await balanceOf(m)).toBe(9_849.5);
    expect(entriesOf(m, res.body.transaction_id)).toEqual([{ kind: "vtu_purchase", amount: -15_050 }]);
    expectLedgerConsistent(m.tenant);
  });

  it("defaults airtime_type to VTU and accepts Sharesell", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const plain = await m.call("POST", "/api/v1/vtu/airtime", { body: { network: "glo", phone: "08051234567", amount: 100 } });
    expectPurchase(plain, "success", 100);
    expect(m.tenant.state.vtu.get(plain.body.reference)!.details.airtime_type).toBe("VTU");
    const share = await m.call("POST", "/api/v1/vtu/airtime", {
      body: { network: "airtel", phone: "08021234567", amount: 100, airtime_type: "Sharesell" },
    });
    expectPurchase(share, "success", 100);
    expect(m.tenant.state.vtu.get(share.body.reference)!.details.airtime_type).toBe("Sharesell");
    expect(await balanceOf(m)).toBe(9_800);
    expectLedgerConsistent(m.tenant);
  });

  it.each(["mtn", "glo", "airtel", "9mobile"])("accepts network %s", async (network) => {
    const m = await harness().merchant({ wallet_balance: 1_000 });
    const res = await m.call("POST", "/api/v1/vtu/airtime", { body: { network, phone: "08091234567", amount: 200 } });
    expectPurchase(res, "success", 200);
    expect(await balanceOf(m)).toBe(800);
    expectLedgerConsistent(m.tenant);
  });

  it.each([50, 50_000])("accepts the boundary amount %d", async (amount) => {
    const m = await harness().merchant({ wallet_balance: 100_000 });
    const res = await m.call("POST", "/api/v1/vtu/airtime", { body: { network: "mtn", phone: "08031234567", amount } });
    expectPurchase(res, "success", amount);
    expect(await balanceOf(m)).toBe(100_000 - amount);
    expectLedgerConsistent(m.tenant);
  });

  it.each([49.99, 50_000.01, 0, -100, 100.001])("refuses amount %d with 422 naming amount, nothing debited", async (amount) => {
    const m = await harness().merchant({ wallet_balance: 100_000 });
    const before = snapshot(m);
    const err = expectError(
      await m.call("POST", "/api/v1/vtu/airtime", { body: { network: "mtn", phone: "08031234567", amount } }),
      422,
      "VALIDATION_ERROR",
    );
    expect(Object.keys(err.errors ?? {})).toEqual(["amount"]);
    await expectUnchanged(m, before, 100_000);
  });

  it("refuses an unknown network and airtime_type, naming each field", async () => {
    const m = await harness().merchant({ wallet_balance: 1_000 });
    const before = snapshot(m);
    const err = expectError(
      await m.call("POST", "/api/v1/vtu/airtime", { body: { network: "etisalat", phone: "08031234567", amount: 100, airtime_type: "Bulk" } }),
      422,
      "VALIDATION_ERROR",
    );
    expect(Object.keys(err.errors ?? {}).sort()).toEqual(["airtime_type", "network"]);
    await expectUnchanged(m, before, 1_000);
  });

  it("names every missing required field", async () => {
    const m = await harness().merchant({ wallet_balance: 1_000 });
    const before = snapshot(m);
    const err = expectError(await m.call("POST", "/api/v1/vtu/airtime", { body: {} }), 422, "VALIDATION_ERROR");
    expect(Object.keys(err.errors ?? {}).sort()).toEqual(["amount", "network", "phone"]);
    await expectUnchanged(m, before, 1_000);
  });

  it.each(["08031234567", "2348031234567", "+2348031234567", "07061234567", "09011234567"])("accepts the Nigerian phone %s", async (phone) => {
    const m = await harness().merchant({ wallet_balance: 1_000 });
    const res = await m.call("POST", "/api/v1/vtu/airtime", { body: { network: "mtn", phone, amount: 100 } });
    expectPurchase(res, "success", 100);
    expect(await balanceOf(m)).toBe(900);
    expectLedgerConsistent(m.tenant);
  });

  it.each(["0803123456", "080312345678", "05031234567", "8031234567", "0803123456a", "+4478031234567", ""])(
    "refuses the phone %j with 422 naming phone",
    async (phone) => {
      const m = await harness().merchant({ wallet_balance: 1_000 });
      const before = snapshot(m);
      const err = expectError(
        await m.call("POST", "/api/v1/vtu/airtime", { body: { network: "mtn", phone, amount: 100 } }),
        422,
        "VALIDATION_ERROR",
      );
      expect(Object.keys(err.errors ?? {})).toEqual(["phone"]);
      await expectUnchanged(m, before, 1_000);
    },
  );

  it("refuses malformed JSON with 400 INVALID_JSON and debits nothing", async () => {
    const m = await harness().merchant({ wallet_balance: 1_000 });
    const before = snapshot(m);
    expectError(
      await m.call("POST", "/api/v1/vtu/airtime", { raw: '{"network": "mtn",', headers: { "content-type": "application/json" } }),
      400,
      "INVALID_JSON",
    );
    await expectUnchanged(m, before, 1_000);
  });

  it(`magic phone ${FAIL_PHONE}: 200, status fail, refunded at once by a reversal entry`, async () => {
    const m = await harness().merchant({ wallet_balance: 1_000 });
    const res = await m.call("POST", "/api/v1/vtu/airtime", { body: { network: "mtn", phone: FAIL_PHONE, amount: 300 } });
    expectPurchase(res, "fail", 300);
    expect(res.body.success).toBe(false);
    expect(await balanceOf(m)).toBe(1_000);
    expect(entriesOf(m, res.body.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -30_000 },
      { kind: "vtu_refund", amount: 30_000 },
    ]);
    expectLedgerConsistent(m.tenant);
  });

  it("magic fail phone also applies in international format", async () => {
    const m = await harness().merchant({ wallet_balance: 1_000 });
    const res = await m.call("POST", "/api/v1/vtu/airtime", { body: { network: "mtn", phone: "+2348044444444", amount: 300 } });
    expectPurchase(res, "fail", 300);
    expect(await balanceOf(m)).toBe(1_000);
    expectLedgerConsistent(m.tenant);
  });

  it.each([PROCESSING_PHONE, "08033333333"])("magic phone %s: status processing, wallet stays debited", async (phone) => {
    const m = await harness().merchant({ wallet_balance: 1_000 });
    const res = await m.call("POST", "/api/v1/vtu/airtime", { body: { network: "mtn", phone, amount: 300 } });
    expectPurchase(res, "processing", 300);
    expect(res.body.success).toBe(true);
    expect(await balanceOf(m)).toBe(700);
    expect(entriesOf(m, res.body.transaction_id)).toEqual([{ kind: "vtu_purchase", amount: -30_000 }]);
    expectLedgerConsistent(m.tenant);
  });

  it("magic phone 08011111111 forces success", async () => {
    const m = await harness().merchant({ wallet_balance: 1_000 });
    const res = await m.call("POST", "/api/v1/vtu/airtime", { body: { network: "mtn", phone: "08011111111", amount: 300 } });
    expectPurchase(res, "success", 300);
    expect(await balanceOf(m)).toBe(700);
    expectLedgerConsistent(m.tenant);
  });

  it("each purchase gets its own reference and transaction_id", async () => {
    const m = await harness().merchant({ wallet_balance: 1_000 });
    const body = { network: "mtn", phone: "08031234567", amount: 100 };
    const a = await m.call("POST", "/api/v1/vtu/airtime", { body });
    const b = await m.call("POST", "/api/v1/vtu/airtime", { body });
    expectPurchase(a, "success", 100);
    expectPurchase(b, "success", 100);
    expect(a.body.reference).not.toBe(b.body.reference);
    expect(a.body.transaction_id).not.toBe(b.body.transaction_id);
    expect(await balanceOf(m)).toBe(800);
    expectLedgerConsistent(m.tenant);
  });

  it("may spend the wallet down to exactly zero", async () => {
    const m = await harness().merchant({ wallet_balance: 50 });
    const res = await m.call("POST", "/api/v1/vtu/airtime", { body: { network: "mtn", phone: "08031234567", amount: 50 } });
    expectPurchase(res, "success", 50);
    expect(await balanceOf(m)).toBe(0);
    expectLedgerConsistent(m.tenant);
  });
});

describe("POST /api/v1/vtu/data", () => {
  it("debits the plan's fixture price and answers with the purchase result", async () => {
    const plan = DATA_PLANS.find((p) => p.id === 102)!;
    const m = await harness().merchant({ wallet_balance: 5_000 });
    const res = await m.call("POST", "/api/v1/vtu/data", { body: { phone: "08031234567", data_plan_id: plan.id } });
    expectPurchase(res, "success", plan.price);
    expect(await balanceOf(m)).toBe(5_000 - plan.price);
    expect(entriesOf(m, res.body.transaction_id)).toEqual([{ kind: "vtu_purchase", amount: -Math.round(plan.price * 100) }]);
    expectLedgerConsistent(m.tenant);
  });

  it.each(["glo", "airtel", "9mobile"])("buys a %s plan at its fixture price", async (network) => {
    const plan = DATA_PLANS.find((p) => p.network === network)!;
    const m = await harness().merchant({ wallet_balance: 100_000 });
    const res = await m.call("POST", "/api/v1/vtu/data", { body: { phone: "08031234567", data_plan_id: plan.id } });
    expectPurchase(res, "success", plan.price);
    expect(await balanceOf(m)).toBe(100_000 - plan.price);
    expectLedgerConsistent(m.tenant);
  });

  it("refuses an unknown data_plan_id with 422 naming data_plan_id, nothing debited", async () => {
    const m = await harness().merchant({ wallet_balance: 5_000 });
    const before = snapshot(m);
    const err = expectError(
      await m.call("POST", "/api/v1/vtu/data", { body: { phone: "08031234567", data_plan_id: 999_999 } }),
      422,
      "VALIDATION_ERROR",
    );
    expect(Object.keys(err.errors ?? {})).toEqual(["data_plan_id"]);
    await expectUnchanged(m, before, 5_000);
  });

  it.each([["102"], [1.5], [null]])("refuses a non-integer data_plan_id %j", async (id) => {
    const m = await harness().merchant({ wallet_balance: 5_000 });
    const before = snapshot(m);
    const err = expectError(
      await m.call("POST", "/api/v1/vtu/data", { body: { phone: "08031234567", data_plan_id: id } }),
      422,
      "VALIDATION_ERROR",
    );
    expect(Object.keys(err.errors ?? {})).toEqual(["data_plan_id"]);
    await expectUnchanged(m, before, 5_000);
  });

  it("names missing phone and data_plan_id", async () => {
    const m = await harness().merchant({ wallet_balance: 5_000 });
    const before = snapshot(m);
    const err = expectError(await m.call("POST", "/api/v1/vtu/data", { body: {} }), 422, "VALIDATION_ERROR");
    expect(Object.keys(err.errors ?? {}).sort()).toEqual(["data_plan_id", "phone"]);
    await expectUnchanged(m, before, 5_000);
  });

  it(`magic phone ${FAIL_PHONE}: fail, refunded`, async () => {
    const plan = DATA_PLANS.find((p) => p.id === 102)!;
    const m = await harness().merchant({ wallet_balance: 5_000 });
    const res = await m.call("POST", "/api/v1/vtu/data", { body: { phone: FAIL_PHONE, data_plan_id: plan.id } });
    expectPurchase(res, "fail", plan.price);
    expect(await balanceOf(m)).toBe(5_000);
    expect(entriesOf(m, res.body.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -plan.price * 100 },
      { kind: "vtu_refund", amount: plan.price * 100 },
    ]);
    expectLedgerConsistent(m.tenant);
  });

  it(`magic phone ${PROCESSING_PHONE}: processing, debited`, async () => {
    const plan = DATA_PLANS.find((p) => p.id === 102)!;
    const m = await harness().merchant({ wallet_balance: 5_000 });
    const res = await m.call("POST", "/api/v1/vtu/data", { body: { phone: PROCESSING_PHONE, data_plan_id: plan.id } });
    expectPurchase(res, "processing", plan.price);
    expect(await balanceOf(m)).toBe(5_000 - plan.price);
    expectLedgerConsistent(m.tenant);
  });
});

describe("POST /api/v1/vtu/cable", () => {
  it("pays a bouquet at its fixture price, phone optional", async () => {
    const plan = CABLE_PLANS.find((p) => p.id === 204)!;
    const m = await harness().merchant({ wallet_balance: 50_000 });
    const res = await m.call("POST", "/api/v1/vtu/cable", { body: { cable_plan_id: plan.id, smart_card_number: "7012345678" } });
    expectPurchase(res, "success", plan.price);
    expect(await balanceOf(m)).toBe(50_000 - plan.price);
    expect(entriesOf(m, res.body.transaction_id)).toEqual([{ kind: "vtu_purchase", amount: -plan.price * 100 }]);
    expectLedgerConsistent(m.tenant);
  });

  it("accepts an optional phone", async () => {
    const plan = CABLE_PLANS.find((p) => p.provider_name === "GOTV")!;
    const m = await harness().merchant({ wallet_balance: 50_000 });
    const res = await m.call("POST", "/api/v1/vtu/cable", {
      body: { cable_plan_id: plan.id, smart_card_number: "7012345678", phone: "08031234567" },
    });
    expectPurchase(res, "success", plan.price);
    expect(await balanceOf(m)).toBe(50_000 - plan.price);
    expectLedgerConsistent(m.tenant);
  });

  it("magic smart card 0000000000 is unknown to the provider: 422 naming smart_card_number, nothing debited", async () => {
    const plan = CABLE_PLANS.find((p) => p.provider_name === "STARTIMES")!;
    const m = await harness().merchant({ wallet_balance: 50_000 });
    const before = snapshot(m);
    const res = await m.call("POST", "/api/v1/vtu/cable", { body: { cable_plan_id: plan.id, smart_card_number: "0000000000" } });
    expect(expectError(res, 422, "VALIDATION_ERROR").errors).toHaveProperty("smart_card_number");
    await expectUnchanged(m, before, 50_000);
  });

  it("magic smart card 4444444444: fail, refunded", async () => {
    const plan = CABLE_PLANS.find((p) => p.provider_name === "STARTIMES")!;
    const m = await harness().merchant({ wallet_balance: 50_000 });
    const res = await m.call("POST", "/api/v1/vtu/cable", { body: { cable_plan_id: plan.id, smart_card_number: "4444444444" } });
    expectPurchase(res, "fail", plan.price);
    expect(await balanceOf(m)).toBe(50_000);
    expect(entriesOf(m, res.body.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -plan.price * 100 },
      { kind: "vtu_refund", amount: plan.price * 100 },
    ]);
    expectLedgerConsistent(m.tenant);
  });

  it(`magic phone ${FAIL_PHONE} on a cable purchase: fail, refunded`, async () => {
    const m = await harness().merchant({ wallet_balance: 50_000 });
    const res = await m.call("POST", "/api/v1/vtu/cable", { body: { cable_plan_id: 201, smart_card_number: "7012345678", phone: FAIL_PHONE } });
    expectPurchase(res, "fail", 4_400);
    expect(await balanceOf(m)).toBe(50_000);
    expectLedgerConsistent(m.tenant);
  });

  it("refuses an unknown cable_plan_id with 422 naming cable_plan_id", async () => {
    const m = await harness().merchant({ wallet_balance: 50_000 });
    const before = snapshot(m);
    const err = expectError(
      await m.call("POST", "/api/v1/vtu/cable", { body: { cable_plan_id: 999_999, smart_card_number: "7012345678" } }),
      422,
      "VALIDATION_ERROR",
    );
    expect(Object.keys(err.errors ?? {})).toEqual(["cable_plan_id"]);
    await expectUnchanged(m, before, 50_000);
  });

  it("names missing cable_plan_id and smart_card_number, and a bad optional phone", async () => {
    const m = await harness().merchant({ wallet_balance: 50_000 });
    const before = snapshot(m);
    const err = expectError(await m.call("POST", "/api/v1/vtu/cable", { body: { phone: "12345" } }), 422, "VALIDATION_ERROR");
    expect(Object.keys(err.errors ?? {}).sort()).toEqual(["cable_plan_id", "phone", "smart_card_number"]);
    await expectUnchanged(m, before, 50_000);
  });
});

describe("POST /api/v1/vtu/electricity", () => {
  it("Prepaid success: 20-digit token in groups of four, wallet debited", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const res = await m.call("POST", "/api/v1/vtu/electricity", {
      body: { disco_id: 1, meter_number: "45012345678", meter_type: "Prepaid", amount: 2_500, customer_name: "Ada Obi" },
    });
    expectPurchase(res, "success", 2_500, "token");
    expect(res.body.token.replace(/-/g, "")).toMatch(/^\d{20}$/);
    expect(await balanceOf(m)).toBe(7_500);
    expect(entriesOf(m, res.body.transaction_id)).toEqual([{ kind: "vtu_purchase", amount: -250_000 }]);
    expectLedgerConsistent(m.tenant);
  });

  it("Postpaid success: token null", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const res = await m.call("POST", "/api/v1/vtu/electricity", {
      body: { disco_id: 2, meter_number: "45012345678", meter_type: "Postpaid", amount: 2_500 },
    });
    expectPurchase(res, "success", 2_500);
    expect(res.body.token).toBeNull();
    expect(await balanceOf(m)).toBe(7_500);
    expectLedgerConsistent(m.tenant);
  });

  it("buys from Aba Power (disco 12)", async () => {
    const aba = DISCOS.find((d) => /Aba Power/.test(d.name))!;
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const res = await m.call("POST", "/api/v1/vtu/electricity", {
      body: { disco_id: aba.id, meter_number: "45012345678", meter_type: "Prepaid", amount: 1_000 },
    });
    expectPurchase(res, "success", 1_000, "token");
    expect(await balanceOf(m)).toBe(9_000);
    expectLedgerConsistent(m.tenant);
  });

  it.each([500, 100_000])("accepts the boundary amount %d", async (amount) => {
    const m = await harness().merchant({ wallet_balance: 200_000 });
    const res = await m.call("POST", "/api/v1/vtu/electricity", {
      body: { disco_id: 3, meter_number: "45012345678", meter_type: "Prepaid", amount },
    });
    expectPurchase(res, "success", amount, "token");
    expect(await balanceOf(m)).toBe(200_000 - amount);
    expectLedgerConsistent(m.tenant);
  });

  it.each([499.99, 100_000.01])("refuses amount %d with 422 naming amount", async (amount) => {
    const m = await harness().merchant({ wallet_balance: 200_000 });
    const before = snapshot(m);
    const err = expectError(
      await m.call("POST", "/api/v1/vtu/electricity", { body: { disco_id: 3, meter_number: "45012345678", meter_type: "Prepaid", amount } }),
      422,
      "VALIDATION_ERROR",
    );
    expect(Object.keys(err.errors ?? {})).toEqual(["amount"]);
    await expectUnchanged(m, before, 200_000);
  });

  it.each(["prepaid", "Smart", ""])("refuses meter_type %j", async (meter_type) => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const before = snapshot(m);
    const err = expectError(
      await m.call("POST", "/api/v1/vtu/electricity", { body: { disco_id: 1, meter_number: "45012345678", meter_type, amount: 1_000 } }),
      422,
      "VALIDATION_ERROR",
    );
    expect(Object.keys(err.errors ?? {})).toEqual(["meter_type"]);
    await expectUnchanged(m, before, 10_000);
  });

  it("refuses an unknown disco_id with 422 naming disco_id", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const before = snapshot(m);
    const err = expectError(
      await m.call("POST", "/api/v1/vtu/electricity", { body: { disco_id: 999, meter_number: "45012345678", meter_type: "Prepaid", amount: 1_000 } }),
      422,
      "VALIDATION_ERROR",
    );
    expect(Object.keys(err.errors ?? {})).toEqual(["disco_id"]);
    await expectUnchanged(m, before, 10_000);
  });

  it("names every missing required field", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const before = snapshot(m);
    const err = expectError(await m.call("POST", "/api/v1/vtu/electricity", { body: {} }), 422, "VALIDATION_ERROR");
    expect(Object.keys(err.errors ?? {}).sort()).toEqual(["amount", "disco_id", "meter_number", "meter_type"]);
    await expectUnchanged(m, before, 10_000);
  });

  it("magic meter 00000000000 is invalid: 422 naming meter_number, nothing debited", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const before = snapshot(m);
    const res = await m.call("POST", "/api/v1/vtu/electricity", {
      body: { disco_id: 1, meter_number: "00000000000", meter_type: "Prepaid", amount: 1_000 },
    });
    expect(expectError(res, 422, "VALIDATION_ERROR").errors).toHaveProperty("meter_number");
    await expectUnchanged(m, before, 10_000);
  });

  it("magic meter 44444444444: fail, no token, refunded", async () => {
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const res = await m.call("POST", "/api/v1/vtu/electricity", {
      body: { disco_id: 1, meter_number: "44444444444", meter_type: "Prepaid", amount: 1_000 },
    });
    expectPurchase(res, "fail", 1_000);
    expect(res.body.token).toBeNull();
    expect(await balanceOf(m)).toBe(10_000);
    expect(entriesOf(m, res.body.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -100_000 },
      { kind: "vtu_refund", amount: 100_000 },
    ]);
    expectLedgerConsistent(m.tenant);
  });

  it(`magic customer_phone ${PROCESSING_PHONE} does not change the outcome of a Prepaid purchase`, async () => {
    // The phone magic applies to the purchase phone (airtime, data, cable); customer_phone is contact data.
    const m = await harness().merchant({ wallet_balance: 10_000 });
    const res = await m.call("POST", "/api/v1/vtu/electricity", {
      body: { disco_id: 1, meter_number: "45012345678", meter_type: "Prepaid", amount: 1_000, customer_phone: PROCESSING_PHONE },
    });
    expectPurchase(res, "success", 1_000, "token");
    expect(await balanceOf(m)).toBe(9_000);
    expectLedgerConsistent(m.tenant);
  });
});

describe("POST /api/v1/vtu/exam", () => {
  it("costs quantity x selling_price and returns quantity pins", async () => {
    const waec = EXAM_TYPES.find((e) => e.code === "WAEC")!;
    const m = await harness().merchant({ wallet_balance: 50_000 });
    const res = await m.call("POST", "/api/v1/vtu/exam", { body: { exam_type_id: waec.id, quantity: 3 } });
    expectPurchase(res, "success", 3 * waec.selling_price);
    expect(res.body.pins).toHaveLength(3);
    for (const pin of res.body.pins) expect(pin).toEqual({ pin: expect.stringMatching(/^\d+$/), serial: expect.any(String) });
    expect(new Set(res.body.pins.map((p: { pin: string }) => p.pin)).size).toBe(3);
    expect(await balanceOf(m)).toBe(50_000 - 3 * waec.selling_price);
    expect(entriesOf(m, res.body.transaction_id)).toEqual([{ kind: "vtu_purchase", amount: -3 * waec.selling_price * 100 }]);
    expectLedgerConsistent(m.tenant);
  });

  it.each([1, 20])("accepts the boundary quantity %d", async (quantity) => {
    const exam = EXAM_TYPES.find((e) => e.code === "NABTEB")!;
    const m = await harness().merchant({ wallet_balance: 100_000 });
    const res = await m.call("POST", "/api/v1/vtu/exam", { body: { exam_type_id: exam.id, quantity } });
    expectPurchase(res, "success", quantity * exam.selling_price);
    expect(res.body.pins).toHaveLength(quantity);
    expect(await balanceOf(m)).toBe(100_000 - quantity * exam.selling_price);
    expectLedgerConsistent(m.tenant);
  });

  it.each([[0], [21], [1.5], ["2"], [-1]])("refuses quantity %j with 422 naming quantity", async (quantity) => {
    const m = await harness().merchant({ wallet_balance: 100_000 });
    const before = snapshot(m);
    const err = expectError(await m.call("POST", "/api/v1/vtu/exam", { body: { exam_type_id: 301, quantity } }), 422, "VALIDATION_ERROR");
    expect(Object.keys(err.errors ?? {})).toEqual(["quantity"]);
    await expectUnchanged(m, before, 100_000);
  });

  it("refuses an unknown exam_type_id with 422 naming exam_type_id", async () => {
    const m = await harness().merchant({ wallet_balance: 100_000 });
    const before = snapshot(m);
    const err = expectError(await m.call("POST", "/api/v1/vtu/exam", { body: { exam_type_id: 999, quantity: 1 } }), 422, "VALIDATION_ERROR");
    expect(Object.keys(err.errors ?? {})).toEqual(["exam_type_id"]);
    await expectUnchanged(m, before, 100_000);
  });

  it("names missing exam_type_id and quantity", async () => {
    const m = await harness().merchant({ wallet_balance: 100_000 });
    const before = snapshot(m);
    const err = expectError(await m.call("POST", "/api/v1/vtu/exam", { body: {} }), 422, "VALIDATION_ERROR");
    expect(Object.keys(err.errors ?? {}).sort()).toEqual(["exam_type_id", "quantity"]);
    await expectUnchanged(m, before, 100_000);
  });

  it("refuses when quantity x selling_price exceeds the wallet", async () => {
    const jamb = EXAM_TYPES.find((e) => e.code === "JAMB_UTME")!;
    const m = await harness().merchant({ wallet_balance: 2 * jamb.selling_price - 1 });
    const before = snapshot(m);
    expectError(await m.call("POST", "/api/v1/vtu/exam", { body: { exam_type_id: jamb.id, quantity: 2 } }), 422, "INSUFFICIENT_BALANCE");
    await expectUnchanged(m, before, 2 * jamb.selling_price - 1);
  });
});

describe("GET /api/v1/vtu/transaction/status", () => {
  it("returns the top-level record of a successful purchase, dated on the sim clock", async () => {
    const m = await harness().merchant({ wallet_balance: 1_000 });
    m.tenant.clock.advanceBy(5 * 60_000);
    const bought = await m.call("POST", "/api/v1/vtu/airtime", { body: { network: "mtn", phone: "08031234567", amount: 100 } });
    expectPurchase(bought, "success", 100);
    m.tenant.clock.advanceBy(60 * 60_000);
    const res = await m.call("GET", `/api/v1/vtu/transaction/status?reference=${encodeURIComponent(bought.body.reference)}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toBeUndefined();
    expect(res.body).toMatchObject({
      success: true,
      reference: bought.body.reference,
      type: "debit",
      service: "airtime",
      status: "Success",
      amount: 100,
      date: new Date(START + 5 * 60_000).toISOString(),
    });
    expect(typeof res.body.description).toBe("string");
    expect(res.body.description).toContain("08031234567");
    expectLedgerConsistent(m.tenant);
  });

  it("reports Processing and Failed in capitalised form", async () => {
    const m = await harness().merchant({ wallet_balance: 1_000 });
    const processing = await m.call("POST", "/api/v1/vtu/airtime", { body: { network: "mtn", phone: PROCESSING_PHONE, amount: 100 } });
    const failed = await m.call("POST", "/api/v1/vtu/airtime", { body: { network: "mtn", phone: FAIL_PHONE, amount: 100 } });
    expectPurchase(processing, "processing", 100);
    expectPurchase(failed, "fail", 100);
    const p = await m.call("GET", `/api/v1/vtu/transaction/status?reference=${processing.body.reference}`);
    const f = await m.call("GET", `/api/v1/vtu/transaction/status?reference=${failed.body.reference}`);
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ success: true, reference: processing.body.reference, type: "debit", service: "airtime", status: "Processing", amount: 100 });
    expect(f.status).toBe(200);
    expect(f.body).toMatchObject({ success: true, reference: failed.body.reference, type: "debit", service: "airtime", status: "Failed", amount: 100 });
    expect(await balanceOf(m)).toBe(900);
    expectLedgerConsistent(m.tenant);
  });

  it.each([
    ["data", "data", { phone: "08031234567", data_plan_id: 102 }, 225],
    ["cable", "cable", { cable_plan_id: 204, smart_card_number: "7012345678" }, 19_000],
    ["electricity", "electricity", { disco_id: 1, meter_number: "45012345678", meter_type: "Prepaid", amount: 1_000 }, 1_000],
    ["exam", "exam", { exam_type_id: 301, quantity: 2 }, 7_800],
  ] as const)("names the service of a %s purchase", async (path, service, body, amount) => {
    const m = await harness().merchant({ wallet_balance: 100_000 });
    const bought = await m.call("POST", `/api/v1/vtu/${path}`, { body });
    expect(bought.status).toBe(200);
    const res = await m.call("GET", `/api/v1/vtu/transaction/status?reference=${bought.body.reference}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, reference: bought.body.reference, type: "debit", service, status: "Success", amount });
    expect(res.body.date).toBe(new Date(START).toISOString());
    expect(res.body.description.length).toBeGreaterThan(0);
    expect(await balanceOf(m)).toBe(100_000 - amount);
    expectLedgerConsistent(m.tenant);
  });

  it("unknown reference -> 404 NOT_FOUND", async () => {
    const m = await harness().merchant();
    expectError(await m.call("GET", "/api/v1/vtu/transaction/status?reference=VTU_DOES_NOT_EXIST"), 404, "NOT_FOUND");
  });

  it("another merchant's reference -> 404 NOT_FOUND", async () => {
    const h = harness();
    const a = await h.merchant({ wallet_balance: 1_000 });
    const b = await h.merchant({ wallet_balance: 1_000 });
    const bought = await a.call("POST", "/api/v1/vtu/airtime", { body: { network: "mtn", phone: "08031234567", amount: 100 } });
    expectPurchase(bought, "success", 100);
    expectError(await b.call("GET", `/api/v1/vtu/transaction/status?reference=${bought.body.reference}`), 404, "NOT_FOUND");
    expect(await balanceOf(b)).toBe(1_000);
    expect(await balanceOf(a)).toBe(900);
    expectLedgerConsistent(a.tenant);
    expectLedgerConsistent(b.tenant);
  });

  it.each(["", "?reference="])("missing reference (%j) -> 422 VALIDATION_ERROR naming reference", async (query) => {
    const m = await harness().merchant();
    const err = expectError(await m.call("GET", `/api/v1/vtu/transaction/status${query}`), 422, "VALIDATION_ERROR");
    expect(Object.keys(err.errors ?? {})).toEqual(["reference"]);
  });
});

describe("insufficient wallet balance", () => {
  it.each([
    ["airtime", { network: "mtn", phone: "08031234567", amount: 50 }],
    ["airtime", { network: "mtn", phone: FAIL_PHONE, amount: 50 }],
    ["data", { phone: "08031234567", data_plan_id: 101 }],
    ["cable", { cable_plan_id: 220, smart_card_number: "7012345678" }],
    ["electricity", { disco_id: 1, meter_number: "45012345678", meter_type: "Prepaid", amount: 500 }],
    ["exam", { exam_type_id: 303, quantity: 1 }],
  ] as const)("%s with a 40 Naira wallet -> 422 INSUFFICIENT_BALANCE, nothing debited or recorded", async (path, body) => {
    const m = await harness().merchant({ wallet_balance: 40 });
    const before = snapshot(m);
    expectError(await m.call("POST", `/api/v1/vtu/${path}`, { body }), 422, "INSUFFICIENT_BALANCE");
    await expectUnchanged(m, before, 40);
    expect(m.tenant.state.vtu.size).toBe(0);
  });
});

describe("capability vtu off", () => {
  it.each(["data-plans", "cable-plans", "discos", "exam-types", "transaction/status?reference=VTU_X"])(
    "GET /api/v1/vtu/%s -> 403 SERVICE_NOT_ENABLED",
    async (path) => {
      const m = await harness().merchant({ capabilities: { vtu: false } });
      expectError(await m.call("GET", `/api/v1/vtu/${path}`), 403, "SERVICE_NOT_ENABLED");
    },
  );

  it.each(Object.keys(VALID_BODIES))("POST /api/v1/vtu/%s -> 403 SERVICE_NOT_ENABLED, nothing debited", async (path) => {
    const m = await harness().merchant({ capabilities: { vtu: false }, wallet_balance: 100_000 });
    const before = snapshot(m);
    expectError(await m.call("POST", `/api/v1/vtu/${path}`, { body: VALID_BODIES[path] }), 403, "SERVICE_NOT_ENABLED");
    await expectUnchanged(m, before, 100_000);
  });

  it("the same bodies are accepted when vtu is on (control)", async () => {
    const m = await harness().merchant({ wallet_balance: 100_000 });
    for (const [path, body] of Object.entries(VALID_BODIES)) {
      const res = await m.call("POST", `/api/v1/vtu/${path}`, { body });
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.status).toBe("success");
    }
    // 100 airtime + 225 data + 19,000 cable + 1,000 electricity + 3,900 exam
    expect(await balanceOf(m)).toBe(100_000 - 100 - 225 - 19_000 - 1_000 - 3_900);
    expectLedgerConsistent(m.tenant);
  });
});

describe("authentication", () => {
  it("VTU endpoints require credentials", async () => {
    const m = await harness().merchant({ wallet_balance: 1_000 });
    expectError(await m.call("GET", "/api/v1/vtu/discos", { anonymous: true }), 401, "MISSING_CREDENTIALS");
    const before = snapshot(m);
    expectError(await m.call("POST", "/api/v1/vtu/airtime", { anonymous: true, body: VALID_BODIES.airtime }), 401, "MISSING_CREDENTIALS");
    await expectUnchanged(m, before, 1_000);
  });
});
