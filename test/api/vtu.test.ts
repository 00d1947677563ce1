/**
 * VTU under /api/v1/vtu: the product lists, the five purchases (debit first; success, processing,
 * or fail with an immediate refund), the transaction status record, insufficient balance, the `vtu`
 * capability and credentials; and on the merchant's clock: purchases that settle later (magic phones
 * and meters, the merchant's vtu_settlement_seconds), the succeed/fail levers and VTU outcome rules.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { purchaseResultView, vtuRecordView } from "../../src/domain/vtu.js";
import { at, client, expectInvalid, type TestClient } from "../client.js";
import { expectError, expectLedgerConsistent, harness, START, type Reply } from "../helpers.js";

const fixture = (name: string): any[] => JSON.parse(readFileSync(new URL(`../../fixtures/${name}.json`, import.meta.url), "utf8"));
const DATA_PLANS = fixture("data-plans");
const CABLE_PLANS = fixture("cable-plans");
const DISCOS = fixture("discos");
const EXAM_TYPES = fixture("exam-types");

const TOKEN_FORMAT = /^\d{4}-\d{4}-\d{4}-\d{4}-\d{4}$/;
const FAIL_PHONE = "08044444444";
const PROCESSING_PHONE = "08022222222";

/** A purchase as sent (POST /api/v1/vtu/{service}), its reply unchecked; airtime has `c.airtime`. */
const purchase = (c: TestClient, service: string, body: unknown) => c.call("POST", `/api/v1/vtu/${service}`, { body });
const vtuLever = (c: TestClient, reference: string, action: string) => c.call("POST", `/sandbox/v1/vtu/${reference}/${action}`);

/** What a refused request must leave untouched. */
function stateOf(c: TestClient) {
  return { ledger: c.tenant.state.ledger.map((e) => ({ ...e })), vtu: c.tenant.state.vtu.size };
}

async function expectUnchanged(c: TestClient, before: ReturnType<typeof stateOf>, balance: number) {
  expect(c.tenant.state.ledger).toEqual(before.ledger);
  expect(c.tenant.state.vtu.size).toBe(before.vtu);
  expect(await c.balance()).toBe(balance);
  expectLedgerConsistent(c.tenant);
}

/**
 * The exact purchase result shape (200, top level, no data wrapper): this status and amount, a
 * message, reference and transaction_id, and a token only when "token" is asked for. Returns it.
 */
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
  return res.body as ReturnType<typeof purchaseResultView>;
}

/** GET /api/v1/vtu/transaction/status's record; asserts 200. */
async function vtuStatus(c: TestClient, reference: string) {
  const res = await c.call("GET", `/api/v1/vtu/transaction/status?reference=${encodeURIComponent(reference)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as ReturnType<typeof vtuRecordView>;
}

/** The ledger entries of one purchase, by its transaction_id, with their sim time as ISO. */
function entriesOf(c: TestClient, transactionId: string) {
  return c.tenant.state.ledger
    .filter((e) => e.transaction_id === transactionId)
    .map((e) => ({ kind: e.kind, amount: e.amount, at: new Date(e.at).toISOString() }));
}

/** A product list (GET /api/v1/vtu/...) as a new merchant sees it; asserts 200 and returns the body. */
async function productList(pathAndQuery: string) {
  const res = await client(await harness().merchant()).call("GET", `/api/v1/vtu/${pathAndQuery}`);
  expect(res.status).toBe(200);
  return res.body;
}

/** Airtime of 100 or the 225 Naira MTN 1GB plan. */
const PRODUCTS = [
  ["airtime", 100, (c: TestClient, phone: string) => c.airtime({ phone, amount: 100 })],
  ["data", 225, (c: TestClient, phone: string) => purchase(c, "data", { phone, data_plan_id: 102 })],
] as const;

const VALID_BODIES: Record<string, Record<string, unknown>> = {
  airtime: { network: "mtn", phone: "08031234567", amount: 100 },
  data: { phone: "08031234567", data_plan_id: 102 },
  cable: { cable_plan_id: 204, smart_card_number: "1234567890" },
  electricity: { disco_id: 1, meter_number: "45012345678", meter_type: "Prepaid", amount: 1_000 },
  exam: { exam_type_id: 301, quantity: 1 },
};

describe("GET /api/v1/vtu/data-plans", () => {
  it("lists every data plan of the fixture in a data wrapper", async () => {
    expect(await productList("data-plans")).toEqual({ success: true, data: DATA_PLANS });
    expect(new Set(DATA_PLANS.map((p) => p.network))).toEqual(new Set(["mtn", "glo", "airtel", "9mobile"]));
  });

  it.each(["mtn", "glo", "airtel", "9mobile"])("filters by network=%s", async (network) => {
    const expected = DATA_PLANS.filter((p) => p.network === network);
    expect(expected.length).toBeGreaterThan(0);
    expect(await productList(`data-plans?network=${network}`)).toEqual({ success: true, data: expected });
  });

  it("refuses an unknown network with 422 VALIDATION_ERROR naming network", async () => {
    const c = client(await harness().merchant());
    expectInvalid(await c.call("GET", "/api/v1/vtu/data-plans?network=etisalat"), ["network"]);
  });
});

describe("GET /api/v1/vtu/cable-plans", () => {
  it("lists every cable plan of the fixture in a data wrapper", async () => {
    expect(await productList("cable-plans")).toEqual({ success: true, data: CABLE_PLANS });
  });

  it.each([
    ["DSTV", "DSTV"],
    ["dstv", "DSTV"],
    ["GOTV", "GOTV"],
    ["GOtv", "GOTV"],
    ["Startimes", "STARTIMES"],
    ["STARTIMES", "STARTIMES"],
  ])("filters by provider_name=%s (case-insensitive)", async (query, provider) => {
    const expected = CABLE_PLANS.filter((p) => p.provider_name === provider);
    expect(expected.length).toBeGreaterThan(0);
    expect(await productList(`cable-plans?provider_name=${query}`)).toEqual({ success: true, data: expected });
  });

  it("refuses an unknown provider_name with 422 VALIDATION_ERROR", async () => {
    const c = client(await harness().merchant());
    expectInvalid(await c.call("GET", "/api/v1/vtu/cable-plans?provider_name=Showmax"), ["provider_name"]);
  });
});

describe("GET /api/v1/vtu/discos", () => {
  it("lists the 12 discos, Aba Power included, matching the fixture", async () => {
    const list = await productList("discos");
    expect(list).toEqual({ success: true, data: DISCOS });
    expect(list.data).toHaveLength(12);
    expect(list.data.some((d: { name: string }) => /Aba Power/.test(d.name))).toBe(true);
    expect(list.data.every((d: { id: unknown }) => Number.isInteger(d.id))).toBe(true);
  });
});

describe("GET /api/v1/vtu/exam-types", () => {
  it("lists the exam types with selling_price, matching the fixture", async () => {
    const list = await productList("exam-types");
    expect(list).toEqual({ success: true, data: EXAM_TYPES });
    for (const exam of list.data) {
      expect(Number.isInteger(exam.id)).toBe(true);
      expect(typeof exam.selling_price).toBe("number");
      expect(exam.selling_price).toBeGreaterThan(0);
    }
    const names = list.data.map((e: { name: string }) => e.name).join(" | ");
    for (const exam of ["WAEC", "NECO", "NABTEB", "JAMB UTME", "JAMB Direct Entry"]) expect(names).toContain(exam);
  });
});

describe("POST /api/v1/vtu/airtime", () => {
  it("buys airtime: 200, top-level result, wallet debited by the exact amount", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const res = await c.airtime({ amount: 150.5 });
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
    expect(await c.balance()).toBe(9_849.5);
    expect(entriesOf(c, res.body.transaction_id)).toEqual([{ kind: "vtu_purchase", amount: -15_050, at: at(0) }]);
    expectLedgerConsistent(c.tenant);
  });

  it("defaults airtime_type to VTU and accepts Sharesell", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const plain = await c.airtime({ network: "glo", phone: "08051234567", amount: 100 });
    expectPurchase(plain, "success", 100);
    expect(c.tenant.state.vtu.get(plain.body.reference)!.details.airtime_type).toBe("VTU");
    const share = await c.airtime({ network: "airtel", phone: "08021234567", amount: 100, airtime_type: "Sharesell" });
    expectPurchase(share, "success", 100);
    expect(c.tenant.state.vtu.get(share.body.reference)!.details.airtime_type).toBe("Sharesell");
    expect(await c.balance()).toBe(9_800);
    expectLedgerConsistent(c.tenant);
  });

  it.each(["mtn", "glo", "airtel", "9mobile"])("accepts network %s", async (network) => {
    const c = client(await harness().merchant({ wallet_balance: 1_000 }));
    const res = await c.airtime({ network, phone: "08091234567", amount: 200 });
    expectPurchase(res, "success", 200);
    expect(await c.balance()).toBe(800);
    expectLedgerConsistent(c.tenant);
  });

  it.each([50, 50_000])("accepts the boundary amount %d", async (amount) => {
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    const res = await c.airtime({ amount });
    expectPurchase(res, "success", amount);
    expect(await c.balance()).toBe(100_000 - amount);
    expectLedgerConsistent(c.tenant);
  });

  it.each([49.99, 50_000.01, 0, -100, 100.001])("refuses amount %d with 422 naming amount, nothing debited", async (amount) => {
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    const before = stateOf(c);
    expectInvalid(await c.airtime({ amount }), ["amount"]);
    await expectUnchanged(c, before, 100_000);
  });

  it("refuses an unknown network and airtime_type, naming each field", async () => {
    const c = client(await harness().merchant({ wallet_balance: 1_000 }));
    const before = stateOf(c);
    expectInvalid(await c.airtime({ network: "etisalat", phone: "08031234567", amount: 100, airtime_type: "Bulk" }), ["airtime_type", "network"]);
    await expectUnchanged(c, before, 1_000);
  });

  it("names every missing required field", async () => {
    const c = client(await harness().merchant({ wallet_balance: 1_000 }));
    const before = stateOf(c);
    expectInvalid(await purchase(c, "airtime", {}), ["amount", "network", "phone"]);
    await expectUnchanged(c, before, 1_000);
  });

  it.each(["08031234567", "2348031234567", "+2348031234567", "07061234567", "09011234567"])("accepts the Nigerian phone %s", async (phone) => {
    const c = client(await harness().merchant({ wallet_balance: 1_000 }));
    const res = await c.airtime({ phone, amount: 100 });
    expectPurchase(res, "success", 100);
    expect(await c.balance()).toBe(900);
    expectLedgerConsistent(c.tenant);
  });

  it.each(["0803123456", "080312345678", "05031234567", "8031234567", "0803123456a", "+4478031234567", ""])(
    "refuses the phone %j with 422 naming phone",
    async (phone) => {
      const c = client(await harness().merchant({ wallet_balance: 1_000 }));
      const before = stateOf(c);
      expectInvalid(await c.airtime({ phone, amount: 100 }), ["phone"]);
      await expectUnchanged(c, before, 1_000);
    },
  );

  it("refuses malformed JSON with 400 INVALID_JSON and debits nothing", async () => {
    const c = client(await harness().merchant({ wallet_balance: 1_000 }));
    const before = stateOf(c);
    expectError(
      await c.call("POST", "/api/v1/vtu/airtime", { raw: '{"network": "mtn",', headers: { "content-type": "application/json" } }),
      400,
      "INVALID_JSON",
    );
    await expectUnchanged(c, before, 1_000);
  });

  it(`magic phone ${FAIL_PHONE}: 200, status fail, refunded at once by a reversal entry`, async () => {
    const c = client(await harness().merchant({ wallet_balance: 1_000 }));
    const res = await c.airtime({ phone: FAIL_PHONE, amount: 300 });
    expectPurchase(res, "fail", 300);
    expect(res.body.success).toBe(false);
    expect(await c.balance()).toBe(1_000);
    expect(entriesOf(c, res.body.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -30_000, at: at(0) },
      { kind: "vtu_refund", amount: 30_000, at: at(0) },
    ]);
    expectLedgerConsistent(c.tenant);
  });

  it("magic fail phone also applies in international format", async () => {
    const c = client(await harness().merchant({ wallet_balance: 1_000 }));
    const res = await c.airtime({ phone: "+2348044444444", amount: 300 });
    expectPurchase(res, "fail", 300);
    expect(await c.balance()).toBe(1_000);
    expectLedgerConsistent(c.tenant);
  });

  it.each([PROCESSING_PHONE, "08033333333"])("magic phone %s: status processing, wallet stays debited", async (phone) => {
    const c = client(await harness().merchant({ wallet_balance: 1_000 }));
    const res = await c.airtime({ phone, amount: 300 });
    expectPurchase(res, "processing", 300);
    expect(res.body.success).toBe(true);
    expect(await c.balance()).toBe(700);
    expect(entriesOf(c, res.body.transaction_id)).toEqual([{ kind: "vtu_purchase", amount: -30_000, at: at(0) }]);
    expectLedgerConsistent(c.tenant);
  });

  it("magic phone 08011111111 forces success", async () => {
    const c = client(await harness().merchant({ wallet_balance: 1_000 }));
    const res = await c.airtime({ phone: "08011111111", amount: 300 });
    expectPurchase(res, "success", 300);
    expect(await c.balance()).toBe(700);
    expectLedgerConsistent(c.tenant);
  });

  it("each purchase gets its own reference and transaction_id", async () => {
    const c = client(await harness().merchant({ wallet_balance: 1_000 }));
    const a = await c.airtime({ amount: 100 });
    const b = await c.airtime({ amount: 100 });
    expectPurchase(a, "success", 100);
    expectPurchase(b, "success", 100);
    expect(a.body.reference).not.toBe(b.body.reference);
    expect(a.body.transaction_id).not.toBe(b.body.transaction_id);
    expect(await c.balance()).toBe(800);
    expectLedgerConsistent(c.tenant);
  });

  it("may spend the wallet down to exactly zero", async () => {
    const c = client(await harness().merchant({ wallet_balance: 50 }));
    const res = await c.airtime({ amount: 50 });
    expectPurchase(res, "success", 50);
    expect(await c.balance()).toBe(0);
    expectLedgerConsistent(c.tenant);
  });
});

describe("POST /api/v1/vtu/data", () => {
  it("debits the plan's fixture price and answers with the purchase result", async () => {
    const plan = DATA_PLANS.find((p) => p.id === 102)!;
    const c = client(await harness().merchant({ wallet_balance: 5_000 }));
    const res = await purchase(c, "data", { phone: "08031234567", data_plan_id: plan.id });
    expectPurchase(res, "success", plan.price);
    expect(await c.balance()).toBe(5_000 - plan.price);
    expect(entriesOf(c, res.body.transaction_id)).toEqual([{ kind: "vtu_purchase", amount: -Math.round(plan.price * 100), at: at(0) }]);
    expectLedgerConsistent(c.tenant);
  });

  it.each(["glo", "airtel", "9mobile"])("buys a %s plan at its fixture price", async (network) => {
    const plan = DATA_PLANS.find((p) => p.network === network)!;
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    const res = await purchase(c, "data", { phone: "08031234567", data_plan_id: plan.id });
    expectPurchase(res, "success", plan.price);
    expect(await c.balance()).toBe(100_000 - plan.price);
    expectLedgerConsistent(c.tenant);
  });

  it("refuses an unknown data_plan_id with 422 naming data_plan_id, nothing debited", async () => {
    const c = client(await harness().merchant({ wallet_balance: 5_000 }));
    const before = stateOf(c);
    expectInvalid(await purchase(c, "data", { phone: "08031234567", data_plan_id: 999_999 }), ["data_plan_id"]);
    await expectUnchanged(c, before, 5_000);
  });

  it.each([["102"], [1.5], [null]])("refuses a non-integer data_plan_id %j", async (id) => {
    const c = client(await harness().merchant({ wallet_balance: 5_000 }));
    const before = stateOf(c);
    expectInvalid(await purchase(c, "data", { phone: "08031234567", data_plan_id: id }), ["data_plan_id"]);
    await expectUnchanged(c, before, 5_000);
  });

  it("names missing phone and data_plan_id", async () => {
    const c = client(await harness().merchant({ wallet_balance: 5_000 }));
    const before = stateOf(c);
    expectInvalid(await purchase(c, "data", {}), ["data_plan_id", "phone"]);
    await expectUnchanged(c, before, 5_000);
  });

  it(`magic phone ${FAIL_PHONE}: fail, refunded`, async () => {
    const plan = DATA_PLANS.find((p) => p.id === 102)!;
    const c = client(await harness().merchant({ wallet_balance: 5_000 }));
    const res = await purchase(c, "data", { phone: FAIL_PHONE, data_plan_id: plan.id });
    expectPurchase(res, "fail", plan.price);
    expect(await c.balance()).toBe(5_000);
    expect(entriesOf(c, res.body.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -plan.price * 100, at: at(0) },
      { kind: "vtu_refund", amount: plan.price * 100, at: at(0) },
    ]);
    expectLedgerConsistent(c.tenant);
  });

  it(`magic phone ${PROCESSING_PHONE}: processing, debited`, async () => {
    const plan = DATA_PLANS.find((p) => p.id === 102)!;
    const c = client(await harness().merchant({ wallet_balance: 5_000 }));
    const res = await purchase(c, "data", { phone: PROCESSING_PHONE, data_plan_id: plan.id });
    expectPurchase(res, "processing", plan.price);
    expect(await c.balance()).toBe(5_000 - plan.price);
    expectLedgerConsistent(c.tenant);
  });
});

describe("POST /api/v1/vtu/cable", () => {
  it("pays a bouquet at its fixture price, phone optional", async () => {
    const plan = CABLE_PLANS.find((p) => p.id === 204)!;
    const c = client(await harness().merchant({ wallet_balance: 50_000 }));
    const res = await purchase(c, "cable", { cable_plan_id: plan.id, smart_card_number: "7012345678" });
    expectPurchase(res, "success", plan.price);
    expect(await c.balance()).toBe(50_000 - plan.price);
    expect(entriesOf(c, res.body.transaction_id)).toEqual([{ kind: "vtu_purchase", amount: -plan.price * 100, at: at(0) }]);
    expectLedgerConsistent(c.tenant);
  });

  it("accepts an optional phone", async () => {
    const plan = CABLE_PLANS.find((p) => p.provider_name === "GOTV")!;
    const c = client(await harness().merchant({ wallet_balance: 50_000 }));
    const res = await purchase(c, "cable", { cable_plan_id: plan.id, smart_card_number: "7012345678", phone: "08031234567" });
    expectPurchase(res, "success", plan.price);
    expect(await c.balance()).toBe(50_000 - plan.price);
    expectLedgerConsistent(c.tenant);
  });

  it("magic smart card 0000000000 is unknown to the provider: 422 naming smart_card_number, nothing debited", async () => {
    const plan = CABLE_PLANS.find((p) => p.provider_name === "STARTIMES")!;
    const c = client(await harness().merchant({ wallet_balance: 50_000 }));
    const before = stateOf(c);
    const res = await purchase(c, "cable", { cable_plan_id: plan.id, smart_card_number: "0000000000" });
    expect(expectError(res, 422, "VALIDATION_ERROR").errors).toHaveProperty("smart_card_number");
    await expectUnchanged(c, before, 50_000);
  });

  it("magic smart card 4444444444: fail, refunded", async () => {
    const plan = CABLE_PLANS.find((p) => p.provider_name === "STARTIMES")!;
    const c = client(await harness().merchant({ wallet_balance: 50_000 }));
    const res = await purchase(c, "cable", { cable_plan_id: plan.id, smart_card_number: "4444444444" });
    expectPurchase(res, "fail", plan.price);
    expect(await c.balance()).toBe(50_000);
    expect(entriesOf(c, res.body.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -plan.price * 100, at: at(0) },
      { kind: "vtu_refund", amount: plan.price * 100, at: at(0) },
    ]);
    expectLedgerConsistent(c.tenant);
  });

  it(`magic phone ${FAIL_PHONE} on a cable purchase: fail, refunded`, async () => {
    const c = client(await harness().merchant({ wallet_balance: 50_000 }));
    const res = await purchase(c, "cable", { cable_plan_id: 201, smart_card_number: "7012345678", phone: FAIL_PHONE });
    expectPurchase(res, "fail", 4_400);
    expect(await c.balance()).toBe(50_000);
    expectLedgerConsistent(c.tenant);
  });

  it("refuses an unknown cable_plan_id with 422 naming cable_plan_id", async () => {
    const c = client(await harness().merchant({ wallet_balance: 50_000 }));
    const before = stateOf(c);
    expectInvalid(await purchase(c, "cable", { cable_plan_id: 999_999, smart_card_number: "7012345678" }), ["cable_plan_id"]);
    await expectUnchanged(c, before, 50_000);
  });

  it("names missing cable_plan_id and smart_card_number, and a bad optional phone", async () => {
    const c = client(await harness().merchant({ wallet_balance: 50_000 }));
    const before = stateOf(c);
    expectInvalid(await purchase(c, "cable", { phone: "12345" }), ["cable_plan_id", "phone", "smart_card_number"]);
    await expectUnchanged(c, before, 50_000);
  });
});

describe("POST /api/v1/vtu/electricity", () => {
  it("Prepaid success: 20-digit token in groups of four, wallet debited", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const res = await purchase(c, "electricity", { disco_id: 1, meter_number: "45012345678", meter_type: "Prepaid", amount: 2_500, customer_name: "Ada Obi" });
    expectPurchase(res, "success", 2_500, "token");
    expect(res.body.token.replace(/-/g, "")).toMatch(/^\d{20}$/);
    expect(await c.balance()).toBe(7_500);
    expect(entriesOf(c, res.body.transaction_id)).toEqual([{ kind: "vtu_purchase", amount: -250_000, at: at(0) }]);
    expectLedgerConsistent(c.tenant);
  });

  it("Postpaid success: token null", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const res = await purchase(c, "electricity", { disco_id: 2, meter_number: "45012345678", meter_type: "Postpaid", amount: 2_500 });
    expectPurchase(res, "success", 2_500);
    expect(res.body.token).toBeNull();
    expect(await c.balance()).toBe(7_500);
    expectLedgerConsistent(c.tenant);
  });

  it("buys from Aba Power (disco 12)", async () => {
    const aba = DISCOS.find((d) => /Aba Power/.test(d.name))!;
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const res = await purchase(c, "electricity", { disco_id: aba.id, meter_number: "45012345678", meter_type: "Prepaid", amount: 1_000 });
    expectPurchase(res, "success", 1_000, "token");
    expect(await c.balance()).toBe(9_000);
    expectLedgerConsistent(c.tenant);
  });

  it.each([500, 100_000])("accepts the boundary amount %d", async (amount) => {
    const c = client(await harness().merchant({ wallet_balance: 200_000 }));
    const res = await purchase(c, "electricity", { disco_id: 3, meter_number: "45012345678", meter_type: "Prepaid", amount });
    expectPurchase(res, "success", amount, "token");
    expect(await c.balance()).toBe(200_000 - amount);
    expectLedgerConsistent(c.tenant);
  });

  it.each([499.99, 100_000.01])("refuses amount %d with 422 naming amount", async (amount) => {
    const c = client(await harness().merchant({ wallet_balance: 200_000 }));
    const before = stateOf(c);
    expectInvalid(await purchase(c, "electricity", { disco_id: 3, meter_number: "45012345678", meter_type: "Prepaid", amount }), ["amount"]);
    await expectUnchanged(c, before, 200_000);
  });

  it.each(["prepaid", "Smart", ""])("refuses meter_type %j", async (meter_type) => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const before = stateOf(c);
    expectInvalid(await purchase(c, "electricity", { disco_id: 1, meter_number: "45012345678", meter_type, amount: 1_000 }), ["meter_type"]);
    await expectUnchanged(c, before, 10_000);
  });

  it("refuses an unknown disco_id with 422 naming disco_id", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const before = stateOf(c);
    expectInvalid(await purchase(c, "electricity", { disco_id: 999, meter_number: "45012345678", meter_type: "Prepaid", amount: 1_000 }), ["disco_id"]);
    await expectUnchanged(c, before, 10_000);
  });

  it("names every missing required field", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const before = stateOf(c);
    expectInvalid(await purchase(c, "electricity", {}), ["amount", "disco_id", "meter_number", "meter_type"]);
    await expectUnchanged(c, before, 10_000);
  });

  it("magic meter 00000000000 is invalid: 422 naming meter_number, nothing debited", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const before = stateOf(c);
    const res = await purchase(c, "electricity", { disco_id: 1, meter_number: "00000000000", meter_type: "Prepaid", amount: 1_000 });
    expect(expectError(res, 422, "VALIDATION_ERROR").errors).toHaveProperty("meter_number");
    await expectUnchanged(c, before, 10_000);
  });

  it("magic meter 44444444444: fail, no token, refunded", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const res = await purchase(c, "electricity", { disco_id: 1, meter_number: "44444444444", meter_type: "Prepaid", amount: 1_000 });
    expectPurchase(res, "fail", 1_000);
    expect(res.body.token).toBeNull();
    expect(await c.balance()).toBe(10_000);
    expect(entriesOf(c, res.body.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -100_000, at: at(0) },
      { kind: "vtu_refund", amount: 100_000, at: at(0) },
    ]);
    expectLedgerConsistent(c.tenant);
  });

  it(`magic customer_phone ${PROCESSING_PHONE} does not change the outcome of a Prepaid purchase`, async () => {
    // The phone magic applies to the purchase phone (airtime, data, cable); customer_phone is contact data.
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const res = await purchase(c, "electricity", { disco_id: 1, meter_number: "45012345678", meter_type: "Prepaid", amount: 1_000, customer_phone: PROCESSING_PHONE });
    expectPurchase(res, "success", 1_000, "token");
    expect(await c.balance()).toBe(9_000);
    expectLedgerConsistent(c.tenant);
  });
});

describe("POST /api/v1/vtu/exam", () => {
  it("costs quantity x selling_price and returns quantity pins", async () => {
    const waec = EXAM_TYPES.find((e) => e.code === "WAEC")!;
    const c = client(await harness().merchant({ wallet_balance: 50_000 }));
    const res = await purchase(c, "exam", { exam_type_id: waec.id, quantity: 3 });
    expectPurchase(res, "success", 3 * waec.selling_price);
    expect(res.body.pins).toHaveLength(3);
    for (const pin of res.body.pins) expect(pin).toEqual({ pin: expect.stringMatching(/^\d+$/), serial: expect.any(String) });
    expect(new Set(res.body.pins.map((p: { pin: string }) => p.pin)).size).toBe(3);
    expect(await c.balance()).toBe(50_000 - 3 * waec.selling_price);
    expect(entriesOf(c, res.body.transaction_id)).toEqual([{ kind: "vtu_purchase", amount: -3 * waec.selling_price * 100, at: at(0) }]);
    expectLedgerConsistent(c.tenant);
  });

  it.each([1, 20])("accepts the boundary quantity %d", async (quantity) => {
    const exam = EXAM_TYPES.find((e) => e.code === "NABTEB")!;
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    const res = await purchase(c, "exam", { exam_type_id: exam.id, quantity });
    expectPurchase(res, "success", quantity * exam.selling_price);
    expect(res.body.pins).toHaveLength(quantity);
    expect(await c.balance()).toBe(100_000 - quantity * exam.selling_price);
    expectLedgerConsistent(c.tenant);
  });

  it.each([[0], [21], [1.5], ["2"], [-1]])("refuses quantity %j with 422 naming quantity", async (quantity) => {
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    const before = stateOf(c);
    expectInvalid(await purchase(c, "exam", { exam_type_id: 301, quantity }), ["quantity"]);
    await expectUnchanged(c, before, 100_000);
  });

  it("refuses an unknown exam_type_id with 422 naming exam_type_id", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    const before = stateOf(c);
    expectInvalid(await purchase(c, "exam", { exam_type_id: 999, quantity: 1 }), ["exam_type_id"]);
    await expectUnchanged(c, before, 100_000);
  });

  it("names missing exam_type_id and quantity", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    const before = stateOf(c);
    expectInvalid(await purchase(c, "exam", {}), ["exam_type_id", "quantity"]);
    await expectUnchanged(c, before, 100_000);
  });

  it("refuses when quantity x selling_price exceeds the wallet", async () => {
    const jamb = EXAM_TYPES.find((e) => e.code === "JAMB_UTME")!;
    const c = client(await harness().merchant({ wallet_balance: 2 * jamb.selling_price - 1 }));
    const before = stateOf(c);
    expectError(await purchase(c, "exam", { exam_type_id: jamb.id, quantity: 2 }), 422, "INSUFFICIENT_BALANCE");
    await expectUnchanged(c, before, 2 * jamb.selling_price - 1);
  });
});

describe("GET /api/v1/vtu/transaction/status", () => {
  it("returns the top-level record of a successful purchase, dated on the sim clock", async () => {
    const c = client(await harness().merchant({ wallet_balance: 1_000 }));
    await c.advance("5m");
    const bought = await c.airtime({ amount: 100 });
    expectPurchase(bought, "success", 100);
    await c.advance("1h");
    const res = await c.call("GET", `/api/v1/vtu/transaction/status?reference=${encodeURIComponent(bought.body.reference)}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toBeUndefined();
    expect(res.body).toMatchObject({
      success: true,
      reference: bought.body.reference,
      type: "debit",
      service: "airtime",
      status: "Success",
      amount: 100,
      date: at(5 * 60),
    });
    expect(typeof res.body.description).toBe("string");
    expect(res.body.description).toContain("08031234567");
    expectLedgerConsistent(c.tenant);
  });

  it("reports Processing and Failed in capitalised form", async () => {
    const c = client(await harness().merchant({ wallet_balance: 1_000 }));
    const processing = await c.airtime({ phone: PROCESSING_PHONE, amount: 100 });
    const failed = await c.airtime({ phone: FAIL_PHONE, amount: 100 });
    expectPurchase(processing, "processing", 100);
    expectPurchase(failed, "fail", 100);
    const p = await vtuStatus(c, processing.body.reference);
    const f = await vtuStatus(c, failed.body.reference);
    expect(p).toMatchObject({ success: true, reference: processing.body.reference, type: "debit", service: "airtime", status: "Processing", amount: 100 });
    expect(f).toMatchObject({ success: true, reference: failed.body.reference, type: "debit", service: "airtime", status: "Failed", amount: 100 });
    expect(await c.balance()).toBe(900);
    expectLedgerConsistent(c.tenant);
  });

  it.each([
    ["data", "data", { phone: "08031234567", data_plan_id: 102 }, 225],
    ["cable", "cable", { cable_plan_id: 204, smart_card_number: "7012345678" }, 19_000],
    ["electricity", "electricity", { disco_id: 1, meter_number: "45012345678", meter_type: "Prepaid", amount: 1_000 }, 1_000],
    ["exam", "exam", { exam_type_id: 301, quantity: 2 }, 7_800],
  ] as const)("names the service of a %s purchase", async (path, service, body, amount) => {
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    const bought = await purchase(c, path, body);
    expect(bought.status).toBe(200);
    const record = await vtuStatus(c, bought.body.reference);
    expect(record).toMatchObject({ success: true, reference: bought.body.reference, type: "debit", service, status: "Success", amount });
    expect(record.date).toBe(at(0));
    expect(record.description.length).toBeGreaterThan(0);
    expect(await c.balance()).toBe(100_000 - amount);
    expectLedgerConsistent(c.tenant);
  });

  it("unknown reference -> 404 NOT_FOUND", async () => {
    const c = client(await harness().merchant());
    expectError(await c.call("GET", "/api/v1/vtu/transaction/status?reference=VTU_DOES_NOT_EXIST"), 404, "NOT_FOUND");
  });

  it("another merchant's reference -> 404 NOT_FOUND", async () => {
    const h = harness();
    const a = client(await h.merchant({ wallet_balance: 1_000 }));
    const b = client(await h.merchant({ wallet_balance: 1_000 }));
    const bought = await a.airtime({ amount: 100 });
    expectPurchase(bought, "success", 100);
    expectError(await b.call("GET", `/api/v1/vtu/transaction/status?reference=${bought.body.reference}`), 404, "NOT_FOUND");
    expect(await b.balance()).toBe(1_000);
    expect(await a.balance()).toBe(900);
    expectLedgerConsistent(a.tenant);
    expectLedgerConsistent(b.tenant);
  });

  it.each(["", "?reference="])("missing reference (%j) -> 422 VALIDATION_ERROR naming reference", async (query) => {
    const c = client(await harness().merchant());
    expectInvalid(await c.call("GET", `/api/v1/vtu/transaction/status${query}`), ["reference"]);
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
    const c = client(await harness().merchant({ wallet_balance: 40 }));
    const before = stateOf(c);
    expectError(await purchase(c, path, body), 422, "INSUFFICIENT_BALANCE");
    await expectUnchanged(c, before, 40);
    expect(c.tenant.state.vtu.size).toBe(0);
  });
});

describe("capability vtu off", () => {
  it.each(["data-plans", "cable-plans", "discos", "exam-types", "transaction/status?reference=VTU_X"])(
    "GET /api/v1/vtu/%s -> 403 SERVICE_NOT_ENABLED",
    async (path) => {
      const c = client(await harness().merchant({ capabilities: { vtu: false } }));
      expectError(await c.call("GET", `/api/v1/vtu/${path}`), 403, "SERVICE_NOT_ENABLED");
    },
  );

  it.each(Object.keys(VALID_BODIES))("POST /api/v1/vtu/%s -> 403 SERVICE_NOT_ENABLED, nothing debited", async (path) => {
    const c = client(await harness().merchant({ capabilities: { vtu: false }, wallet_balance: 100_000 }));
    const before = stateOf(c);
    expectError(await purchase(c, path, VALID_BODIES[path]), 403, "SERVICE_NOT_ENABLED");
    await expectUnchanged(c, before, 100_000);
  });

  it("the same bodies are accepted when vtu is on (control)", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000 }));
    for (const [path, body] of Object.entries(VALID_BODIES)) {
      const res = await purchase(c, path, body);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.status).toBe("success");
    }
    // 100 airtime + 225 data + 19,000 cable + 1,000 electricity + 3,900 exam
    expect(await c.balance()).toBe(100_000 - 100 - 225 - 19_000 - 1_000 - 3_900);
    expectLedgerConsistent(c.tenant);
  });
});

describe("authentication", () => {
  it("VTU endpoints require credentials", async () => {
    const c = client(await harness().merchant({ wallet_balance: 1_000 }));
    expectError(await c.call("GET", "/api/v1/vtu/discos", { anonymous: true }), 401, "MISSING_CREDENTIALS");
    const before = stateOf(c);
    expectError(await c.call("POST", "/api/v1/vtu/airtime", { anonymous: true, body: VALID_BODIES.airtime }), 401, "MISSING_CREDENTIALS");
    await expectUnchanged(c, before, 1_000);
  });
});

describe("VTU processing settlement on the merchant's clock", () => {
  it.each(PRODUCTS)("%s to 08022222222: processing, still Processing at 59 s, Success at 60 s with the wallet still debited", async (service, price, buy) => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const p = expectPurchase(await buy(c, "08022222222"), "processing", price);
    expect(p.token).toBeNull();
    expect(await c.balance()).toBe(10_000 - price);
    expect((await c.clock()).pending_timers).toBe(1);

    expect(await vtuStatus(c, p.reference)).toMatchObject({
      success: true,
      reference: p.reference,
      type: "debit",
      service,
      status: "Processing",
      amount: price,
      date: at(0),
      token: null,
      transaction_id: p.transaction_id,
    });

    const first = await c.advance(59);
    expect(first).toMatchObject({ now: at(59), fired: 0, pending_timers: 1 });
    expect((await vtuStatus(c, p.reference)).status).toBe("Processing");

    const second = await c.advance(1);
    expect(second).toMatchObject({ now: at(60), fired: 1, pending_timers: 0 });
    const settled = await vtuStatus(c, p.reference);
    expect(settled).toMatchObject({ status: "Success", amount: price, date: at(0), token: null, transaction_id: p.transaction_id });
    expect(c.tenant.state.vtu.get(p.reference)!.settled_at).toBe(START + 60_000);
    expect(await c.balance()).toBe(10_000 - price);
    expect(entriesOf(c, p.transaction_id)).toEqual([{ kind: "vtu_purchase", amount: -price * 100, at: at(0) }]);
    expectLedgerConsistent(c.tenant);
  });

  it.each(PRODUCTS)("%s to 08033333333: processing, then Failed at START+60s and refunded, even when the clock jumps 1 hour", async (_service, price, buy) => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const p = expectPurchase(await buy(c, "08033333333"), "processing", price);
    expect(await c.balance()).toBe(10_000 - price);
    expect((await vtuStatus(c, p.reference)).status).toBe("Processing");

    expect(await c.advance(59)).toMatchObject({ fired: 0 });
    expect((await vtuStatus(c, p.reference)).status).toBe("Processing");
    expect(await c.balance()).toBe(10_000 - price);

    expect(await c.advance("1h")).toMatchObject({ now: at(59 + 3600), fired: 1, pending_timers: 0 });
    expect(await vtuStatus(c, p.reference)).toMatchObject({ status: "Failed", amount: price, token: null, transaction_id: p.transaction_id });
    expect(await c.balance()).toBe(10_000);
    expect(entriesOf(c, p.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -price * 100, at: at(0) },
      { kind: "vtu_refund", amount: price * 100, at: at(60) },
    ]);
    expect(c.tenant.state.vtu.get(p.reference)!.settled_at).toBe(START + 60_000);
    expectLedgerConsistent(c.tenant);
  });

  it("08055555555 stays Processing after 1 day (no timer) until POST /sandbox/v1/vtu/{ref}/succeed", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const p = expectPurchase(await c.airtime({ phone: "08055555555", amount: 500 }), "processing", 500);
    expect((await c.clock()).pending_timers).toBe(0);

    expect(await c.advance("1d")).toMatchObject({ now: at(86_400), fired: 0, pending_timers: 0 });
    expect((await vtuStatus(c, p.reference)).status).toBe("Processing");
    expect(await c.balance()).toBe(9_500);

    const res = await vtuLever(c, p.reference, "succeed");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ success: true, reference: p.reference, status: "Success", amount: 500 });
    expect((await vtuStatus(c, p.reference)).status).toBe("Success");
    expect(c.tenant.state.vtu.get(p.reference)!.settled_at).toBe(START + 86_400_000);
    expect(await c.balance()).toBe(9_500);
    expectLedgerConsistent(c.tenant);
  });

  it("08055555555 stays Processing after 1 day until POST /sandbox/v1/vtu/{ref}/fail, which refunds at that moment", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const p = expectPurchase(await purchase(c, "data", { phone: "08055555555", data_plan_id: 102 }), "processing", 225);
    await c.advance("1d");
    expect((await vtuStatus(c, p.reference)).status).toBe("Processing");
    expect(await c.balance()).toBe(9_775);

    const res = await vtuLever(c, p.reference, "fail");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ reference: p.reference, status: "Failed", amount: 225 });
    expect((await vtuStatus(c, p.reference)).status).toBe("Failed");
    expect(await c.balance()).toBe(10_000);
    expect(entriesOf(c, p.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -22_500, at: at(0) },
      { kind: "vtu_refund", amount: 22_500, at: at(86_400) },
    ]);
    expectLedgerConsistent(c.tenant);
  });

  it("a merchant with delays.vtu_settlement_seconds = 300 settles at 300 s, not 60 s", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000, delays: { vtu_settlement_seconds: 300 } }));
    const ok = expectPurchase(await c.airtime({ phone: "08022222222", amount: 100 }), "processing", 100);
    const ko = expectPurchase(await c.airtime({ phone: "08033333333", amount: 200 }), "processing", 200);
    expect((await c.clock()).pending_timers).toBe(2);

    expect(await c.advance(60)).toMatchObject({ fired: 0, pending_timers: 2 });
    expect(await c.advance(239)).toMatchObject({ now: at(299), fired: 0, pending_timers: 2 });
    expect((await vtuStatus(c, ok.reference)).status).toBe("Processing");
    expect((await vtuStatus(c, ko.reference)).status).toBe("Processing");
    expect(await c.balance()).toBe(9_700);

    expect(await c.advance(1)).toMatchObject({ now: at(300), fired: 2, pending_timers: 0 });
    expect((await vtuStatus(c, ok.reference)).status).toBe("Success");
    expect((await vtuStatus(c, ko.reference)).status).toBe("Failed");
    expect(c.tenant.state.vtu.get(ok.reference)!.settled_at).toBe(START + 300_000);
    expect(entriesOf(c, ko.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -20_000, at: at(0) },
      { kind: "vtu_refund", amount: 20_000, at: at(300) },
    ]);
    expect(await c.balance()).toBe(9_900);
    expectLedgerConsistent(c.tenant);
  });

  it("Prepaid electricity to meter 22222222222: processing with no token; the token appears only at settlement", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const res = await purchase(c, "electricity", { disco_id: 1, meter_number: "22222222222", meter_type: "Prepaid", amount: 2_000 });
    const p = expectPurchase(res, "processing", 2_000);
    expect(p.token).toBeNull();
    expect(await vtuStatus(c, p.reference)).toMatchObject({ service: "electricity", status: "Processing", token: null });
    expect(await c.balance()).toBe(8_000);

    await c.advance(59);
    expect(await vtuStatus(c, p.reference)).toMatchObject({ status: "Processing", token: null });

    await c.advance(1);
    const settled = await vtuStatus(c, p.reference);
    expect(settled.status).toBe("Success");
    expect(settled.token).toMatch(TOKEN_FORMAT);
    expect(await c.balance()).toBe(8_000);
    expectLedgerConsistent(c.tenant);
  });

  it("Prepaid electricity to meter 33333333333: processing, then Failed and refunded at 60 s with no token", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const res = await purchase(c, "electricity", { disco_id: 1, meter_number: "33333333333", meter_type: "Prepaid", amount: 2_000 });
    const p = expectPurchase(res, "processing", 2_000);
    await c.advance(60);
    expect(await vtuStatus(c, p.reference)).toMatchObject({ status: "Failed", token: null });
    expect(await c.balance()).toBe(10_000);
    expect(entriesOf(c, p.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -200_000, at: at(0) },
      { kind: "vtu_refund", amount: 200_000, at: at(60) },
    ]);
    expectLedgerConsistent(c.tenant);
  });

  it("exam pins forced to processing_success by a rule are issued only at settlement", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    await c.rule({ target: "vtu", outcome: "processing_success" });
    const res = await purchase(c, "exam", { exam_type_id: 303, quantity: 2 });
    const p = expectPurchase(res, "processing", 1_800);
    expect(p.pins).toBeUndefined();
    const pending = await vtuStatus(c, p.reference);
    expect(pending).toMatchObject({ service: "exam", status: "Processing", token: null });
    expect(pending.pins).toBeUndefined();
    expect(await c.balance()).toBe(8_200);

    await c.advance(59);
    expect((await vtuStatus(c, p.reference)).pins).toBeUndefined();

    await c.advance(1);
    const settled = await vtuStatus(c, p.reference);
    expect(settled.status).toBe("Success");
    expect(settled.pins).toHaveLength(2);
    for (const pin of settled.pins!) {
      expect(pin).toEqual({ pin: expect.stringMatching(/^\d{12}$/), serial: expect.stringMatching(/^SN\d{10}$/) });
    }
    expect(await c.balance()).toBe(8_200);
    expectLedgerConsistent(c.tenant);
  });

  it("08044444444 fails at once (refunded, status Failed, no timer); 08011111111 succeeds at once", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const failed = expectPurchase(await c.airtime({ phone: "08044444444", amount: 300 }), "fail", 300);
    expect(await vtuStatus(c, failed.reference)).toMatchObject({ status: "Failed", amount: 300 });
    expect(entriesOf(c, failed.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -30_000, at: at(0) },
      { kind: "vtu_refund", amount: 30_000, at: at(0) },
    ]);
    expect(await c.balance()).toBe(10_000);

    const ok = expectPurchase(await purchase(c, "data", { phone: "08011111111", data_plan_id: 102 }), "success", 225);
    expect(await vtuStatus(c, ok.reference)).toMatchObject({ status: "Success", amount: 225 });
    expect(await c.balance()).toBe(9_775);
    expect((await c.clock()).pending_timers).toBe(0);

    // Nothing moves later.
    expect(await c.advance("1d")).toMatchObject({ fired: 0 });
    expect((await vtuStatus(c, failed.reference)).status).toBe("Failed");
    expect((await vtuStatus(c, ok.reference)).status).toBe("Success");
    expect(await c.balance()).toBe(9_775);
    expectLedgerConsistent(c.tenant);
  });
});

describe("POST /sandbox/v1/vtu/{reference}/succeed and /fail", () => {
  it("succeed on a processing purchase answers the VTU record at top level and cancels its timer", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const p = expectPurchase(await c.airtime({ phone: "08022222222", amount: 100 }), "processing", 100);
    await c.advance(10);
    expect((await c.clock()).pending_timers).toBe(1);

    const res = await vtuLever(c, p.reference, "succeed");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      success: true,
      reference: p.reference,
      type: "debit",
      service: "airtime",
      status: "Success",
      amount: 100,
      description: expect.any(String),
      date: at(0),
      token: null,
      transaction_id: p.transaction_id,
    });
    expect(await vtuStatus(c, p.reference)).toEqual(res.body);
    expect((await c.clock()).pending_timers).toBe(0);
    expect(c.tenant.state.vtu.get(p.reference)!.settled_at).toBe(START + 10_000);

    const ledgerLength = c.tenant.state.ledger.length;
    expect(await c.advance(120)).toMatchObject({ fired: 0 });
    expect((await vtuStatus(c, p.reference)).status).toBe("Success");
    expect(c.tenant.state.ledger.length).toBe(ledgerLength);
    expect(await c.balance()).toBe(9_900);
    expectLedgerConsistent(c.tenant);
  });

  it("fail on a processing purchase refunds at once and cancels its timer (no second settlement later)", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const p = expectPurchase(await c.airtime({ phone: "08022222222", amount: 100 }), "processing", 100);
    await c.advance(10);
    expect((await c.clock()).pending_timers).toBe(1);

    const res = await vtuLever(c, p.reference, "fail");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toBeUndefined();
    expect(res.body).toMatchObject({ success: true, reference: p.reference, type: "debit", service: "airtime", status: "Failed", amount: 100, transaction_id: p.transaction_id });
    expect((await c.clock()).pending_timers).toBe(0);
    expect(await c.balance()).toBe(10_000);
    expect(entriesOf(c, p.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -10_000, at: at(0) },
      { kind: "vtu_refund", amount: 10_000, at: at(10) },
    ]);

    expect(await c.advance(120)).toMatchObject({ fired: 0 });
    expect((await vtuStatus(c, p.reference)).status).toBe("Failed");
    expect(entriesOf(c, p.transaction_id)).toHaveLength(2);
    expect(await c.balance()).toBe(10_000);
    expectLedgerConsistent(c.tenant);
  });

  it("succeed or fail on an already settled purchase is 409 INVALID_STATE naming its state, and changes nothing", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const ok = expectPurchase(await c.airtime({ phone: "08011111111", amount: 100 }), "success", 100);
    const ko = expectPurchase(await c.airtime({ phone: "08044444444", amount: 100 }), "fail", 100);
    const settledLater = expectPurchase(await c.airtime({ phone: "08022222222", amount: 100 }), "processing", 100);
    await c.advance(60);
    const ledger = c.tenant.state.ledger.map((e) => ({ ...e }));

    for (const action of ["succeed", "fail"]) {
      const e1 = expectError(await vtuLever(c, ok.reference, action), 409, "INVALID_STATE");
      expect(e1.message).toMatch(/success/i);
      const e2 = expectError(await vtuLever(c, ko.reference, action), 409, "INVALID_STATE");
      expect(e2.message).toMatch(/fail/i);
      const e3 = expectError(await vtuLever(c, settledLater.reference, action), 409, "INVALID_STATE");
      expect(e3.message).toMatch(/success/i);
    }
    expect((await vtuStatus(c, ok.reference)).status).toBe("Success");
    expect((await vtuStatus(c, ko.reference)).status).toBe("Failed");
    expect((await vtuStatus(c, settledLater.reference)).status).toBe("Success");
    expect(c.tenant.state.ledger).toEqual(ledger);
    expect(await c.balance()).toBe(9_800);
    expectLedgerConsistent(c.tenant);
  });

  it("a purchase forced by a lever cannot be forced again (409 INVALID_STATE)", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const p = expectPurchase(await c.airtime({ phone: "08055555555", amount: 100 }), "processing", 100);
    expect((await vtuLever(c, p.reference, "fail")).status).toBe(200);
    const ledger = c.tenant.state.ledger.map((e) => ({ ...e }));
    expect(expectError(await vtuLever(c, p.reference, "fail"), 409, "INVALID_STATE").message).toMatch(/fail/i);
    expect(expectError(await vtuLever(c, p.reference, "succeed"), 409, "INVALID_STATE").message).toMatch(/fail/i);
    expect(c.tenant.state.ledger).toEqual(ledger);
    expect(await c.balance()).toBe(10_000);
    expectLedgerConsistent(c.tenant);
  });

  it("an unknown reference is 404 NOT_FOUND for both levers", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    expectError(await vtuLever(c, "VTU-NOPE", "succeed"), 404, "NOT_FOUND");
    expectError(await vtuLever(c, "VTU-NOPE", "fail"), 404, "NOT_FOUND");
    expect(await c.balance()).toBe(10_000);
  });

  it("a reference of another merchant is 404 NOT_FOUND and leaves it processing", async () => {
    const h = harness();
    const a = client(await h.merchant({ wallet_balance: 10_000 }));
    const b = client(await h.merchant({ wallet_balance: 10_000 }));
    const p = expectPurchase(await a.airtime({ phone: "08055555555", amount: 100 }), "processing", 100);
    expectError(await vtuLever(b, p.reference, "succeed"), 404, "NOT_FOUND");
    expectError(await vtuLever(b, p.reference, "fail"), 404, "NOT_FOUND");
    expect((await vtuStatus(a, p.reference)).status).toBe("Processing");
    expect(await a.balance()).toBe(9_900);
    expect(await b.balance()).toBe(10_000);
  });
});

describe("VTU outcome rules", () => {
  it("{ target: vtu, outcome: fail }: the next purchase fails at once and is refunded", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const created = await c.call("POST", "/sandbox/v1/outcomes", { body: { target: "vtu", outcome: "fail" } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      success: true,
      data: { id: expect.any(String), target: "vtu", match: null, outcome: "fail", delay_seconds: null, times: null, window_seconds: null, queries: null, created_at: at(0), active_until: null },
    });

    const p = expectPurchase(await c.airtime({ amount: 250 }), "fail", 250);
    expect(await vtuStatus(c, p.reference)).toMatchObject({ status: "Failed", amount: 250 });
    expect(entriesOf(c, p.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -25_000, at: at(0) },
      { kind: "vtu_refund", amount: 25_000, at: at(0) },
    ]);
    expect(await c.balance()).toBe(10_000);
    expect((await c.clock()).pending_timers).toBe(0);
    expectLedgerConsistent(c.tenant);
  });

  it("a rule wins over a magic phone (rules first, then magic values)", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    await c.rule({ target: "vtu", outcome: "success" });
    expectPurchase(await c.airtime({ phone: "08044444444", amount: 100 }), "success", 100);
    expect(await c.balance()).toBe(9_900);
    expectLedgerConsistent(c.tenant);
  });

  it("processing_fail with delay_seconds 10: processing, still Processing at 9 s, Failed and refunded at 10 s", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    await c.rule({ target: "vtu", outcome: "processing_fail", delay_seconds: 10 });
    const p = expectPurchase(await purchase(c, "data", { phone: "08031234567", data_plan_id: 102 }), "processing", 225);
    expect(await c.advance(9)).toMatchObject({ fired: 0, pending_timers: 1 });
    expect((await vtuStatus(c, p.reference)).status).toBe("Processing");
    expect(await c.balance()).toBe(9_775);

    expect(await c.advance(100)).toMatchObject({ fired: 1, pending_timers: 0 });
    expect((await vtuStatus(c, p.reference)).status).toBe("Failed");
    expect(entriesOf(c, p.transaction_id)).toEqual([
      { kind: "vtu_purchase", amount: -22_500, at: at(0) },
      { kind: "vtu_refund", amount: 22_500, at: at(10) },
    ]);
    expect(await c.balance()).toBe(10_000);
    expectLedgerConsistent(c.tenant);
  });

  it("match { phone: 08031234567 } applies only to that phone", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    await c.rule({ target: "vtu", outcome: "fail", match: { phone: "08031234567" } });
    const other = expectPurchase(await c.airtime({ phone: "08031234568", amount: 100 }), "success", 100);
    expect((await vtuStatus(c, other.reference)).status).toBe("Success");
    const otherData = expectPurchase(await purchase(c, "data", { phone: "07031234567", data_plan_id: 102 }), "success", 225);
    expect((await vtuStatus(c, otherData.reference)).status).toBe("Success");
    const hit = expectPurchase(await c.airtime({ amount: 100 }), "fail", 100);
    expect((await vtuStatus(c, hit.reference)).status).toBe("Failed");
    const hitData = expectPurchase(await purchase(c, "data", { phone: "08031234567", data_plan_id: 102 }), "fail", 225);
    expect((await vtuStatus(c, hitData.reference)).status).toBe("Failed");
    expect(await c.balance()).toBe(10_000 - 100 - 225);
    expectLedgerConsistent(c.tenant);
  });

  it("times: 1 applies to one purchase only, and the rule is then gone", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    await c.rule({ target: "vtu", outcome: "fail", times: 1 });
    expectPurchase(await c.airtime({ amount: 100 }), "fail", 100);
    expect((await c.call("GET", "/sandbox/v1/outcomes")).body).toEqual({ success: true, data: [] });
    expectPurchase(await c.airtime({ amount: 100 }), "success", 100);
    expect(await c.balance()).toBe(9_900);
    expectLedgerConsistent(c.tenant);
  });

  it("a rule without times applies to every purchase until deleted", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    const r = await c.rule({ target: "vtu", outcome: "fail" });
    expectPurchase(await c.airtime({ amount: 100 }), "fail", 100);
    expectPurchase(await c.airtime({ amount: 100 }), "fail", 100);
    expect((await c.call("DELETE", `/sandbox/v1/outcomes/${r.id}`)).status).toBe(200);
    expectPurchase(await c.airtime({ amount: 100 }), "success", 100);
    expect(await c.balance()).toBe(9_900);
    expectLedgerConsistent(c.tenant);
  });

  it("the newest matching rule wins over an older one; a newer rule that does not match leaves the older in force", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000 }));
    await c.rule({ target: "vtu", outcome: "fail" });
    await c.rule({ target: "vtu", outcome: "processing_success", delay_seconds: 20 });
    await c.rule({ target: "vtu", outcome: "success", match: { phone: "08099999990" } });

    const p = expectPurchase(await c.airtime({ amount: 100 }), "processing", 100);
    expect(await c.advance(19)).toMatchObject({ fired: 0 });
    expect((await vtuStatus(c, p.reference)).status).toBe("Processing");
    expect(await c.advance(1)).toMatchObject({ fired: 1 });
    expect((await vtuStatus(c, p.reference)).status).toBe("Success");
    expect(c.tenant.state.vtu.get(p.reference)!.settled_at).toBe(START + 20_000);

    const matched = expectPurchase(await c.airtime({ phone: "08099999990", amount: 100 }), "success", 100);
    expect((await vtuStatus(c, matched.reference)).status).toBe("Success");
    expect(await c.balance()).toBe(9_800);
    expectLedgerConsistent(c.tenant);
  });

  it("rules of merchant A do not affect merchant B", async () => {
    const h = harness();
    const a = client(await h.merchant({ wallet_balance: 10_000 }));
    const b = client(await h.merchant({ wallet_balance: 10_000 }));
    await a.rule({ target: "vtu", outcome: "fail" });
    expect((await b.call("GET", "/sandbox/v1/outcomes")).body).toEqual({ success: true, data: [] });

    expectPurchase(await b.airtime({ amount: 100 }), "success", 100);
    expectPurchase(await a.airtime({ amount: 100 }), "fail", 100);
    expect(await a.balance()).toBe(10_000);
    expect(await b.balance()).toBe(9_900);
    expectLedgerConsistent(a.tenant);
    expectLedgerConsistent(b.tenant);
  });
});
