import { describe, expect, it } from "vitest";
import { nubanCheckDigit } from "../src/domain/nuban.js";
import { balanceOf, expectError, expectLedgerConsistent, harness, START, type Merchant, type Reply } from "./helpers.js";

const CREATE = "/api/v1/virtual-account/create";
const PARTNER_BANK_CODE = "999";

const individual = (over: Record<string, unknown> = {}) => ({
  customer_type: "individual",
  email: "ada.obi@example.com",
  reference: "CUST-001",
  bank: "partnerbank",
  first_name: "Ada",
  last_name: "Obi",
  bvn: "22345678901",
  ...over,
});

const business = (over: Record<string, unknown> = {}) => ({
  customer_type: "business",
  email: "accounts@zenithfoods.ng",
  reference: "BIZ-001",
  bank: "partnerbank",
  business_name: "Zenith Foods Ltd",
  cac_number: "RC1234567",
  ...over,
});

/** A 10-digit NUBAN whose CBN check digit is right for the partner bank. */
function expectPartnerNuban(n: unknown) {
  expect(n).toMatch(/^\d{10}$/);
  const s = n as string;
  expect(nubanCheckDigit(PARTNER_BANK_CODE, s.slice(0, 9))).toBe(Number(s[9]));
}

async function create(m: Merchant, body: unknown): Promise<Reply> {
  return m.call("POST", CREATE, { body });
}

async function listOf(m: Merchant): Promise<any[]> {
  const res = await m.call("GET", "/api/v1/virtual-accounts");
  expect(res.status).toBe(200);
  expect(res.body.success).toBe(true);
  return res.body.data;
}

/** A 422 VALIDATION_ERROR whose `errors` names exactly these fields; nothing was created. */
async function expectInvalid(m: Merchant, body: unknown, fields: string[]) {
  const before = await listOf(m);
  const err = expectError(await create(m, body), 422, "VALIDATION_ERROR");
  expect(Object.keys(err.errors ?? {}).sort()).toEqual([...fields].sort());
  for (const f of fields) {
    expect(Array.isArray(err.errors![f])).toBe(true);
    expect(err.errors![f]!.length).toBeGreaterThan(0);
  }
  expect(await listOf(m)).toEqual(before);
  expect(m.tenant.state.virtualAccounts.size).toBe(before.length);
}

describe("POST /api/v1/virtual-account/create (individual)", () => {
  it("creates an account with every field, a partner-bank NUBAN and the business-customer account name", async () => {
    const h = harness();
    const m = await h.merchant({ business_name: "Ada Stores" });
    m.tenant.clock.advanceBy(5 * 60_000);
    const res = await create(m, individual());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["data", "message", "success"]);
    expect(res.body.success).toBe(true);
    expect(typeof res.body.message).toBe("string");
    expect(res.body.message.length).toBeGreaterThan(0);
    const n = res.body.data.account_number;
    expectPartnerNuban(n);
    expect(res.body.data).toEqual({
      account_number: n,
      account_name: "Ada Stores-Ada Obi",
      bank_name: "Partner Bank (Sandbox)",
      customer_name: "Ada Obi",
      customer_email: "ada.obi@example.com",
      customer_type: "individual",
      reference: "CUST-001",
      status: "Enabled",
      created_at: new Date(START + 5 * 60_000).toISOString(),
    });
    expect(m.tenant.state.virtualAccounts.get(n)!.identity).toEqual({ type: "bvn", value: "22345678901", source: "customer" });
  });

  it("defaults customer_type to individual", async () => {
    const m = await harness().merchant({ business_name: "Ada Stores" });
    const { customer_type: _omit, ...body } = individual();
    const res = await create(m, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ customer_type: "individual", customer_name: "Ada Obi", account_name: "Ada Stores-Ada Obi" });
    expect(m.tenant.state.virtualAccounts.get(res.body.data.account_number)!.identity).toEqual({
      type: "bvn",
      value: "22345678901",
      source: "customer",
    });
  });

  it("gives each reference its own valid, distinct account number", async () => {
    const m = await harness().merchant();
    const numbers = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const res = await create(m, individual({ reference: `CUST-${i}`, email: `c${i}@example.com` }));
      expect(res.status).toBe(200);
      expectPartnerNuban(res.body.data.account_number);
      numbers.add(res.body.data.account_number);
    }
    expect(numbers.size).toBe(20);
    expect((await listOf(m)).length).toBe(20);
  });

  it("rejects a bank other than partnerbank", async () => {
    const m = await harness().merchant();
    await expectInvalid(m, individual({ bank: "wemabank" }), ["bank"]);
    await expectInvalid(m, individual({ bank: "PartnerBank" }), ["bank"]);
    await expectInvalid(m, individual({ bank: undefined }), ["bank"]);
  });

  it("requires first_name and last_name for individuals", async () => {
    const m = await harness().merchant();
    await expectInvalid(m, individual({ first_name: undefined, last_name: undefined }), ["first_name", "last_name"]);
    await expectInvalid(m, individual({ first_name: undefined }), ["first_name"]);
    await expectInvalid(m, individual({ last_name: "" }), ["last_name"]);
  });

  it("requires bvn and nin to be exactly 11 digits", async () => {
    const m = await harness().merchant();
    await expectInvalid(m, individual({ bvn: "2234567890" }), ["bvn"]);
    await expectInvalid(m, individual({ bvn: "223456789012" }), ["bvn"]);
    await expectInvalid(m, individual({ bvn: undefined, nin: "1234567890A" }), ["nin"]);
    await expectInvalid(m, individual({ bvn: "abc", nin: "123" }), ["bvn", "nin"]);
  });

  it("requires email, reference and a valid customer_type, naming each bad field", async () => {
    const m = await harness().merchant();
    await expectInvalid(m, individual({ email: undefined, reference: undefined }), ["email", "reference"]);
    await expectInvalid(m, individual({ email: "not-an-email" }), ["email"]);
    await expectInvalid(m, individual({ customer_type: "company" }), ["customer_type"]);
  });

  it("names every bad field at once, the type-dependent ones included, when base fields fail too", async () => {
    const m = await harness().merchant();
    await expectInvalid(m, {}, ["bank", "email", "first_name", "last_name", "reference"]);
    await expectInvalid(m, { customer_type: "business", email: "x@y.ng", reference: "R1", bank: "gtbank" }, ["bank", "business_name", "cac_number"]);
  });

  it("answers malformed JSON with 400 INVALID_JSON and creates nothing", async () => {
    const m = await harness().merchant();
    const res = await m.call("POST", CREATE, { raw: '{"email": "a@b.com", ', headers: { "content-type": "application/json" } });
    expectError(res, 400, "INVALID_JSON");
    expect(await listOf(m)).toEqual([]);
  });

  it("requires credentials", async () => {
    const m = await harness().merchant();
    expectError(await m.call("POST", CREATE, { body: individual(), anonymous: true }), 401, "MISSING_CREDENTIALS");
    expect(m.tenant.state.virtualAccounts.size).toBe(0);
  });
});

describe("identity rules", () => {
  const identityOf = (m: Merchant, res: Reply) => {
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return m.tenant.state.virtualAccounts.get(res.body.data.account_number)!.identity;
  };

  it("uses the customer's bvn when both bvn and nin are sent", async () => {
    const m = await harness().merchant({ kyc: { bvn: "22212345678", nin: "70012345678" } });
    const res = await create(m, individual({ bvn: "22345678901", nin: "12345678901" }));
    expect(identityOf(m, res)).toEqual({ type: "bvn", value: "22345678901", source: "customer" });
  });

  it("uses the customer's nin when no bvn is sent", async () => {
    const m = await harness().merchant({ kyc: { bvn: "22212345678" } });
    const res = await create(m, individual({ bvn: undefined, nin: "12345678901" }));
    expect(identityOf(m, res)).toEqual({ type: "nin", value: "12345678901", source: "customer" });
  });

  it("falls back to the merchant's KYC BVN (before its NIN) when the customer sends neither", async () => {
    const m = await harness().merchant({ kyc: { bvn: "22212345678", nin: "70012345678" } });
    const res = await create(m, individual({ bvn: undefined }));
    expect(identityOf(m, res)).toEqual({ type: "bvn", value: "22212345678", source: "merchant_kyc" });
  });

  it("falls back to the merchant's KYC NIN when it has no BVN", async () => {
    const m = await harness().merchant({ kyc: { nin: "70012345678" } });
    const res = await create(m, individual({ bvn: undefined }));
    expect(identityOf(m, res)).toEqual({ type: "nin", value: "70012345678", source: "merchant_kyc" });
  });

  it("refuses with 422 KYC_REQUIRED when neither the customer nor the merchant has an identifier", async () => {
    const m = await harness().merchant();
    expectError(await create(m, individual({ bvn: undefined })), 422, "KYC_REQUIRED");
    expect(await listOf(m)).toEqual([]);
    expect(m.tenant.state.virtualAccounts.size).toBe(0);
    // The reference is still free: once an identifier is sent, the same reference creates the account.
    const res = await create(m, individual({ bvn: undefined, nin: "12345678901" }));
    expect(identityOf(m, res)).toEqual({ type: "nin", value: "12345678901", source: "customer" });
  });
});

describe("POST /api/v1/virtual-account/create (business)", () => {
  it("creates a business account identified by its cac_number, never by the merchant's BVN", async () => {
    const h = harness();
    const m = await h.merchant({ business_name: "Ada Stores", kyc: { bvn: "22212345678", nin: "70012345678" } });
    m.tenant.clock.advanceBy(60_000);
    const res = await create(m, business());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.success).toBe(true);
    expect(typeof res.body.message).toBe("string");
    const n = res.body.data.account_number;
    expectPartnerNuban(n);
    expect(res.body.data).toEqual({
      account_number: n,
      account_name: "Ada Stores-Zenith Foods Ltd",
      bank_name: "Partner Bank (Sandbox)",
      customer_name: "Zenith Foods Ltd",
      customer_email: "accounts@zenithfoods.ng",
      customer_type: "business",
      reference: "BIZ-001",
      status: "Enabled",
      created_at: new Date(START + 60_000).toISOString(),
    });
    expect(m.tenant.state.virtualAccounts.get(n)!.identity).toEqual({ type: "cac", value: "RC1234567", source: "customer" });
  });

  it("accepts a BN business-name registration number", async () => {
    const m = await harness().merchant();
    const res = await create(m, business({ cac_number: "BN3344556" }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(m.tenant.state.virtualAccounts.get(res.body.data.account_number)!.identity).toEqual({
      type: "cac",
      value: "BN3344556",
      source: "customer",
    });
  });

  it("requires business_name and cac_number", async () => {
    const m = await harness().merchant({ kyc: { bvn: "22212345678" } });
    await expectInvalid(m, business({ business_name: undefined, cac_number: undefined }), ["business_name", "cac_number"]);
    await expectInvalid(m, business({ cac_number: undefined }), ["cac_number"]);
    await expectInvalid(m, business({ business_name: undefined }), ["business_name"]);
  });

  it("requires cac_number to start with RC or BN", async () => {
    const m = await harness().merchant();
    await expectInvalid(m, business({ cac_number: "1234567" }), ["cac_number"]);
    await expectInvalid(m, business({ cac_number: "IT1234567" }), ["cac_number"]);
    await expectInvalid(m, business({ cac_number: "XRC1234567" }), ["cac_number"]);
  });

  it("refuses bvn and nin for a business", async () => {
    const m = await harness().merchant();
    await expectInvalid(m, business({ bvn: "22345678901" }), ["bvn"]);
    await expectInvalid(m, business({ nin: "12345678901" }), ["nin"]);
    await expectInvalid(m, business({ bvn: "22345678901", nin: "12345678901" }), ["bvn", "nin"]);
  });
});

describe("idempotency and duplicate references", () => {
  it("returns the same account when the same request is repeated", async () => {
    const m = await harness().merchant();
    const first = await create(m, individual());
    expect(first.status).toBe(200);
    m.tenant.clock.advanceBy(10 * 60_000);
    const again = await create(m, individual());
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.success).toBe(true);
    expect(typeof again.body.message).toBe("string");
    expect(again.body.data).toEqual(first.body.data);
    expect(again.body.data.created_at).toBe(new Date(START).toISOString());
    expect(await listOf(m)).toEqual([first.body.data]);
  });

  it("is idempotent for a business and for a merchant-KYC identity too", async () => {
    const m = await harness().merchant({ kyc: { nin: "70012345678" } });
    const b1 = await create(m, business());
    const b2 = await create(m, business());
    expect(b2.status).toBe(200);
    expect(b2.body.data).toEqual(b1.body.data);
    const i1 = await create(m, individual({ bvn: undefined }));
    const i2 = await create(m, individual({ bvn: undefined }));
    expect(i2.status).toBe(200);
    expect(i2.body.data).toEqual(i1.body.data);
    expect((await listOf(m)).map((a) => a.account_number)).toEqual([b1.body.data.account_number, i1.body.data.account_number]);
  });

  it("refuses a reused reference with another identity or customer (409 DUPLICATE_REFERENCE) and changes nothing", async () => {
    const m = await harness().merchant({ kyc: { bvn: "22212345678" } });
    const first = await create(m, individual());
    expect(first.status).toBe(200);
    const n = first.body.data.account_number;
    const attempts = [
      individual({ bvn: "22399999999" }),
      individual({ bvn: undefined, nin: "12345678901" }),
      individual({ bvn: undefined }), // would resolve to the merchant's KYC BVN
      individual({ first_name: "Bola" }),
      individual({ email: "someone.else@example.com" }),
      business({ reference: "CUST-001" }),
    ];
    for (const body of attempts) {
      expectError(await create(m, body), 409, "DUPLICATE_REFERENCE");
    }
    expect(await listOf(m)).toEqual([first.body.data]);
    expect(m.tenant.state.virtualAccounts.get(n)!.identity).toEqual({ type: "bvn", value: "22345678901", source: "customer" });
    const get = await m.call("GET", `/api/v1/virtual-account/${n}`);
    expect(get.body.data).toEqual(first.body.data);
  });

  it("lets two merchants use the same reference independently", async () => {
    const h = harness();
    const a = await h.merchant();
    const b = await h.merchant();
    const ra = await create(a, individual());
    const rb = await create(b, individual({ bvn: "22399999999" }));
    expect(ra.status).toBe(200);
    expect(rb.status).toBe(200);
    expect(a.tenant.state.virtualAccounts.get(ra.body.data.account_number)!.identity.value).toBe("22345678901");
    expect(b.tenant.state.virtualAccounts.get(rb.body.data.account_number)!.identity.value).toBe("22399999999");
  });
});

describe("GET /api/v1/virtual-account/{account_number} and GET /api/v1/virtual-accounts", () => {
  it("returns one account in a data wrapper", async () => {
    const m = await harness().merchant();
    const created = await create(m, individual());
    const res = await m.call("GET", `/api/v1/virtual-account/${created.body.data.account_number}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: created.body.data });
  });

  it("answers 404 NOT_FOUND for an unknown account number", async () => {
    const m = await harness().merchant();
    await create(m, individual());
    expectError(await m.call("GET", "/api/v1/virtual-account/0000000000"), 404, "NOT_FOUND");
  });

  it("lists the merchant's accounts oldest first, and an empty array before any", async () => {
    const m = await harness().merchant();
    expect(await m.call("GET", "/api/v1/virtual-accounts").then((r) => r.body)).toEqual({ success: true, data: [] });
    const one = await create(m, individual());
    m.tenant.clock.advanceBy(1000);
    const two = await create(m, business());
    const res = await m.call("GET", "/api/v1/virtual-accounts");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: [one.body.data, two.body.data] });
  });

  it("lists only the calling merchant's accounts; another merchant's account is a 404", async () => {
    const h = harness();
    const a = await h.merchant();
    const b = await h.merchant();
    const ofA = await create(a, individual());
    const ofB = await create(b, business());
    expect(await listOf(a)).toEqual([ofA.body.data]);
    expect(await listOf(b)).toEqual([ofB.body.data]);
    expectError(await b.call("GET", `/api/v1/virtual-account/${ofA.body.data.account_number}`), 404, "NOT_FOUND");
    expectError(await a.call("GET", `/api/v1/virtual-account/${ofB.body.data.account_number}`), 404, "NOT_FOUND");
  });
});

describe("transfers into a virtual account and GET /api/v1/transaction/status", () => {
  const transfer = (m: Merchant, n: string, body: Record<string, unknown>) =>
    m.call("POST", `/sandbox/v1/virtual-accounts/${n}/transfers`, { body });

  it("credits the wallet at once and reports the payment by its narration", async () => {
    const m = await harness().merchant({ wallet_balance: 1000 });
    const n = (await create(m, individual())).body.data.account_number;
    m.tenant.clock.advanceBy(2 * 60_000);
    const t = await transfer(m, n, { amount: 15_000.75, narration: "INV-2026-0042", payer_name: "CHUKWU EMEKA", payer_bank: "Access Bank" });
    expect(t.status, JSON.stringify(t.body)).toBe(201);
    const record = {
      reference: "INV-2026-0042",
      amount: 15_000.75,
      currency: "NGN",
      status: "success",
      payer_name: "CHUKWU EMEKA",
      payer_bank: "Access Bank",
      virtual_account: n,
      created_at: new Date(START + 2 * 60_000).toISOString(),
    };
    expect(t.body.success).toBe(true);
    expect(t.body.data).toMatchObject(record);
    expect(await balanceOf(m)).toBe(16_000.75);

    const res = await m.call("GET", "/api/v1/transaction/status?reference=INV-2026-0042");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { ...record, transaction_id: t.body.data.transaction_id } });
    expectLedgerConsistent(m.tenant);
  });

  it("returns the most recent payment when two transfers carry the same narration", async () => {
    const m = await harness().merchant({ wallet_balance: 0 });
    const n = (await create(m, individual())).body.data.account_number;
    const first = await transfer(m, n, { amount: 500, narration: "school fees", payer_name: "ADA OBI", payer_bank: "Kuda" });
    m.tenant.clock.advanceBy(60_000);
    const second = await transfer(m, n, { amount: 750.5, narration: "school fees", payer_name: "BOLA ADE", payer_bank: "OPay" });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.data.transaction_id).not.toBe(first.body.data.transaction_id);
    expect(await balanceOf(m)).toBe(1250.5);

    const res = await m.call("GET", `/api/v1/transaction/status?reference=${encodeURIComponent("school fees")}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      reference: "school fees",
      amount: 750.5,
      currency: "NGN",
      status: "success",
      payer_name: "BOLA ADE",
      payer_bank: "OPay",
      virtual_account: n,
      transaction_id: second.body.data.transaction_id,
      created_at: new Date(START + 60_000).toISOString(),
    });
    expectLedgerConsistent(m.tenant);
  });

  it("credits transfers into several accounts to the one wallet", async () => {
    const m = await harness().merchant({ wallet_balance: 100 });
    const n1 = (await create(m, individual())).body.data.account_number;
    const n2 = (await create(m, business())).body.data.account_number;
    expect((await transfer(m, n1, { amount: 200, narration: "one" })).status).toBe(201);
    expect((await transfer(m, n2, { amount: 300.25, narration: "two" })).status).toBe(201);
    expect(await balanceOf(m)).toBe(600.25);
    const two = await m.call("GET", "/api/v1/transaction/status?reference=two");
    expect(two.body.data).toMatchObject({ reference: "two", amount: 300.25, virtual_account: n2, status: "success" });
    expect(m.tenant.state.ledger.length).toBe(3);
    expectLedgerConsistent(m.tenant);
  });

  it("answers 404 NOT_FOUND for an unknown reference", async () => {
    const m = await harness().merchant();
    const n = (await create(m, individual())).body.data.account_number;
    await transfer(m, n, { amount: 100, narration: "known" });
    expectError(await m.call("GET", "/api/v1/transaction/status?reference=unknown"), 404, "NOT_FOUND");
    expectLedgerConsistent(m.tenant);
  });

  it("answers 422 VALIDATION_ERROR naming reference when it is missing or empty", async () => {
    const m = await harness().merchant();
    for (const path of ["/api/v1/transaction/status", "/api/v1/transaction/status?reference="]) {
      const err = expectError(await m.call("GET", path), 422, "VALIDATION_ERROR");
      expect(Object.keys(err.errors ?? {})).toEqual(["reference"]);
    }
  });

  it("does not show one merchant's payments to another", async () => {
    const h = harness();
    const a = await h.merchant({ wallet_balance: 0 });
    const b = await h.merchant({ wallet_balance: 0 });
    const n = (await create(a, individual())).body.data.account_number;
    expect((await transfer(a, n, { amount: 1000, narration: "private" })).status).toBe(201);
    expectError(await b.call("GET", "/api/v1/transaction/status?reference=private"), 404, "NOT_FOUND");
    // B cannot push money into A's account through its own keys either.
    expectError(await transfer(b, n, { amount: 1000, narration: "x" }), 404, "NOT_FOUND");
    expect(await balanceOf(a)).toBe(1000);
    expect(await balanceOf(b)).toBe(0);
    expectLedgerConsistent(a.tenant);
    expectLedgerConsistent(b.tenant);
  });

  it("refuses a transfer to an unknown account and credits nothing", async () => {
    const m = await harness().merchant({ wallet_balance: 50 });
    expectError(await transfer(m, "0000000000", { amount: 100 }), 404, "NOT_FOUND");
    expect(await balanceOf(m)).toBe(50);
    expect(m.tenant.state.ledger.length).toBe(1);
    expectLedgerConsistent(m.tenant);
  });
});
