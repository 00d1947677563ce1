import { describe, expect, it } from "vitest";
import { balanceOf, expectError, expectLedgerConsistent, harness, START, type Merchant } from "./helpers.js";

const CARDS = "/api/v1/virtual-cards";
const HOLDERS = `${CARDS}/cardholders`;
const MASK = /^(\d{4}) (\d{2})\*\* \*\*\*\* (\d{4})$/;

/** An independent Luhn check (not the code's own). */
function luhn(pan: string): boolean {
  let sum = 0;
  for (let i = 0; i < pan.length; i++) {
    let d = Number(pan[pan.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return /^\d+$/.test(pan) && sum % 10 === 0;
}

async function newHolder(m: Merchant, email = "ada@example.com") {
  const res = await m.call("POST", HOLDERS, { body: { first_name: "Ada", last_name: "Obi", email } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.cardholder_id as number;
}

async function approvedHolder(m: Merchant, email = "ada@example.com") {
  const id = await newHolder(m, email);
  const res = await m.call("POST", `/sandbox/v1/cardholders/${id}/approve`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return id;
}

async function issue(m: Merchant, body: Record<string, unknown> = {}) {
  const holder = (body.cardholder_id as number | undefined) ?? (await approvedHolder(m));
  const res = await m.call("POST", CARDS, { body: { cardholder_id: holder, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.card_id as number;
}

async function cardOf(m: Merchant, id: number) {
  const res = await m.call("GET", `${CARDS}/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function fund(m: Merchant, id: number, amount: number) {
  const res = await m.call("POST", `${CARDS}/${id}/fund`, { body: { amount } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe("POST /api/v1/virtual-cards/cardholders", () => {
  it("registers a cardholder with top-level fields and kyc_status PENDING", async () => {
    const m = await harness().merchant();
    const res = await m.call("POST", HOLDERS, {
      body: { first_name: "Chinedu", last_name: "Okafor", email: "chinedu@example.com", phone: "08031234567" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      full_name: "Chinedu Okafor",
      email: "chinedu@example.com",
      kyc_status: "PENDING",
    });
    expect(res.body.data).toBeUndefined();
    expect(Number.isInteger(res.body.cardholder_id)).toBe(true);
    expect(res.body.cardholder_id).toBeGreaterThan(0);
  });

  it("phone is optional", async () => {
    const m = await harness().merchant();
    const res = await m.call("POST", HOLDERS, { body: { first_name: "Ada", last_name: "Obi", email: "ada@example.com" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, full_name: "Ada Obi", email: "ada@example.com", kyc_status: "PENDING" });
  });

  it("repeating the same email (in any letter case) returns the same cardholder and creates no other", async () => {
    const m = await harness().merchant();
    const first = await m.call("POST", HOLDERS, { body: { first_name: "Ada", last_name: "Obi", email: "Ada@Example.com" } });
    expect(first.status).toBe(200);
    const again = await m.call("POST", HOLDERS, { body: { first_name: "Ada", last_name: "Obi", email: "Ada@Example.com" } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const otherCase = await m.call("POST", HOLDERS, { body: { first_name: "Adaeze", last_name: "Obi", email: "ada@EXAMPLE.com" } });
    expect(otherCase.status).toBe(200);
    expect(otherCase.body.cardholder_id).toBe(first.body.cardholder_id);
    expect(otherCase.body).toEqual(first.body);
    expect(m.tenant.state.cardholders.size).toBe(1);

    const different = await m.call("POST", HOLDERS, { body: { first_name: "Bola", last_name: "Ade", email: "bola@example.com" } });
    expect(different.status).toBe(200);
    expect(different.body.cardholder_id).not.toBe(first.body.cardholder_id);
    expect(m.tenant.state.cardholders.size).toBe(2);
  });

  it("repeating the email of an approved cardholder returns it APPROVED", async () => {
    const m = await harness().merchant();
    const id = await approvedHolder(m, "ada@example.com");
    const res = await m.call("POST", HOLDERS, { body: { first_name: "Ada", last_name: "Obi", email: "ada@example.com" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, cardholder_id: id, kyc_status: "APPROVED" });
  });

  it("rejects missing and malformed fields with 422 VALIDATION_ERROR naming each field", async () => {
    const m = await harness().merchant();
    const missing = expectError(await m.call("POST", HOLDERS, { body: {} }), 422, "VALIDATION_ERROR");
    expect(Object.keys(missing.errors ?? {}).sort()).toEqual(["email", "first_name", "last_name"]);

    const bad = expectError(
      await m.call("POST", HOLDERS, { body: { first_name: "Ada", last_name: "Obi", email: "not-an-email", phone: "12345" } }),
      422,
      "VALIDATION_ERROR",
    );
    expect(Object.keys(bad.errors ?? {}).sort()).toEqual(["email", "phone"]);

    const empty = expectError(
      await m.call("POST", HOLDERS, { body: { first_name: "", last_name: "Obi", email: "ada@example.com" } }),
      422,
      "VALIDATION_ERROR",
    );
    expect(Object.keys(empty.errors ?? {})).toEqual(["first_name"]);
    expect(m.tenant.state.cardholders.size).toBe(0);
  });

  it("malformed JSON is 400 INVALID_JSON", async () => {
    const m = await harness().merchant();
    expectError(await m.call("POST", HOLDERS, { raw: "{\"first_name\": ", headers: { "content-type": "application/json" } }), 400, "INVALID_JSON");
    expect(m.tenant.state.cardholders.size).toBe(0);
  });
});

describe("GET /api/v1/virtual-cards/cardholders/{id}", () => {
  it("returns the same top-level fields as creation", async () => {
    const m = await harness().merchant();
    const created = await m.call("POST", HOLDERS, { body: { first_name: "Ada", last_name: "Obi", email: "ada@example.com", phone: "08031234567" } });
    const res = await m.call("GET", `${HOLDERS}/${created.body.cardholder_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created.body);
    expect(res.body).toMatchObject({ success: true, full_name: "Ada Obi", email: "ada@example.com", kyc_status: "PENDING" });
  });

  it("unknown id is 404 NOT_FOUND; non-numeric id is 422 VALIDATION_ERROR", async () => {
    const m = await harness().merchant();
    await newHolder(m);
    expectError(await m.call("GET", `${HOLDERS}/999`), 404, "NOT_FOUND");
    const bad = expectError(await m.call("GET", `${HOLDERS}/abc`), 422, "VALIDATION_ERROR");
    expect(Object.keys(bad.errors ?? {})).toEqual(["id"]);
  });
});

describe("POST /sandbox/v1/cardholders/{id}/approve", () => {
  it("sets kyc_status to APPROVED, visible through GET", async () => {
    const m = await harness().merchant();
    const id = await newHolder(m);
    const res = await m.call("POST", `/sandbox/v1/cardholders/${id}/approve`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, cardholder_id: id, full_name: "Ada Obi", email: "ada@example.com", kyc_status: "APPROVED" });
    const get = await m.call("GET", `${HOLDERS}/${id}`);
    expect(get.body).toMatchObject({ success: true, cardholder_id: id, kyc_status: "APPROVED" });
  });

  it("unknown id is 404, non-numeric id is 422, no credentials is 401", async () => {
    const m = await harness().merchant();
    expectError(await m.call("POST", "/sandbox/v1/cardholders/77/approve"), 404, "NOT_FOUND");
    expectError(await m.call("POST", "/sandbox/v1/cardholders/abc/approve"), 422, "VALIDATION_ERROR");
    const id = await newHolder(m);
    expectError(await m.call("POST", `/sandbox/v1/cardholders/${id}/approve`, { anonymous: true }), 401, "MISSING_CREDENTIALS");
    expect(m.tenant.state.cardholders.get(id)!.kyc_status).toBe("PENDING");
  });
});

describe("POST /api/v1/virtual-cards (issue)", () => {
  it("fails for a PENDING cardholder with 422 KYC_NOT_APPROVED and creates nothing", async () => {
    const m = await harness().merchant();
    const id = await newHolder(m);
    expectError(await m.call("POST", CARDS, { body: { cardholder_id: id, brand: "VISA" } }), 422, "KYC_NOT_APPROVED");
    expect(m.tenant.state.cards.size).toBe(0);
    const list = await m.call("GET", CARDS);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
    expect(list.body.pagination).toMatchObject({ total: 0 });
    expect(await balanceOf(m)).toBe(1_000_000);
  });

  it("works after approval: top-level card fields, VISA by default, expiry three years on", async () => {
    const m = await harness().merchant();
    const holder = await newHolder(m);
    expectError(await m.call("POST", CARDS, { body: { cardholder_id: holder } }), 422, "KYC_NOT_APPROVED");
    await m.call("POST", `/sandbox/v1/cardholders/${holder}/approve`);
    const res = await m.call("POST", CARDS, { body: { cardholder_id: holder } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      brand: "VISA",
      expiry_month: 3,
      expiry_year: 2029,
      currency: "USD",
      status: "active",
    });
    expect(res.body.data).toBeUndefined();
    expect(Number.isInteger(res.body.card_id)).toBe(true);
    expect(res.body.masked_pan).toMatch(MASK);
    expect(res.body.masked_pan.startsWith("4")).toBe(true);
    expect(m.tenant.state.cards.size).toBe(1);
  });

  it("expiry follows the merchant's simulated date", async () => {
    const m = await harness().merchant({ clock: { now: "2027-11-20T12:00:00.000Z" } });
    const card = await issue(m);
    const got = await cardOf(m, card);
    expect(got).toMatchObject({ expiry_month: 11, expiry_year: 2030 });
  });

  it("VISA PANs start with 4, are Luhn-valid and match the mask (first 6, last 4)", async () => {
    const m = await harness().merchant();
    const holder = await approvedHolder(m);
    for (let i = 0; i < 8; i++) {
      const res = await m.call("POST", CARDS, { body: { cardholder_id: holder, brand: "VISA" } });
      expect(res.status).toBe(200);
      expect(res.body.brand).toBe("VISA");
      const pan = m.tenant.state.cards.get(res.body.card_id)!.pan;
      expect(pan).toMatch(/^4\d{15}$/);
      expect(luhn(pan)).toBe(true);
      const [, g1, g2, g4] = MASK.exec(res.body.masked_pan)!;
      expect(`${g1}${g2}`).toBe(pan.slice(0, 6));
      expect(g4).toBe(pan.slice(-4));
    }
  });

  it("(the test's own Luhn check accepts known-good numbers and refuses altered ones)", () => {
    expect(luhn("4111111111111111")).toBe(true);
    expect(luhn("5555555555554444")).toBe(true);
    expect(luhn("4111111111111112")).toBe(false);
    expect(luhn("5555555555554443")).toBe(false);
  });

  it("MASTERCARD PANs start with 51-55, are Luhn-valid and match the mask", async () => {
    const m = await harness().merchant();
    const holder = await approvedHolder(m);
    for (let i = 0; i < 10; i++) {
      const res = await m.call("POST", CARDS, { body: { cardholder_id: holder, brand: "MASTERCARD", label: `card ${i}` } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, brand: "MASTERCARD", currency: "USD", status: "active" });
      const pan = m.tenant.state.cards.get(res.body.card_id)!.pan;
      expect(pan).toMatch(/^5[1-5]\d{14}$/);
      expect(luhn(pan)).toBe(true);
      expect(res.body.masked_pan).toBe(`${pan.slice(0, 4)} ${pan.slice(4, 6)}** **** ${pan.slice(-4)}`);
    }
  });

  it("card ids are distinct integers and PANs are distinct", async () => {
    const m = await harness().merchant();
    const holder = await approvedHolder(m);
    const ids = [await issue(m, { cardholder_id: holder }), await issue(m, { cardholder_id: holder }), await issue(m, { cardholder_id: holder })];
    expect(new Set(ids).size).toBe(3);
    const pans = ids.map((id) => m.tenant.state.cards.get(id)!.pan);
    expect(new Set(pans).size).toBe(3);
  });

  it("rejects brands other than VISA and MASTERCARD with 422 on brand", async () => {
    const m = await harness().merchant();
    const holder = await approvedHolder(m);
    for (const brand of ["AMEX", "VERVE", "visa", "", 4]) {
      const err = expectError(await m.call("POST", CARDS, { body: { cardholder_id: holder, brand } }), 422, "VALIDATION_ERROR");
      expect(Object.keys(err.errors ?? {})).toEqual(["brand"]);
    }
    expect(m.tenant.state.cards.size).toBe(0);
  });

  it("cardholder_id is required and must be an integer; an unknown cardholder is 404", async () => {
    const m = await harness().merchant();
    await approvedHolder(m);
    const missing = expectError(await m.call("POST", CARDS, { body: { brand: "VISA" } }), 422, "VALIDATION_ERROR");
    expect(Object.keys(missing.errors ?? {})).toEqual(["cardholder_id"]);
    const str = expectError(await m.call("POST", CARDS, { body: { cardholder_id: "1" } }), 422, "VALIDATION_ERROR");
    expect(Object.keys(str.errors ?? {})).toEqual(["cardholder_id"]);
    expectError(await m.call("POST", CARDS, { body: { cardholder_id: 1.5 } }), 422, "VALIDATION_ERROR");
    expectError(await m.call("POST", CARDS, { body: { cardholder_id: 999 } }), 404, "NOT_FOUND");
    expect(m.tenant.state.cards.size).toBe(0);
  });

  it("accepts an optional label and returns it on the card", async () => {
    const m = await harness().merchant();
    const card = await issue(m, { label: "Ads budget" });
    expect((await cardOf(m, card)).label).toBe("Ads budget");
  });
});

describe("GET /api/v1/virtual-cards (list)", () => {
  it("lists cards with the spec's fields and pagination", async () => {
    const m = await harness().merchant();
    const holder = await approvedHolder(m);
    const visa = await issue(m, { cardholder_id: holder, brand: "VISA" });
    m.tenant.clock.advanceBy(60_000);
    const mc = await issue(m, { cardholder_id: holder, brand: "MASTERCARD" });
    const res = await m.call("GET", CARDS);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.pagination).toMatchObject({ current_page: 1, total_pages: 1, total: 2 });
    expect(res.body.data).toHaveLength(2);
    const byId = new Map<number, any>(res.body.data.map((c: any) => [c.card_id, c]));
    expect(byId.get(visa)).toMatchObject({
      card_id: visa,
      brand: "VISA",
      masked_pan: m.tenant.state.cards.get(visa)!.masked_pan,
      currency: "USD",
      balance: 0,
      status: "active",
      created_at: new Date(START).toISOString(),
    });
    expect(byId.get(mc)).toMatchObject({
      card_id: mc,
      brand: "MASTERCARD",
      currency: "USD",
      balance: 0,
      status: "active",
      created_at: new Date(START + 60_000).toISOString(),
    });
  });

  it("pages with page and per_page: 3 cards at per_page=2 give 2 then 1", async () => {
    const m = await harness().merchant();
    const holder = await approvedHolder(m);
    const ids = [await issue(m, { cardholder_id: holder }), await issue(m, { cardholder_id: holder }), await issue(m, { cardholder_id: holder })];
    const p1 = await m.call("GET", `${CARDS}?page=1&per_page=2`);
    expect(p1.status).toBe(200);
    expect(p1.body.data).toHaveLength(2);
    expect(p1.body.pagination).toMatchObject({ current_page: 1, total_pages: 2, total: 3 });
    const p2 = await m.call("GET", `${CARDS}?page=2&per_page=2`);
    expect(p2.status).toBe(200);
    expect(p2.body.data).toHaveLength(1);
    expect(p2.body.pagination).toMatchObject({ current_page: 2, total_pages: 2, total: 3 });
    const seen = [...p1.body.data, ...p2.body.data].map((c: any) => c.card_id).sort((a: number, b: number) => a - b);
    expect(seen).toEqual([...ids].sort((a, b) => a - b));
    const p3 = await m.call("GET", `${CARDS}?page=3&per_page=2`);
    expect(p3.status).toBe(200);
    expect(p3.body.data).toEqual([]);
    expect(p3.body.pagination).toMatchObject({ current_page: 3, total_pages: 2, total: 3 });
  });

  it("rejects per_page over 100, per_page 0, page 0 and non-numeric paging with 422", async () => {
    const m = await harness().merchant();
    await issue(m);
    for (const q of ["per_page=101", "per_page=0", "page=0", "page=abc", "per_page=2.5"]) {
      const err = expectError(await m.call("GET", `${CARDS}?${q}`), 422, "VALIDATION_ERROR");
      expect(Object.keys(err.errors ?? {})).toEqual([q.split("=")[0]]);
    }
    const ok = await m.call("GET", `${CARDS}?per_page=100`);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toHaveLength(1);
  });
});

describe("GET /api/v1/virtual-cards/{id}", () => {
  it("returns the card at the top level including balance", async () => {
    const m = await harness().merchant();
    const holder = await approvedHolder(m);
    const issued = await m.call("POST", CARDS, { body: { cardholder_id: holder, brand: "MASTERCARD" } });
    const res = await m.call("GET", `${CARDS}/${issued.body.card_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      card_id: issued.body.card_id,
      brand: "MASTERCARD",
      masked_pan: issued.body.masked_pan,
      expiry_month: issued.body.expiry_month,
      expiry_year: issued.body.expiry_year,
      currency: "USD",
      balance: 0,
      status: "active",
    });
  });

  it("unknown id is 404 on every card endpoint; non-numeric id is 422", async () => {
    const m = await harness().merchant();
    await issue(m);
    const calls: Array<[string, string, unknown?]> = [
      ["GET", ""],
      ["POST", "/fund", { amount: 5 }],
      ["POST", "/unload", { amount: 5 }],
      ["POST", "/freeze"],
      ["POST", "/unfreeze"],
      ["POST", "/terminate"],
      ["GET", "/transactions"],
    ];
    for (const [method, suffix, body] of calls) {
      expectError(await m.call(method, `${CARDS}/404${suffix}`, { body }), 404, "NOT_FOUND");
      const err = expectError(await m.call(method, `${CARDS}/xyz${suffix}`, { body }), 422, "VALIDATION_ERROR");
      expect(err.errors).toHaveProperty("id");
    }
    expect(await balanceOf(m)).toBe(1_000_000);
    expectLedgerConsistent(m.tenant);
  });
});

describe("POST /api/v1/virtual-cards/{id}/fund", () => {
  it("adds the amount to the card and debits (amount + 1 USD fee) x 1600 from the wallet by default", async () => {
    const m = await harness().merchant();
    const card = await issue(m);
    const res = await m.call("POST", `${CARDS}/${card}/fund`, { body: { amount: 10 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      card_id: card,
      amount: 10,
      fee: 1,
      currency: "USD",
      balance: 10,
      exchange_rate: 1600,
      wallet_amount: 17_600,
    });
    expect((await cardOf(m, card)).balance).toBe(10);
    expect(await balanceOf(m)).toBe(1_000_000 - 17_600);
    await fund(m, card, 2.5);
    expect((await cardOf(m, card)).balance).toBe(12.5);
    expect(await balanceOf(m)).toBe(1_000_000 - 17_600 - 5_600);
    expectLedgerConsistent(m.tenant);
  });

  it("uses the merchant's own fee and rate (2.5 USD fee, 1500 NGN per USD)", async () => {
    const m = await harness().merchant({ card_funding_fee_usd: 2.5, usd_ngn_rate: 1500, wallet_balance: 100_000 });
    const card = await issue(m);
    const res = await fund(m, card, 12.34);
    expect(res).toMatchObject({ success: true, amount: 12.34, fee: 2.5, balance: 12.34, exchange_rate: 1500, wallet_amount: 22_260 });
    expect((await cardOf(m, card)).balance).toBe(12.34);
    expect(await balanceOf(m)).toBe(100_000 - 22_260);
    expectLedgerConsistent(m.tenant);
  });

  it("a zero fee charges just amount x rate", async () => {
    const m = await harness().merchant({ card_funding_fee_usd: 0, usd_ngn_rate: 1550 });
    const card = await issue(m);
    await fund(m, card, 20);
    expect(await balanceOf(m)).toBe(1_000_000 - 31_000);
    expectLedgerConsistent(m.tenant);
  });

  it("an insufficient wallet is 422 INSUFFICIENT_BALANCE and changes nothing", async () => {
    const m = await harness().merchant({ wallet_balance: 17_599 });
    const card = await issue(m);
    const ledgerBefore = m.tenant.state.ledger.length;
    expectError(await m.call("POST", `${CARDS}/${card}/fund`, { body: { amount: 10 } }), 422, "INSUFFICIENT_BALANCE");
    expect((await cardOf(m, card)).balance).toBe(0);
    expect(await balanceOf(m)).toBe(17_599);
    expect(m.tenant.state.ledger.length).toBe(ledgerBefore);
    const txns = await m.call("GET", `${CARDS}/${card}/transactions`);
    expect(txns.body.data).toEqual([]);
    expect(txns.body.pagination).toMatchObject({ total: 0 });
    expectLedgerConsistent(m.tenant);

    // Exactly enough (amount + fee) x rate succeeds and empties the wallet.
    await m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 1 } });
    await fund(m, card, 10);
    expect(await balanceOf(m)).toBe(0);
    expect((await cardOf(m, card)).balance).toBe(10);
    expectLedgerConsistent(m.tenant);
  });

  it("rejects a missing, zero, negative, non-numeric or over-precise amount with 422 and moves nothing", async () => {
    const m = await harness().merchant();
    const card = await issue(m);
    for (const body of [{}, { amount: 0 }, { amount: -5 }, { amount: "10" }, { amount: 1.005 }]) {
      const err = expectError(await m.call("POST", `${CARDS}/${card}/fund`, { body }), 422, "VALIDATION_ERROR");
      expect(Object.keys(err.errors ?? {})).toEqual(["amount"]);
    }
    expect((await cardOf(m, card)).balance).toBe(0);
    expect(await balanceOf(m)).toBe(1_000_000);
    expectLedgerConsistent(m.tenant);
  });
});

describe("POST /api/v1/virtual-cards/{id}/unload", () => {
  it("moves USD back to the wallet at the merchant's rate with no fee", async () => {
    const m = await harness().merchant();
    const card = await issue(m);
    await fund(m, card, 10);
    const afterFund = await balanceOf(m);
    const res = await m.call("POST", `${CARDS}/${card}/unload`, { body: { amount: 4 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, card_id: card, amount: 4, fee: 0, currency: "USD", balance: 6, exchange_rate: 1600, wallet_amount: 6_400 });
    expect((await cardOf(m, card)).balance).toBe(6);
    expect(await balanceOf(m)).toBe(afterFund + 6_400);
    expectLedgerConsistent(m.tenant);
  });

  it("uses the merchant's own rate (1500)", async () => {
    const m = await harness().merchant({ card_funding_fee_usd: 2.5, usd_ngn_rate: 1500 });
    const card = await issue(m);
    await fund(m, card, 10);
    expect(await balanceOf(m)).toBe(1_000_000 - 18_750);
    const res = await m.call("POST", `${CARDS}/${card}/unload`, { body: { amount: 10 } });
    expect(res.status).toBe(200);
    expect(await balanceOf(m)).toBe(1_000_000 - 18_750 + 15_000);
    expect((await cardOf(m, card)).balance).toBe(0);
    expectLedgerConsistent(m.tenant);
  });

  it("more than the card balance is 422 INSUFFICIENT_CARD_BALANCE and changes nothing", async () => {
    const m = await harness().merchant();
    const card = await issue(m);
    await fund(m, card, 5);
    const wallet = await balanceOf(m);
    const ledgerBefore = m.tenant.state.ledger.length;
    expectError(await m.call("POST", `${CARDS}/${card}/unload`, { body: { amount: 5.01 } }), 422, "INSUFFICIENT_CARD_BALANCE");
    expect((await cardOf(m, card)).balance).toBe(5);
    expect(await balanceOf(m)).toBe(wallet);
    expect(m.tenant.state.ledger.length).toBe(ledgerBefore);
    expectLedgerConsistent(m.tenant);
  });

  it("an empty card cannot be unloaded", async () => {
    const m = await harness().merchant();
    const card = await issue(m);
    expectError(await m.call("POST", `${CARDS}/${card}/unload`, { body: { amount: 1 } }), 422, "INSUFFICIENT_CARD_BALANCE");
    expect(await balanceOf(m)).toBe(1_000_000);
    expectLedgerConsistent(m.tenant);
  });

  it("validates the amount", async () => {
    const m = await harness().merchant();
    const card = await issue(m);
    await fund(m, card, 5);
    for (const body of [{}, { amount: 0 }, { amount: -1 }, { amount: "1" }]) {
      const err = expectError(await m.call("POST", `${CARDS}/${card}/unload`, { body }), 422, "VALIDATION_ERROR");
      expect(Object.keys(err.errors ?? {})).toEqual(["amount"]);
    }
    expect((await cardOf(m, card)).balance).toBe(5);
    expectLedgerConsistent(m.tenant);
  });
});

describe("freeze, unfreeze, terminate", () => {
  it("freeze then unfreeze answer success and message at the top level", async () => {
    const m = await harness().merchant();
    const card = await issue(m);
    const frozen = await m.call("POST", `${CARDS}/${card}/freeze`);
    expect(frozen.status).toBe(200);
    expect(frozen.body).toMatchObject({ success: true, card_id: card, status: "frozen" });
    expect(typeof frozen.body.message).toBe("string");
    expect(frozen.body.message.length).toBeGreaterThan(0);
    expect((await cardOf(m, card)).status).toBe("frozen");

    const unfrozen = await m.call("POST", `${CARDS}/${card}/unfreeze`);
    expect(unfrozen.status).toBe(200);
    expect(unfrozen.body).toMatchObject({ success: true, card_id: card, status: "active" });
    expect(typeof unfrozen.body.message).toBe("string");
    expect((await cardOf(m, card)).status).toBe("active");
  });

  it("freezing a frozen card or unfreezing an active card is 409 INVALID_STATE", async () => {
    const m = await harness().merchant();
    const card = await issue(m);
    expectError(await m.call("POST", `${CARDS}/${card}/unfreeze`), 409, "INVALID_STATE");
    expect((await cardOf(m, card)).status).toBe("active");
    await m.call("POST", `${CARDS}/${card}/freeze`);
    expectError(await m.call("POST", `${CARDS}/${card}/freeze`), 409, "INVALID_STATE");
    expect((await cardOf(m, card)).status).toBe("frozen");
  });

  it("terminate answers success, message and status terminated; the card stays listed as terminated", async () => {
    const m = await harness().merchant();
    const card = await issue(m);
    const res = await m.call("POST", `${CARDS}/${card}/terminate`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, card_id: card, status: "terminated", refunded_amount: 0 });
    expect(typeof res.body.message).toBe("string");
    expect(res.body.message.length).toBeGreaterThan(0);
    expect((await cardOf(m, card)).status).toBe("terminated");
    const list = await m.call("GET", CARDS);
    expect(list.body.data.find((c: any) => c.card_id === card)).toMatchObject({ status: "terminated" });
    expect(await balanceOf(m)).toBe(1_000_000);
    expectLedgerConsistent(m.tenant);
  });

  it("terminate is permanent: fund, unload, freeze, unfreeze and terminate again are 409 INVALID_STATE", async () => {
    const m = await harness().merchant();
    const card = await issue(m);
    await fund(m, card, 3);
    await m.call("POST", `${CARDS}/${card}/terminate`);
    const wallet = await balanceOf(m);
    const ledgerBefore = m.tenant.state.ledger.length;
    expectError(await m.call("POST", `${CARDS}/${card}/fund`, { body: { amount: 5 } }), 409, "INVALID_STATE");
    expectError(await m.call("POST", `${CARDS}/${card}/unload`, { body: { amount: 1 } }), 409, "INVALID_STATE");
    expectError(await m.call("POST", `${CARDS}/${card}/freeze`), 409, "INVALID_STATE");
    expectError(await m.call("POST", `${CARDS}/${card}/unfreeze`), 409, "INVALID_STATE");
    expectError(await m.call("POST", `${CARDS}/${card}/terminate`), 409, "INVALID_STATE");
    expect(await cardOf(m, card)).toMatchObject({ status: "terminated", balance: 0 });
    expect(await balanceOf(m)).toBe(wallet);
    expect(m.tenant.state.ledger.length).toBe(ledgerBefore);
    expectLedgerConsistent(m.tenant);
  });

  it("a frozen card can be terminated and then cannot be unfrozen", async () => {
    const m = await harness().merchant();
    const card = await issue(m);
    await m.call("POST", `${CARDS}/${card}/freeze`);
    const res = await m.call("POST", `${CARDS}/${card}/terminate`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, status: "terminated" });
    expectError(await m.call("POST", `${CARDS}/${card}/unfreeze`), 409, "INVALID_STATE");
    expect((await cardOf(m, card)).status).toBe("terminated");
  });

  it("terminating a card with a balance returns it to the wallet (refunded_amount)", async () => {
    const m = await harness().merchant({ card_funding_fee_usd: 2.5, usd_ngn_rate: 1500 });
    const card = await issue(m);
    await fund(m, card, 7.25);
    expect(await balanceOf(m)).toBe(1_000_000 - 14_625);
    const res = await m.call("POST", `${CARDS}/${card}/terminate`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, card_id: card, status: "terminated", refunded_amount: 7.25 });
    expect(await cardOf(m, card)).toMatchObject({ status: "terminated", balance: 0 });
    expect(await balanceOf(m)).toBe(1_000_000 - 14_625 + 10_875);
    expectLedgerConsistent(m.tenant);
  });
});

describe("GET /api/v1/virtual-cards/{id}/transactions", () => {
  it("lists the card's own funding and unload entries, newest first, paginated", async () => {
    const m = await harness().merchant();
    const card = await issue(m);
    await fund(m, card, 10);
    m.tenant.clock.advanceBy(60_000);
    const unload = await m.call("POST", `${CARDS}/${card}/unload`, { body: { amount: 3 } });
    expect(unload.status).toBe(200);
    m.tenant.clock.advanceBy(60_000);
    await fund(m, card, 5);

    const res = await m.call("GET", `${CARDS}/${card}/transactions`);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.pagination).toMatchObject({ current_page: 1, total_pages: 1, total: 3 });
    expect(res.body.data.map((t: any) => [t.type, t.amount])).toEqual([
      ["funding", 5],
      ["unload", 3],
      ["funding", 10],
    ]);
    expect(res.body.data[0]).toMatchObject({ card_id: card, currency: "USD", balance_after: 12, created_at: new Date(START + 120_000).toISOString() });
    expect(res.body.data[1]).toMatchObject({ card_id: card, balance_after: 7, created_at: new Date(START + 60_000).toISOString() });
    expect(res.body.data[1].transaction_id).toBe(unload.body.transaction_id);
    expect(res.body.data[2]).toMatchObject({ card_id: card, balance_after: 10, created_at: new Date(START).toISOString() });

    const p1 = await m.call("GET", `${CARDS}/${card}/transactions?per_page=2`);
    expect(p1.body.data.map((t: any) => t.amount)).toEqual([5, 3]);
    expect(p1.body.pagination).toMatchObject({ current_page: 1, total_pages: 2, total: 3 });
    const p2 = await m.call("GET", `${CARDS}/${card}/transactions?per_page=2&page=2`);
    expect(p2.body.data.map((t: any) => t.amount)).toEqual([10]);
    expect(p2.body.pagination).toMatchObject({ current_page: 2, total_pages: 2, total: 3 });
    expectError(await m.call("GET", `${CARDS}/${card}/transactions?per_page=101`), 422, "VALIDATION_ERROR");
    expectLedgerConsistent(m.tenant);
  });

  it("is separate from wallet history and from other cards", async () => {
    const m = await harness().merchant();
    const holder = await approvedHolder(m);
    const a = await issue(m, { cardholder_id: holder });
    const b = await issue(m, { cardholder_id: holder });
    await m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 50_000 } });
    await fund(m, a, 4);
    await fund(m, b, 6);
    const ta = await m.call("GET", `${CARDS}/${a}/transactions`);
    expect(ta.body.data).toHaveLength(1);
    expect(ta.body.data[0]).toMatchObject({ card_id: a, type: "funding", amount: 4 });
    expect(ta.body.pagination).toMatchObject({ total: 1 });
    const tb = await m.call("GET", `${CARDS}/${b}/transactions`);
    expect(tb.body.data).toHaveLength(1);
    expect(tb.body.data[0]).toMatchObject({ card_id: b, type: "funding", amount: 6 });
    expectLedgerConsistent(m.tenant);
  });

  it("a new card has an empty history; termination with a balance records the return", async () => {
    const m = await harness().merchant();
    const card = await issue(m);
    const empty = await m.call("GET", `${CARDS}/${card}/transactions`);
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ success: true, data: [], pagination: { current_page: 1, total: 0 } });
    await fund(m, card, 2);
    await m.call("POST", `${CARDS}/${card}/terminate`);
    const after = await m.call("GET", `${CARDS}/${card}/transactions`);
    expect(after.status).toBe(200);
    expect(after.body.data.map((t: any) => [t.type, t.amount, t.balance_after])).toEqual([
      ["unload", 2, 0],
      ["funding", 2, 2],
    ]);
    expectLedgerConsistent(m.tenant);
  });
});

describe("capability and tenancy", () => {
  it("every card endpoint is 403 SERVICE_NOT_ENABLED when virtual_cards is off", async () => {
    const m = await harness().merchant({ capabilities: { virtual_cards: false } });
    const calls: Array<[string, string, unknown?]> = [
      ["POST", HOLDERS, { first_name: "Ada", last_name: "Obi", email: "ada@example.com" }],
      ["GET", `${HOLDERS}/1`],
      ["POST", CARDS, { cardholder_id: 1 }],
      ["GET", CARDS],
      ["GET", `${CARDS}/1`],
      ["POST", `${CARDS}/1/fund`, { amount: 5 }],
      ["POST", `${CARDS}/1/unload`, { amount: 5 }],
      ["POST", `${CARDS}/1/freeze`],
      ["POST", `${CARDS}/1/unfreeze`],
      ["POST", `${CARDS}/1/terminate`],
      ["GET", `${CARDS}/1/transactions`],
    ];
    for (const [method, path, body] of calls) {
      expectError(await m.call(method, path, { body }), 403, "SERVICE_NOT_ENABLED");
    }
    expect(m.tenant.state.cardholders.size).toBe(0);
    expect(await balanceOf(m)).toBe(1_000_000);
  });

  it("requires credentials", async () => {
    const m = await harness().merchant();
    expectError(await m.call("GET", CARDS, { anonymous: true }), 401, "MISSING_CREDENTIALS");
    expectError(
      await m.call("GET", CARDS, { anonymous: true, headers: { "x-api-key": m.apiKey, "x-api-secret": "wrong" } }),
      401,
      "INVALID_CREDENTIALS",
    );
  });

  it("cards and cardholders of merchant A are 404 for merchant B, and B's actions leave A unchanged", async () => {
    const h = harness();
    const a = await h.merchant();
    const b = await h.merchant();
    const holder = await approvedHolder(a);
    const card = await issue(a, { cardholder_id: holder });
    await fund(a, card, 10);
    const aWallet = await balanceOf(a);

    expectError(await b.call("GET", `${HOLDERS}/${holder}`), 404, "NOT_FOUND");
    expectError(await b.call("POST", `/sandbox/v1/cardholders/${holder}/approve`), 404, "NOT_FOUND");
    expectError(await b.call("POST", CARDS, { body: { cardholder_id: holder } }), 404, "NOT_FOUND");
    expectError(await b.call("GET", `${CARDS}/${card}`), 404, "NOT_FOUND");
    expectError(await b.call("POST", `${CARDS}/${card}/fund`, { body: { amount: 1 } }), 404, "NOT_FOUND");
    expectError(await b.call("POST", `${CARDS}/${card}/unload`, { body: { amount: 1 } }), 404, "NOT_FOUND");
    expectError(await b.call("POST", `${CARDS}/${card}/freeze`), 404, "NOT_FOUND");
    expectError(await b.call("POST", `${CARDS}/${card}/unfreeze`), 404, "NOT_FOUND");
    expectError(await b.call("POST", `${CARDS}/${card}/terminate`), 404, "NOT_FOUND");
    expectError(await b.call("GET", `${CARDS}/${card}/transactions`), 404, "NOT_FOUND");
    const bList = await b.call("GET", CARDS);
    expect(bList.body.data).toEqual([]);
    expect(bList.body.pagination).toMatchObject({ total: 0 });

    // The same email at B is a different cardholder, PENDING there.
    const bHolder = await b.call("POST", HOLDERS, { body: { first_name: "Ada", last_name: "Obi", email: "ada@example.com" } });
    expect(bHolder.status).toBe(200);
    expect(bHolder.body.kyc_status).toBe("PENDING");
    expect(b.tenant.state.cardholders.size).toBe(1);

    expect(await cardOf(a, card)).toMatchObject({ status: "active", balance: 10 });
    expect(await balanceOf(a)).toBe(aWallet);
    expect(await balanceOf(b)).toBe(1_000_000);
    expect(a.tenant.state.cardholders.get(holder)!.kyc_status).toBe("APPROVED");
    expectLedgerConsistent(a.tenant);
    expectLedgerConsistent(b.tenant);
  });
});
