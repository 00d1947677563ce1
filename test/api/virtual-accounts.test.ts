/**
 * Virtual accounts: POST /api/v1/virtual-account/create for individuals and businesses (fields,
 * partner-bank NUBANs, validation, the identity rules, idempotency and duplicate references), the
 * account lookups and list, and transfers into an account with GET /api/v1/transaction/status.
 */
import { describe, expect, it } from "vitest";
import { at, client, expectInvalid, expectPartnerNuban, type TestClient, type VirtualAccountView } from "../client.js";
import { expectError, expectLedgerConsistent, harness, type Reply } from "../helpers.js";

const CREATE = "/api/v1/virtual-account/create";

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

/** The create request as sent, its reply unchecked (for refusals and the envelope). */
const post = (c: TestClient, body: unknown) => c.call("POST", CREATE, { body });

/** A 422 VALIDATION_ERROR naming exactly these fields; nothing was created. */
async function expectRefusedAccount(c: TestClient, body: unknown, fields: string[]) {
  const before = await c.virtualAccounts();
  expectInvalid(await post(c, body), fields);
  expect(await c.virtualAccounts()).toEqual(before);
  expect(c.tenant.state.virtualAccounts.size).toBe(before.length);
}

/** A 200 create reply in its envelope: success, a message and the account (returned). */
function expectCreated(res: Reply): VirtualAccountView {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(Object.keys(res.body).sort()).toEqual(["data", "message", "success"]);
  expect(res.body.success).toBe(true);
  expect(typeof res.body.message).toBe("string");
  expect(res.body.message.length).toBeGreaterThan(0);
  return res.body.data;
}

/** The identity the sandbox recorded for an account. */
const identityOf = (c: TestClient, account: VirtualAccountView) => c.tenant.state.virtualAccounts.get(account.account_number)!.identity;

describe("POST /api/v1/virtual-account/create (individual)", () => {
  it("creates an account with every field, a partner-bank NUBAN and the business-customer account name", async () => {
    const c = client(await harness().merchant({ business_name: "Ada Stores" }));
    await c.advance("5m");
    const account = expectCreated(await post(c, individual()));
    const n = account.account_number;
    expectPartnerNuban(n);
    expect(account).toEqual({
      account_number: n,
      account_name: "Ada Stores-Ada Obi",
      bank_name: "Partner Bank (Sandbox)",
      customer_name: "Ada Obi",
      customer_email: "ada.obi@example.com",
      customer_type: "individual",
      reference: "CUST-001",
      status: "Enabled",
      created_at: at(5 * 60),
    });
    expect(identityOf(c, account)).toEqual({ type: "bvn", value: "22345678901", source: "customer" });
  });

  it("defaults customer_type to individual", async () => {
    const c = client(await harness().merchant({ business_name: "Ada Stores" }));
    const { customer_type: _omit, ...body } = individual();
    const account = await c.virtualAccount(body);
    expect(account).toMatchObject({ customer_type: "individual", customer_name: "Ada Obi", account_name: "Ada Stores-Ada Obi" });
    expect(identityOf(c, account)).toEqual({ type: "bvn", value: "22345678901", source: "customer" });
  });

  it("gives each reference its own valid, distinct account number", async () => {
    const c = client(await harness().merchant());
    const numbers = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const account = await c.virtualAccount(individual({ reference: `CUST-${i}`, email: `c${i}@example.com` }));
      expectPartnerNuban(account.account_number);
      numbers.add(account.account_number);
    }
    expect(numbers.size).toBe(20);
    expect(await c.virtualAccounts()).toHaveLength(20);
  });

  it("rejects a bank other than partnerbank", async () => {
    const c = client(await harness().merchant());
    await expectRefusedAccount(c, individual({ bank: "wemabank" }), ["bank"]);
    await expectRefusedAccount(c, individual({ bank: "PartnerBank" }), ["bank"]);
    await expectRefusedAccount(c, individual({ bank: undefined }), ["bank"]);
  });

  it("requires first_name and last_name for individuals", async () => {
    const c = client(await harness().merchant());
    await expectRefusedAccount(c, individual({ first_name: undefined, last_name: undefined }), ["first_name", "last_name"]);
    await expectRefusedAccount(c, individual({ first_name: undefined }), ["first_name"]);
    await expectRefusedAccount(c, individual({ last_name: "" }), ["last_name"]);
  });

  it("requires bvn and nin to be exactly 11 digits", async () => {
    const c = client(await harness().merchant());
    await expectRefusedAccount(c, individual({ bvn: "2234567890" }), ["bvn"]);
    await expectRefusedAccount(c, individual({ bvn: "223456789012" }), ["bvn"]);
    await expectRefusedAccount(c, individual({ bvn: undefined, nin: "1234567890A" }), ["nin"]);
    await expectRefusedAccount(c, individual({ bvn: "abc", nin: "123" }), ["bvn", "nin"]);
  });

  it("requires email, reference and a valid customer_type, naming each bad field", async () => {
    const c = client(await harness().merchant());
    await expectRefusedAccount(c, individual({ email: undefined, reference: undefined }), ["email", "reference"]);
    await expectRefusedAccount(c, individual({ email: "not-an-email" }), ["email"]);
    await expectRefusedAccount(c, individual({ customer_type: "company" }), ["customer_type"]);
  });

  it("names every bad field at once, the type-dependent ones included, when base fields fail too", async () => {
    const c = client(await harness().merchant());
    await expectRefusedAccount(c, {}, ["bank", "email", "first_name", "last_name", "reference"]);
    await expectRefusedAccount(c, { customer_type: "business", email: "x@y.ng", reference: "R1", bank: "gtbank" }, ["bank", "business_name", "cac_number"]);
  });

  it("answers malformed JSON with 400 INVALID_JSON and creates nothing", async () => {
    const c = client(await harness().merchant());
    const res = await c.call("POST", CREATE, { raw: '{"email": "a@b.com", ', headers: { "content-type": "application/json" } });
    expectError(res, 400, "INVALID_JSON");
    expect(await c.virtualAccounts()).toEqual([]);
  });

  it("requires credentials", async () => {
    const c = client(await harness().merchant());
    expectError(await c.call("POST", CREATE, { body: individual(), anonymous: true }), 401, "MISSING_CREDENTIALS");
    expect(c.tenant.state.virtualAccounts.size).toBe(0);
  });
});

describe("identity rules", () => {
  it("uses the customer's bvn when both bvn and nin are sent", async () => {
    const c = client(await harness().merchant({ kyc: { bvn: "22212345678", nin: "70012345678" } }));
    const account = await c.virtualAccount(individual({ bvn: "22345678901", nin: "12345678901" }));
    expect(identityOf(c, account)).toEqual({ type: "bvn", value: "22345678901", source: "customer" });
  });

  it("uses the customer's nin when no bvn is sent", async () => {
    const c = client(await harness().merchant({ kyc: { bvn: "22212345678" } }));
    const account = await c.virtualAccount(individual({ bvn: undefined, nin: "12345678901" }));
    expect(identityOf(c, account)).toEqual({ type: "nin", value: "12345678901", source: "customer" });
  });

  it("falls back to the merchant's KYC BVN (before its NIN) when the customer sends neither", async () => {
    const c = client(await harness().merchant({ kyc: { bvn: "22212345678", nin: "70012345678" } }));
    const account = await c.virtualAccount(individual({ bvn: undefined }));
    expect(identityOf(c, account)).toEqual({ type: "bvn", value: "22212345678", source: "merchant_kyc" });
  });

  it("falls back to the merchant's KYC NIN when it has no BVN", async () => {
    const c = client(await harness().merchant({ kyc: { nin: "70012345678" } }));
    const account = await c.virtualAccount(individual({ bvn: undefined }));
    expect(identityOf(c, account)).toEqual({ type: "nin", value: "70012345678", source: "merchant_kyc" });
  });

  it("refuses with 422 KYC_REQUIRED when neither the customer nor the merchant has an identifier", async () => {
    const c = client(await harness().merchant());
    expectError(await post(c, individual({ bvn: undefined })), 422, "KYC_REQUIRED");
    expect(await c.virtualAccounts()).toEqual([]);
    expect(c.tenant.state.virtualAccounts.size).toBe(0);
    // The reference is still free: once an identifier is sent, the same reference creates the account.
    const account = await c.virtualAccount(individual({ bvn: undefined, nin: "12345678901" }));
    expect(identityOf(c, account)).toEqual({ type: "nin", value: "12345678901", source: "customer" });
  });
});

describe("POST /api/v1/virtual-account/create (business)", () => {
  it("creates a business account identified by its cac_number, never by the merchant's BVN", async () => {
    const c = client(await harness().merchant({ business_name: "Ada Stores", kyc: { bvn: "22212345678", nin: "70012345678" } }));
    await c.advance("1m");
    const account = expectCreated(await post(c, business()));
    const n = account.account_number;
    expectPartnerNuban(n);
    expect(account).toEqual({
      account_number: n,
      account_name: "Ada Stores-Zenith Foods Ltd",
      bank_name: "Partner Bank (Sandbox)",
      customer_name: "Zenith Foods Ltd",
      customer_email: "accounts@zenithfoods.ng",
      customer_type: "business",
      reference: "BIZ-001",
      status: "Enabled",
      created_at: at(60),
    });
    expect(identityOf(c, account)).toEqual({ type: "cac", value: "RC1234567", source: "customer" });
  });

  it("accepts a BN business-name registration number", async () => {
    const c = client(await harness().merchant());
    const account = await c.virtualAccount(business({ cac_number: "BN3344556" }));
    expect(identityOf(c, account)).toEqual({ type: "cac", value: "BN3344556", source: "customer" });
  });

  it("requires business_name and cac_number", async () => {
    const c = client(await harness().merchant({ kyc: { bvn: "22212345678" } }));
    await expectRefusedAccount(c, business({ business_name: undefined, cac_number: undefined }), ["business_name", "cac_number"]);
    await expectRefusedAccount(c, business({ cac_number: undefined }), ["cac_number"]);
    await expectRefusedAccount(c, business({ business_name: undefined }), ["business_name"]);
  });

  it("requires cac_number to start with RC or BN", async () => {
    const c = client(await harness().merchant());
    await expectRefusedAccount(c, business({ cac_number: "1234567" }), ["cac_number"]);
    await expectRefusedAccount(c, business({ cac_number: "IT1234567" }), ["cac_number"]);
    await expectRefusedAccount(c, business({ cac_number: "XRC1234567" }), ["cac_number"]);
  });

  it("refuses bvn and nin for a business", async () => {
    const c = client(await harness().merchant());
    await expectRefusedAccount(c, business({ bvn: "22345678901" }), ["bvn"]);
    await expectRefusedAccount(c, business({ nin: "12345678901" }), ["nin"]);
    await expectRefusedAccount(c, business({ bvn: "22345678901", nin: "12345678901" }), ["bvn", "nin"]);
  });
});

describe("idempotency and duplicate references", () => {
  it("returns the same account when the same request is repeated", async () => {
    const c = client(await harness().merchant());
    const first = await c.virtualAccount(individual());
    await c.advance("10m");
    const again = expectCreated(await post(c, individual()));
    expect(again).toEqual(first);
    expect(again.created_at).toBe(at(0));
    expect(await c.virtualAccounts()).toEqual([first]);
  });

  it("is idempotent for a business and for a merchant-KYC identity too", async () => {
    const c = client(await harness().merchant({ kyc: { nin: "70012345678" } }));
    const b1 = await c.virtualAccount(business());
    expect(await c.virtualAccount(business())).toEqual(b1);
    const i1 = await c.virtualAccount(individual({ bvn: undefined }));
    expect(await c.virtualAccount(individual({ bvn: undefined }))).toEqual(i1);
    expect((await c.virtualAccounts()).map((a) => a.account_number)).toEqual([b1.account_number, i1.account_number]);
  });

  it("refuses a reused reference with another identity or customer (409 DUPLICATE_REFERENCE) and changes nothing", async () => {
    const c = client(await harness().merchant({ kyc: { bvn: "22212345678" } }));
    const first = await c.virtualAccount(individual());
    const attempts = [
      individual({ bvn: "22399999999" }),
      individual({ bvn: undefined, nin: "12345678901" }),
      individual({ bvn: undefined }), // would resolve to the merchant's KYC BVN
      individual({ first_name: "Bola" }),
      individual({ email: "someone.else@example.com" }),
      business({ reference: "CUST-001" }),
    ];
    for (const body of attempts) {
      expectError(await post(c, body), 409, "DUPLICATE_REFERENCE");
    }
    expect(await c.virtualAccounts()).toEqual([first]);
    expect(identityOf(c, first)).toEqual({ type: "bvn", value: "22345678901", source: "customer" });
    const get = await c.call("GET", `/api/v1/virtual-account/${first.account_number}`);
    expect(get.body.data).toEqual(first);
  });

  it("lets two merchants use the same reference independently", async () => {
    const h = harness();
    const a = client(await h.merchant());
    const b = client(await h.merchant());
    const ra = await a.virtualAccount(individual());
    const rb = await b.virtualAccount(individual({ bvn: "22399999999" }));
    expect(identityOf(a, ra).value).toBe("22345678901");
    expect(identityOf(b, rb).value).toBe("22399999999");
  });
});

describe("GET /api/v1/virtual-account/{account_number} and GET /api/v1/virtual-accounts", () => {
  it("returns one account in a data wrapper", async () => {
    const c = client(await harness().merchant());
    const created = await c.virtualAccount(individual());
    const res = await c.call("GET", `/api/v1/virtual-account/${created.account_number}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: created });
  });

  it("answers 404 NOT_FOUND for an unknown account number", async () => {
    const c = client(await harness().merchant());
    await c.virtualAccount(individual());
    expectError(await c.call("GET", "/api/v1/virtual-account/0000000000"), 404, "NOT_FOUND");
  });

  it("lists the merchant's accounts oldest first, and an empty array before any", async () => {
    const c = client(await harness().merchant());
    expect((await c.call("GET", "/api/v1/virtual-accounts")).body).toEqual({ success: true, data: [] });
    const one = await c.virtualAccount(individual());
    await c.advance(1);
    const two = await c.virtualAccount(business());
    const res = await c.call("GET", "/api/v1/virtual-accounts");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: [one, two] });
  });

  it("lists only the calling merchant's accounts; another merchant's account is a 404", async () => {
    const h = harness();
    const a = client(await h.merchant());
    const b = client(await h.merchant());
    const ofA = await a.virtualAccount(individual());
    const ofB = await b.virtualAccount(business());
    expect(await a.virtualAccounts()).toEqual([ofA]);
    expect(await b.virtualAccounts()).toEqual([ofB]);
    expectError(await b.call("GET", `/api/v1/virtual-account/${ofA.account_number}`), 404, "NOT_FOUND");
    expectError(await a.call("GET", `/api/v1/virtual-account/${ofB.account_number}`), 404, "NOT_FOUND");
  });
});

describe("transfers into a virtual account and GET /api/v1/transaction/status", () => {
  /** The transfer as sent, its reply unchecked (for refusals). */
  const postTransfer = (c: TestClient, n: string, body: Record<string, unknown>) =>
    c.call("POST", `/sandbox/v1/virtual-accounts/${n}/transfers`, { body });

  it("credits the wallet at once and reports the payment by its narration", async () => {
    const c = client(await harness().merchant({ wallet_balance: 1000 }));
    const n = (await c.virtualAccount(individual())).account_number;
    await c.advance("2m");
    const t = await c.transferIn(n, 15_000.75, { narration: "INV-2026-0042", payer_name: "CHUKWU EMEKA", payer_bank: "Access Bank" });
    const record = {
      reference: "INV-2026-0042",
      amount: 15_000.75,
      currency: "NGN",
      status: "success",
      payer_name: "CHUKWU EMEKA",
      payer_bank: "Access Bank",
      virtual_account: n,
      created_at: at(2 * 60),
    };
    expect(t).toMatchObject(record);
    expect(await c.balance()).toBe(16_000.75);

    const res = await c.call("GET", "/api/v1/transaction/status?reference=INV-2026-0042");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { ...record, transaction_id: t.transaction_id } });
    expectLedgerConsistent(c.tenant);
  });

  it("returns the most recent payment when two transfers carry the same narration", async () => {
    const c = client(await harness().merchant({ wallet_balance: 0 }));
    const n = (await c.virtualAccount(individual())).account_number;
    const first = await c.transferIn(n, 500, { narration: "school fees", payer_name: "ADA OBI", payer_bank: "Kuda" });
    await c.advance("1m");
    const second = await c.transferIn(n, 750.5, { narration: "school fees", payer_name: "BOLA ADE", payer_bank: "OPay" });
    expect(second.transaction_id).not.toBe(first.transaction_id);
    expect(await c.balance()).toBe(1250.5);

    const res = await c.call("GET", `/api/v1/transaction/status?reference=${encodeURIComponent("school fees")}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      reference: "school fees",
      amount: 750.5,
      currency: "NGN",
      status: "success",
      payer_name: "BOLA ADE",
      payer_bank: "OPay",
      virtual_account: n,
      transaction_id: second.transaction_id,
      created_at: at(60),
    });
    expectLedgerConsistent(c.tenant);
  });

  it("credits transfers into several accounts to the one wallet", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100 }));
    const n1 = (await c.virtualAccount(individual())).account_number;
    const n2 = (await c.virtualAccount(business())).account_number;
    await c.transferIn(n1, 200, { narration: "one" });
    await c.transferIn(n2, 300.25, { narration: "two" });
    expect(await c.balance()).toBe(600.25);
    const two = await c.call("GET", "/api/v1/transaction/status?reference=two");
    expect(two.body.data).toMatchObject({ reference: "two", amount: 300.25, virtual_account: n2, status: "success" });
    expect(c.tenant.state.ledger.length).toBe(3);
    expectLedgerConsistent(c.tenant);
  });

  it("answers 404 NOT_FOUND for an unknown reference", async () => {
    const c = client(await harness().merchant());
    const n = (await c.virtualAccount(individual())).account_number;
    await c.transferIn(n, 100, { narration: "known" });
    expectError(await c.call("GET", "/api/v1/transaction/status?reference=unknown"), 404, "NOT_FOUND");
    expectLedgerConsistent(c.tenant);
  });

  it("answers 422 VALIDATION_ERROR naming reference when it is missing or empty", async () => {
    const c = client(await harness().merchant());
    for (const path of ["/api/v1/transaction/status", "/api/v1/transaction/status?reference="]) {
      expectInvalid(await c.call("GET", path), ["reference"]);
    }
  });

  it("does not show one merchant's payments to another", async () => {
    const h = harness();
    const a = client(await h.merchant({ wallet_balance: 0 }));
    const b = client(await h.merchant({ wallet_balance: 0 }));
    const n = (await a.virtualAccount(individual())).account_number;
    await a.transferIn(n, 1000, { narration: "private" });
    expectError(await b.call("GET", "/api/v1/transaction/status?reference=private"), 404, "NOT_FOUND");
    // B cannot push money into A's account through its own keys either.
    expectError(await postTransfer(b, n, { amount: 1000, narration: "x" }), 404, "NOT_FOUND");
    expect(await a.balance()).toBe(1000);
    expect(await b.balance()).toBe(0);
    expectLedgerConsistent(a.tenant);
    expectLedgerConsistent(b.tenant);
  });

  it("refuses a transfer to an unknown account and credits nothing", async () => {
    const c = client(await harness().merchant({ wallet_balance: 50 }));
    expectError(await postTransfer(c, "0000000000", { amount: 100 }), 404, "NOT_FOUND");
    expect(await c.balance()).toBe(50);
    expect(c.tenant.state.ledger.length).toBe(1);
    expectLedgerConsistent(c.tenant);
  });
});
