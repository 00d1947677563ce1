/**
 * Virtual cards under /api/v1/virtual-cards: cardholders and the approve lever, issuing (brands, PANs,
 * masks, expiry), the list and one card, funding and unloading at the merchant's rate and fee,
 * freeze/unfreeze/terminate, card transactions, the `virtual_cards` capability and tenancy; and on the
 * merchant's clock: KYC approval (delay, `pending+` emails, rules), simulated spends (success and
 * declines) and card funding failures (rules and the 13.13 USD magic amount).
 */
import { describe, expect, it } from "vitest";
import { at, client, expectInvalid, type TestClient } from "../client.js";
import { expectError, expectLedgerConsistent, harness } from "../helpers.js";

const CARDS = "/api/v1/virtual-cards";
const HOLDERS = `${CARDS}/cardholders`;
const MASK = /^(\d{4}) (\d{2})\*\* \*\*\*\* (\d{4})$/;
/** `c.cardholder` options for a cardholder left waiting for KYC. */
const PENDING = { approved: false };

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

describe("POST /api/v1/virtual-cards/cardholders", () => {
  it("registers a cardholder with top-level fields and kyc_status PENDING", async () => {
    const c = client(await harness().merchant());
    const res = await c.call("POST", HOLDERS, {
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
    const c = client(await harness().merchant());
    const res = await c.call("POST", HOLDERS, { body: { first_name: "Ada", last_name: "Obi", email: "ada@example.com" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, full_name: "Ada Obi", email: "ada@example.com", kyc_status: "PENDING" });
  });

  it("repeating the same email (in any letter case) returns the same cardholder and creates no other", async () => {
    const c = client(await harness().merchant());
    const first = await c.call("POST", HOLDERS, { body: { first_name: "Ada", last_name: "Obi", email: "Ada@Example.com" } });
    expect(first.status).toBe(200);
    const again = await c.call("POST", HOLDERS, { body: { first_name: "Ada", last_name: "Obi", email: "Ada@Example.com" } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const otherCase = await c.call("POST", HOLDERS, { body: { first_name: "Adaeze", last_name: "Obi", email: "ada@EXAMPLE.com" } });
    expect(otherCase.status).toBe(200);
    expect(otherCase.body.cardholder_id).toBe(first.body.cardholder_id);
    expect(otherCase.body).toEqual(first.body);
    expect(c.tenant.state.cardholders.size).toBe(1);

    const different = await c.call("POST", HOLDERS, { body: { first_name: "Bola", last_name: "Ade", email: "bola@example.com" } });
    expect(different.status).toBe(200);
    expect(different.body.cardholder_id).not.toBe(first.body.cardholder_id);
    expect(c.tenant.state.cardholders.size).toBe(2);
  });

  it("repeating the email of an approved cardholder returns it APPROVED", async () => {
    const c = client(await harness().merchant());
    const id = (await c.cardholder({ email: "ada@example.com" })).cardholder_id;
    const res = await c.call("POST", HOLDERS, { body: { first_name: "Ada", last_name: "Obi", email: "ada@example.com" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, cardholder_id: id, kyc_status: "APPROVED" });
  });

  it("rejects missing and malformed fields with 422 VALIDATION_ERROR naming each field", async () => {
    const c = client(await harness().merchant());
    expectInvalid(await c.call("POST", HOLDERS, { body: {} }), ["email", "first_name", "last_name"]);

    const bad = { first_name: "Ada", last_name: "Obi", email: "not-an-email", phone: "12345" };
    expectInvalid(await c.call("POST", HOLDERS, { body: bad }), ["email", "phone"]);

    expectInvalid(await c.call("POST", HOLDERS, { body: { first_name: "", last_name: "Obi", email: "ada@example.com" } }), ["first_name"]);
    expect(c.tenant.state.cardholders.size).toBe(0);
  });

  it("malformed JSON is 400 INVALID_JSON", async () => {
    const c = client(await harness().merchant());
    expectError(await c.call("POST", HOLDERS, { raw: "{\"first_name\": ", headers: { "content-type": "application/json" } }), 400, "INVALID_JSON");
    expect(c.tenant.state.cardholders.size).toBe(0);
  });
});

describe("GET /api/v1/virtual-cards/cardholders/{id}", () => {
  it("returns the same top-level fields as creation", async () => {
    const c = client(await harness().merchant());
    const created = await c.call("POST", HOLDERS, { body: { first_name: "Ada", last_name: "Obi", email: "ada@example.com", phone: "08031234567" } });
    const res = await c.call("GET", `${HOLDERS}/${created.body.cardholder_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created.body);
    expect(res.body).toMatchObject({ success: true, full_name: "Ada Obi", email: "ada@example.com", kyc_status: "PENDING" });
  });

  it("unknown id is 404 NOT_FOUND; non-numeric id is 422 VALIDATION_ERROR", async () => {
    const c = client(await harness().merchant());
    await c.cardholder({}, PENDING);
    expectError(await c.call("GET", `${HOLDERS}/999`), 404, "NOT_FOUND");
    expectInvalid(await c.call("GET", `${HOLDERS}/abc`), ["id"]);
  });
});

describe("POST /sandbox/v1/cardholders/{id}/approve", () => {
  it("sets kyc_status to APPROVED, visible through GET", async () => {
    const c = client(await harness().merchant());
    const id = (await c.cardholder({ email: "ada@example.com" }, PENDING)).cardholder_id;
    const res = await c.call("POST", `/sandbox/v1/cardholders/${id}/approve`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, cardholder_id: id, full_name: "Ada Obi", email: "ada@example.com", kyc_status: "APPROVED" });
    const get = await c.call("GET", `${HOLDERS}/${id}`);
    expect(get.body).toMatchObject({ success: true, cardholder_id: id, kyc_status: "APPROVED" });
  });

  it("unknown id is 404, non-numeric id is 422, no credentials is 401", async () => {
    const c = client(await harness().merchant());
    expectError(await c.call("POST", "/sandbox/v1/cardholders/77/approve"), 404, "NOT_FOUND");
    expectError(await c.call("POST", "/sandbox/v1/cardholders/abc/approve"), 422, "VALIDATION_ERROR");
    const id = (await c.cardholder({}, PENDING)).cardholder_id;
    expectError(await c.call("POST", `/sandbox/v1/cardholders/${id}/approve`, { anonymous: true }), 401, "MISSING_CREDENTIALS");
    expect(c.tenant.state.cardholders.get(id)!.kyc_status).toBe("PENDING");
  });
});

describe("POST /api/v1/virtual-cards (issue)", () => {
  it("fails for a PENDING cardholder with 422 KYC_NOT_APPROVED and creates nothing", async () => {
    const c = client(await harness().merchant());
    const id = (await c.cardholder({}, PENDING)).cardholder_id;
    expectError(await c.call("POST", CARDS, { body: { cardholder_id: id, brand: "VISA" } }), 422, "KYC_NOT_APPROVED");
    expect(c.tenant.state.cards.size).toBe(0);
    const list = await c.call("GET", CARDS);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
    expect(list.body.pagination).toMatchObject({ total: 0 });
    expect(await c.balance()).toBe(1_000_000);
  });

  it("works after approval: top-level card fields, VISA by default, expiry three years on", async () => {
    const c = client(await harness().merchant());
    const holder = (await c.cardholder({}, PENDING)).cardholder_id;
    expectError(await c.call("POST", CARDS, { body: { cardholder_id: holder } }), 422, "KYC_NOT_APPROVED");
    await c.call("POST", `/sandbox/v1/cardholders/${holder}/approve`);
    const res = await c.call("POST", CARDS, { body: { cardholder_id: holder } });
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
    expect(c.tenant.state.cards.size).toBe(1);
  });

  it("expiry follows the merchant's simulated date", async () => {
    const c = client(await harness().merchant({ clock: { now: "2027-11-20T12:00:00.000Z" } }));
    expect(await c.fundedCard(0)).toMatchObject({ expiry_month: 11, expiry_year: 2030 });
  });

  it("VISA PANs start with 4, are Luhn-valid and match the mask (first 6, last 4)", async () => {
    const c = client(await harness().merchant());
    const holder = (await c.cardholder()).cardholder_id;
    for (let i = 0; i < 8; i++) {
      const res = await c.call("POST", CARDS, { body: { cardholder_id: holder, brand: "VISA" } });
      expect(res.status).toBe(200);
      expect(res.body.brand).toBe("VISA");
      const pan = c.tenant.state.cards.get(res.body.card_id)!.pan;
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
    const c = client(await harness().merchant());
    const holder = (await c.cardholder()).cardholder_id;
    for (let i = 0; i < 10; i++) {
      const res = await c.call("POST", CARDS, { body: { cardholder_id: holder, brand: "MASTERCARD", label: `card ${i}` } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, brand: "MASTERCARD", currency: "USD", status: "active" });
      const pan = c.tenant.state.cards.get(res.body.card_id)!.pan;
      expect(pan).toMatch(/^5[1-5]\d{14}$/);
      expect(luhn(pan)).toBe(true);
      expect(res.body.masked_pan).toBe(`${pan.slice(0, 4)} ${pan.slice(4, 6)}** **** ${pan.slice(-4)}`);
    }
  });

  it("card ids are distinct integers and PANs are distinct", async () => {
    const c = client(await harness().merchant());
    const holder = (await c.cardholder()).cardholder_id;
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await c.fundedCard(0, { cardholder_id: holder })).card_id);
    expect(new Set(ids).size).toBe(3);
    const pans = ids.map((id) => c.tenant.state.cards.get(id)!.pan);
    expect(new Set(pans).size).toBe(3);
  });

  it("rejects brands other than VISA and MASTERCARD with 422 on brand", async () => {
    const c = client(await harness().merchant());
    const holder = (await c.cardholder()).cardholder_id;
    for (const brand of ["AMEX", "VERVE", "visa", "", 4]) {
      expectInvalid(await c.call("POST", CARDS, { body: { cardholder_id: holder, brand } }), ["brand"]);
    }
    expect(c.tenant.state.cards.size).toBe(0);
  });

  it("cardholder_id is required and must be an integer; an unknown cardholder is 404", async () => {
    const c = client(await harness().merchant());
    await c.cardholder();
    expectInvalid(await c.call("POST", CARDS, { body: { brand: "VISA" } }), ["cardholder_id"]);
    expectInvalid(await c.call("POST", CARDS, { body: { cardholder_id: "1" } }), ["cardholder_id"]);
    expectError(await c.call("POST", CARDS, { body: { cardholder_id: 1.5 } }), 422, "VALIDATION_ERROR");
    expectError(await c.call("POST", CARDS, { body: { cardholder_id: 999 } }), 404, "NOT_FOUND");
    expect(c.tenant.state.cards.size).toBe(0);
  });

  it("accepts an optional label and returns it on the card", async () => {
    const c = client(await harness().merchant());
    expect((await c.fundedCard(0, { label: "Ads budget" })).label).toBe("Ads budget");
  });
});

describe("GET /api/v1/virtual-cards (list)", () => {
  it("lists cards with the spec's fields and pagination", async () => {
    const c = client(await harness().merchant());
    const holder = (await c.cardholder()).cardholder_id;
    const visa = (await c.fundedCard(0, { cardholder_id: holder, brand: "VISA" })).card_id;
    await c.advance(60);
    const mc = (await c.fundedCard(0, { cardholder_id: holder, brand: "MASTERCARD" })).card_id;
    const res = await c.call("GET", CARDS);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.pagination).toMatchObject({ current_page: 1, total_pages: 1, total: 2 });
    expect(res.body.data).toHaveLength(2);
    const byId = new Map<number, any>(res.body.data.map((card: any) => [card.card_id, card]));
    expect(byId.get(visa)).toMatchObject({
      card_id: visa,
      brand: "VISA",
      masked_pan: c.tenant.state.cards.get(visa)!.masked_pan,
      currency: "USD",
      balance: 0,
      status: "active",
      created_at: at(0),
    });
    expect(byId.get(mc)).toMatchObject({
      card_id: mc,
      brand: "MASTERCARD",
      currency: "USD",
      balance: 0,
      status: "active",
      created_at: at(60),
    });
  });

  it("pages with page and per_page: 3 cards at per_page=2 give 2 then 1", async () => {
    const c = client(await harness().merchant());
    const holder = (await c.cardholder()).cardholder_id;
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await c.fundedCard(0, { cardholder_id: holder })).card_id);
    const p1 = await c.call("GET", `${CARDS}?page=1&per_page=2`);
    expect(p1.status).toBe(200);
    expect(p1.body.data).toHaveLength(2);
    expect(p1.body.pagination).toMatchObject({ current_page: 1, total_pages: 2, total: 3 });
    const p2 = await c.call("GET", `${CARDS}?page=2&per_page=2`);
    expect(p2.status).toBe(200);
    expect(p2.body.data).toHaveLength(1);
    expect(p2.body.pagination).toMatchObject({ current_page: 2, total_pages: 2, total: 3 });
    const seen = [...p1.body.data, ...p2.body.data].map((card: any) => card.card_id).sort((a: number, b: number) => a - b);
    expect(seen).toEqual([...ids].sort((a, b) => a - b));
    const p3 = await c.call("GET", `${CARDS}?page=3&per_page=2`);
    expect(p3.status).toBe(200);
    expect(p3.body.data).toEqual([]);
    expect(p3.body.pagination).toMatchObject({ current_page: 3, total_pages: 2, total: 3 });
  });

  it("rejects per_page over 100, per_page 0, page 0 and non-numeric paging with 422", async () => {
    const c = client(await harness().merchant());
    await c.fundedCard(0);
    for (const q of ["per_page=101", "per_page=0", "page=0", "page=abc", "per_page=2.5"]) {
      expectInvalid(await c.call("GET", `${CARDS}?${q}`), [q.split("=")[0]!]);
    }
    const ok = await c.call("GET", `${CARDS}?per_page=100`);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toHaveLength(1);
  });
});

describe("GET /api/v1/virtual-cards/{id}", () => {
  it("returns the card at the top level including balance", async () => {
    const c = client(await harness().merchant());
    const holder = (await c.cardholder()).cardholder_id;
    const issued = await c.call("POST", CARDS, { body: { cardholder_id: holder, brand: "MASTERCARD" } });
    const res = await c.call("GET", `${CARDS}/${issued.body.card_id}`);
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
    const c = client(await harness().merchant());
    await c.fundedCard(0);
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
      expectError(await c.call(method, `${CARDS}/404${suffix}`, { body }), 404, "NOT_FOUND");
      const err = expectError(await c.call(method, `${CARDS}/xyz${suffix}`, { body }), 422, "VALIDATION_ERROR");
      expect(err.errors).toHaveProperty("id");
    }
    expect(await c.balance()).toBe(1_000_000);
    expectLedgerConsistent(c.tenant);
  });
});

describe("POST /api/v1/virtual-cards/{id}/fund", () => {
  it("adds the amount to the card and debits (amount + 1 USD fee) x 1600 from the wallet by default", async () => {
    const c = client(await harness().merchant());
    const card = (await c.fundedCard(0)).card_id;
    const res = await c.call("POST", `${CARDS}/${card}/fund`, { body: { amount: 10 } });
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
    expect((await c.card(card)).balance).toBe(10);
    expect(await c.balance()).toBe(1_000_000 - 17_600);
    await c.fundCard(card, 2.5);
    expect((await c.card(card)).balance).toBe(12.5);
    expect(await c.balance()).toBe(1_000_000 - 17_600 - 5_600);
    expectLedgerConsistent(c.tenant);
  });

  it("uses the merchant's own fee and rate (2.5 USD fee, 1500 NGN per USD)", async () => {
    const c = client(await harness().merchant({ card_funding_fee_usd: 2.5, usd_ngn_rate: 1500, wallet_balance: 100_000 }));
    const card = (await c.fundedCard(0)).card_id;
    const res = await c.fundCard(card, 12.34);
    expect(res).toMatchObject({ success: true, amount: 12.34, fee: 2.5, balance: 12.34, exchange_rate: 1500, wallet_amount: 22_260 });
    expect((await c.card(card)).balance).toBe(12.34);
    expect(await c.balance()).toBe(100_000 - 22_260);
    expectLedgerConsistent(c.tenant);
  });

  it("a zero fee charges just amount x rate", async () => {
    const c = client(await harness().merchant({ card_funding_fee_usd: 0, usd_ngn_rate: 1550 }));
    await c.fundedCard(20);
    expect(await c.balance()).toBe(1_000_000 - 31_000);
    expectLedgerConsistent(c.tenant);
  });

  it("an insufficient wallet is 422 INSUFFICIENT_BALANCE and changes nothing", async () => {
    const c = client(await harness().merchant({ wallet_balance: 17_599 }));
    const card = (await c.fundedCard(0)).card_id;
    const ledgerBefore = c.tenant.state.ledger.length;
    expectError(await c.call("POST", `${CARDS}/${card}/fund`, { body: { amount: 10 } }), 422, "INSUFFICIENT_BALANCE");
    expect((await c.card(card)).balance).toBe(0);
    expect(await c.balance()).toBe(17_599);
    expect(c.tenant.state.ledger.length).toBe(ledgerBefore);
    const txns = await c.call("GET", `${CARDS}/${card}/transactions`);
    expect(txns.body.data).toEqual([]);
    expect(txns.body.pagination).toMatchObject({ total: 0 });
    expectLedgerConsistent(c.tenant);

    // Exactly enough (amount + fee) x rate succeeds and empties the wallet.
    await c.fund(1);
    await c.fundCard(card, 10);
    expect(await c.balance()).toBe(0);
    expect((await c.card(card)).balance).toBe(10);
    expectLedgerConsistent(c.tenant);
  });

  it("rejects a missing, zero, negative, non-numeric or over-precise amount with 422 and moves nothing", async () => {
    const c = client(await harness().merchant());
    const card = (await c.fundedCard(0)).card_id;
    for (const body of [{}, { amount: 0 }, { amount: -5 }, { amount: "10" }, { amount: 1.005 }]) {
      expectInvalid(await c.call("POST", `${CARDS}/${card}/fund`, { body }), ["amount"]);
    }
    expect((await c.card(card)).balance).toBe(0);
    expect(await c.balance()).toBe(1_000_000);
    expectLedgerConsistent(c.tenant);
  });
});

describe("POST /api/v1/virtual-cards/{id}/unload", () => {
  it("moves USD back to the wallet at the merchant's rate with no fee", async () => {
    const c = client(await harness().merchant());
    const card = (await c.fundedCard(10)).card_id;
    const afterFund = await c.balance();
    const res = await c.call("POST", `${CARDS}/${card}/unload`, { body: { amount: 4 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, card_id: card, amount: 4, fee: 0, currency: "USD", balance: 6, exchange_rate: 1600, wallet_amount: 6_400 });
    expect((await c.card(card)).balance).toBe(6);
    expect(await c.balance()).toBe(afterFund + 6_400);
    expectLedgerConsistent(c.tenant);
  });

  it("uses the merchant's own rate (1500)", async () => {
    const c = client(await harness().merchant({ card_funding_fee_usd: 2.5, usd_ngn_rate: 1500 }));
    const card = (await c.fundedCard(10)).card_id;
    expect(await c.balance()).toBe(1_000_000 - 18_750);
    const res = await c.call("POST", `${CARDS}/${card}/unload`, { body: { amount: 10 } });
    expect(res.status).toBe(200);
    expect(await c.balance()).toBe(1_000_000 - 18_750 + 15_000);
    expect((await c.card(card)).balance).toBe(0);
    expectLedgerConsistent(c.tenant);
  });

  it("more than the card balance is 422 INSUFFICIENT_CARD_BALANCE and changes nothing", async () => {
    const c = client(await harness().merchant());
    const card = (await c.fundedCard(5)).card_id;
    const wallet = await c.balance();
    const ledgerBefore = c.tenant.state.ledger.length;
    expectError(await c.call("POST", `${CARDS}/${card}/unload`, { body: { amount: 5.01 } }), 422, "INSUFFICIENT_CARD_BALANCE");
    expect((await c.card(card)).balance).toBe(5);
    expect(await c.balance()).toBe(wallet);
    expect(c.tenant.state.ledger.length).toBe(ledgerBefore);
    expectLedgerConsistent(c.tenant);
  });

  it("an empty card cannot be unloaded", async () => {
    const c = client(await harness().merchant());
    const card = (await c.fundedCard(0)).card_id;
    expectError(await c.call("POST", `${CARDS}/${card}/unload`, { body: { amount: 1 } }), 422, "INSUFFICIENT_CARD_BALANCE");
    expect(await c.balance()).toBe(1_000_000);
    expectLedgerConsistent(c.tenant);
  });

  it("validates the amount", async () => {
    const c = client(await harness().merchant());
    const card = (await c.fundedCard(5)).card_id;
    for (const body of [{}, { amount: 0 }, { amount: -1 }, { amount: "1" }]) {
      expectInvalid(await c.call("POST", `${CARDS}/${card}/unload`, { body }), ["amount"]);
    }
    expect((await c.card(card)).balance).toBe(5);
    expectLedgerConsistent(c.tenant);
  });
});

describe("freeze, unfreeze, terminate", () => {
  it("freeze then unfreeze answer success and message at the top level", async () => {
    const c = client(await harness().merchant());
    const card = (await c.fundedCard(0)).card_id;
    const frozen = await c.call("POST", `${CARDS}/${card}/freeze`);
    expect(frozen.status).toBe(200);
    expect(frozen.body).toMatchObject({ success: true, card_id: card, status: "frozen" });
    expect(typeof frozen.body.message).toBe("string");
    expect(frozen.body.message.length).toBeGreaterThan(0);
    expect((await c.card(card)).status).toBe("frozen");

    const unfrozen = await c.call("POST", `${CARDS}/${card}/unfreeze`);
    expect(unfrozen.status).toBe(200);
    expect(unfrozen.body).toMatchObject({ success: true, card_id: card, status: "active" });
    expect(typeof unfrozen.body.message).toBe("string");
    expect((await c.card(card)).status).toBe("active");
  });

  it("freezing a frozen card or unfreezing an active card is 409 INVALID_STATE", async () => {
    const c = client(await harness().merchant());
    const card = (await c.fundedCard(0)).card_id;
    expectError(await c.call("POST", `${CARDS}/${card}/unfreeze`), 409, "INVALID_STATE");
    expect((await c.card(card)).status).toBe("active");
    await c.call("POST", `${CARDS}/${card}/freeze`);
    expectError(await c.call("POST", `${CARDS}/${card}/freeze`), 409, "INVALID_STATE");
    expect((await c.card(card)).status).toBe("frozen");
  });

  it("terminate answers success, message and status terminated; the card stays listed as terminated", async () => {
    const c = client(await harness().merchant());
    const card = (await c.fundedCard(0)).card_id;
    const res = await c.call("POST", `${CARDS}/${card}/terminate`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, card_id: card, status: "terminated", refunded_amount: 0 });
    expect(typeof res.body.message).toBe("string");
    expect(res.body.message.length).toBeGreaterThan(0);
    expect((await c.card(card)).status).toBe("terminated");
    const list = await c.call("GET", CARDS);
    expect(list.body.data.find((listed: any) => listed.card_id === card)).toMatchObject({ status: "terminated" });
    expect(await c.balance()).toBe(1_000_000);
    expectLedgerConsistent(c.tenant);
  });

  it("terminate is permanent: fund, unload, freeze, unfreeze and terminate again are 409 INVALID_STATE", async () => {
    const c = client(await harness().merchant());
    const card = (await c.fundedCard(3)).card_id;
    await c.call("POST", `${CARDS}/${card}/terminate`);
    const wallet = await c.balance();
    const ledgerBefore = c.tenant.state.ledger.length;
    expectError(await c.call("POST", `${CARDS}/${card}/fund`, { body: { amount: 5 } }), 409, "INVALID_STATE");
    expectError(await c.call("POST", `${CARDS}/${card}/unload`, { body: { amount: 1 } }), 409, "INVALID_STATE");
    expectError(await c.call("POST", `${CARDS}/${card}/freeze`), 409, "INVALID_STATE");
    expectError(await c.call("POST", `${CARDS}/${card}/unfreeze`), 409, "INVALID_STATE");
    expectError(await c.call("POST", `${CARDS}/${card}/terminate`), 409, "INVALID_STATE");
    expect(await c.card(card)).toMatchObject({ status: "terminated", balance: 0 });
    expect(await c.balance()).toBe(wallet);
    expect(c.tenant.state.ledger.length).toBe(ledgerBefore);
    expectLedgerConsistent(c.tenant);
  });

  it("a frozen card can be terminated and then cannot be unfrozen", async () => {
    const c = client(await harness().merchant());
    const card = (await c.fundedCard(0)).card_id;
    await c.call("POST", `${CARDS}/${card}/freeze`);
    const res = await c.call("POST", `${CARDS}/${card}/terminate`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, status: "terminated" });
    expectError(await c.call("POST", `${CARDS}/${card}/unfreeze`), 409, "INVALID_STATE");
    expect((await c.card(card)).status).toBe("terminated");
  });

  it("terminating a card with a balance returns it to the wallet (refunded_amount)", async () => {
    const c = client(await harness().merchant({ card_funding_fee_usd: 2.5, usd_ngn_rate: 1500 }));
    const card = (await c.fundedCard(7.25)).card_id;
    expect(await c.balance()).toBe(1_000_000 - 14_625);
    const res = await c.call("POST", `${CARDS}/${card}/terminate`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, card_id: card, status: "terminated", refunded_amount: 7.25 });
    expect(await c.card(card)).toMatchObject({ status: "terminated", balance: 0 });
    expect(await c.balance()).toBe(1_000_000 - 14_625 + 10_875);
    expectLedgerConsistent(c.tenant);
  });
});

describe("GET /api/v1/virtual-cards/{id}/transactions", () => {
  it("lists the card's own funding and unload entries, newest first, paginated", async () => {
    const c = client(await harness().merchant());
    const card = (await c.fundedCard(10)).card_id;
    await c.advance(60);
    const unload = await c.call("POST", `${CARDS}/${card}/unload`, { body: { amount: 3 } });
    expect(unload.status).toBe(200);
    await c.advance(60);
    await c.fundCard(card, 5);

    const res = await c.call("GET", `${CARDS}/${card}/transactions`);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.pagination).toMatchObject({ current_page: 1, total_pages: 1, total: 3 });
    expect(res.body.data.map((t: any) => [t.type, t.amount])).toEqual([
      ["funding", 5],
      ["unload", 3],
      ["funding", 10],
    ]);
    expect(res.body.data[0]).toMatchObject({ card_id: card, currency: "USD", balance_after: 12, created_at: at(120) });
    expect(res.body.data[1]).toMatchObject({ card_id: card, balance_after: 7, created_at: at(60) });
    expect(res.body.data[1].transaction_id).toBe(unload.body.transaction_id);
    expect(res.body.data[2]).toMatchObject({ card_id: card, balance_after: 10, created_at: at(0) });

    const p1 = await c.call("GET", `${CARDS}/${card}/transactions?per_page=2`);
    expect(p1.body.data.map((t: any) => t.amount)).toEqual([5, 3]);
    expect(p1.body.pagination).toMatchObject({ current_page: 1, total_pages: 2, total: 3 });
    const p2 = await c.call("GET", `${CARDS}/${card}/transactions?per_page=2&page=2`);
    expect(p2.body.data.map((t: any) => t.amount)).toEqual([10]);
    expect(p2.body.pagination).toMatchObject({ current_page: 2, total_pages: 2, total: 3 });
    expectError(await c.call("GET", `${CARDS}/${card}/transactions?per_page=101`), 422, "VALIDATION_ERROR");
    expectLedgerConsistent(c.tenant);
  });

  it("is separate from wallet history and from other cards", async () => {
    const c = client(await harness().merchant());
    const holder = (await c.cardholder()).cardholder_id;
    const a = (await c.fundedCard(0, { cardholder_id: holder })).card_id;
    const b = (await c.fundedCard(0, { cardholder_id: holder })).card_id;
    await c.fund(50_000);
    await c.fundCard(a, 4);
    await c.fundCard(b, 6);
    const ta = await c.call("GET", `${CARDS}/${a}/transactions`);
    expect(ta.body.data).toHaveLength(1);
    expect(ta.body.data[0]).toMatchObject({ card_id: a, type: "funding", amount: 4 });
    expect(ta.body.pagination).toMatchObject({ total: 1 });
    const tb = await c.call("GET", `${CARDS}/${b}/transactions`);
    expect(tb.body.data).toHaveLength(1);
    expect(tb.body.data[0]).toMatchObject({ card_id: b, type: "funding", amount: 6 });
    expectLedgerConsistent(c.tenant);
  });

  it("a new card has an empty history; termination with a balance records the return", async () => {
    const c = client(await harness().merchant());
    const card = (await c.fundedCard(0)).card_id;
    const empty = await c.call("GET", `${CARDS}/${card}/transactions`);
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ success: true, data: [], pagination: { current_page: 1, total: 0 } });
    await c.fundCard(card, 2);
    await c.call("POST", `${CARDS}/${card}/terminate`);
    const after = await c.call("GET", `${CARDS}/${card}/transactions`);
    expect(after.status).toBe(200);
    expect(after.body.data.map((t: any) => [t.type, t.amount, t.balance_after])).toEqual([
      ["unload", 2, 0],
      ["funding", 2, 2],
    ]);
    expectLedgerConsistent(c.tenant);
  });
});

describe("capability and tenancy", () => {
  it("every card endpoint is 403 SERVICE_NOT_ENABLED when virtual_cards is off", async () => {
    const c = client(await harness().merchant({ capabilities: { virtual_cards: false } }));
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
      expectError(await c.call(method, path, { body }), 403, "SERVICE_NOT_ENABLED");
    }
    expect(c.tenant.state.cardholders.size).toBe(0);
    expect(await c.balance()).toBe(1_000_000);
  });

  it("requires credentials", async () => {
    const c = client(await harness().merchant());
    expectError(await c.call("GET", CARDS, { anonymous: true }), 401, "MISSING_CREDENTIALS");
    expectError(
      await c.call("GET", CARDS, { anonymous: true, headers: { "x-api-key": c.merchant.apiKey, "x-api-secret": "wrong" } }),
      401,
      "INVALID_CREDENTIALS",
    );
  });

  it("cards and cardholders of merchant A are 404 for merchant B, and B's actions leave A unchanged", async () => {
    const h = harness();
    const a = client(await h.merchant());
    const b = client(await h.merchant());
    const holder = (await a.cardholder()).cardholder_id;
    const card = (await a.fundedCard(0, { cardholder_id: holder })).card_id;
    await a.fundCard(card, 10);
    const aWallet = await a.balance();

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

    expect(await a.card(card)).toMatchObject({ status: "active", balance: 10 });
    expect(await a.balance()).toBe(aWallet);
    expect(await b.balance()).toBe(1_000_000);
    expect(a.tenant.state.cardholders.get(holder)!.kyc_status).toBe("APPROVED");
    expectLedgerConsistent(a.tenant);
    expectLedgerConsistent(b.tenant);
  });
});

async function kycOf(c: TestClient, id: number) {
  const res = await c.call("GET", `${HOLDERS}/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.kyc_status as string;
}

async function issueCard(c: TestClient, cardholderId: number) {
  return c.call("POST", CARDS, { body: { cardholder_id: cardholderId } });
}

describe("KYC approval on the merchant's clock", () => {
  it("a new cardholder is PENDING, still PENDING at 119 s, APPROVED at 120 s; a card can then be issued", async () => {
    const c = client(await harness().merchant());
    const id = (await c.cardholder({ email: "ada@example.com" }, PENDING)).cardholder_id;
    expect((await c.clock()).pending_timers).toBe(1);
    expect(await kycOf(c, id)).toBe("PENDING");

    expect(await c.advance(119)).toMatchObject({ now: at(119), fired: 0, pending_timers: 1 });
    expect(await kycOf(c, id)).toBe("PENDING");
    expectError(await issueCard(c, id), 422, "KYC_NOT_APPROVED");
    expect(c.tenant.state.cards.size).toBe(0);

    expect(await c.advance(1)).toMatchObject({ now: at(120), fired: 1, pending_timers: 0 });
    const res = await c.call("GET", `${HOLDERS}/${id}`);
    expect(res.body).toEqual({ success: true, cardholder_id: id, full_name: "Ada Obi", email: "ada@example.com", phone: null, kyc_status: "APPROVED" });

    const card = await issueCard(c, id);
    expect(card.status, JSON.stringify(card.body)).toBe(200);
    expect(card.body).toMatchObject({ success: true, cardholder_id: id, status: "active", created_at: at(120) });
  });

  it("the merchant's kyc_approval_seconds sets the delay", async () => {
    const c = client(await harness().merchant({ delays: { kyc_approval_seconds: 600 } }));
    const id = (await c.cardholder({}, PENDING)).cardholder_id;
    await c.advance(599);
    expect(await kycOf(c, id)).toBe("PENDING");
    await c.advance(1);
    expect(await kycOf(c, id)).toBe("APPROVED");
  });

  it("an email starting pending+ never auto-approves (1 day later still PENDING) until the approve lever", async () => {
    const c = client(await harness().merchant());
    const id = (await c.cardholder({ email: "pending+ada@example.com" }, PENDING)).cardholder_id;
    expect((await c.clock()).pending_timers).toBe(0);
    expect(await c.advance("1d")).toMatchObject({ fired: 0 });
    expect(await kycOf(c, id)).toBe("PENDING");
    expectError(await issueCard(c, id), 422, "KYC_NOT_APPROVED");

    const res = await c.call("POST", `/sandbox/v1/cardholders/${id}/approve`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      success: true,
      cardholder_id: id,
      full_name: "Ada Obi",
      email: "pending+ada@example.com",
      phone: null,
      kyc_status: "APPROVED",
    });
    expect(await kycOf(c, id)).toBe("APPROVED");
    expect((await issueCard(c, id)).status).toBe(200);
  });

  it("rule { kyc, pending, times: 1 } keeps the next cardholder pending; the one after approves at 120 s", async () => {
    const c = client(await harness().merchant());
    await c.rule({ target: "kyc", outcome: "pending", times: 1 });
    const held = (await c.cardholder({ email: "held@example.com" }, PENDING)).cardholder_id;
    const normal = (await c.cardholder({ email: "normal@example.com" }, PENDING)).cardholder_id;
    expect((await c.clock()).pending_timers).toBe(1);

    await c.advance(120);
    expect(await kycOf(c, held)).toBe("PENDING");
    expect(await kycOf(c, normal)).toBe("APPROVED");
    await c.advance("1d");
    expect(await kycOf(c, held)).toBe("PENDING");
  });

  it("rule { kyc, approved, delay_seconds: 5 } approves at 5 s", async () => {
    const c = client(await harness().merchant());
    await c.rule({ target: "kyc", outcome: "approved", delay_seconds: 5 });
    const id = (await c.cardholder({}, PENDING)).cardholder_id;
    expect(await c.advance(4)).toMatchObject({ fired: 0 });
    expect(await kycOf(c, id)).toBe("PENDING");
    expect(await c.advance(1)).toMatchObject({ now: at(5), fired: 1, pending_timers: 0 });
    expect(await kycOf(c, id)).toBe("APPROVED");
  });

  it("approving an APPROVED cardholder is 409 INVALID_STATE naming APPROVED", async () => {
    const c = client(await harness().merchant());
    const id = (await c.cardholder({}, PENDING)).cardholder_id;
    await c.advance(120);
    expect(await kycOf(c, id)).toBe("APPROVED");
    const err = expectError(await c.call("POST", `/sandbox/v1/cardholders/${id}/approve`), 409, "INVALID_STATE");
    expect(err.message).toContain("APPROVED");
    expect(await kycOf(c, id)).toBe("APPROVED");
  });

  it("a manually approved cardholder's KYC timer is cancelled", async () => {
    const c = client(await harness().merchant());
    const id = (await c.cardholder({}, PENDING)).cardholder_id;
    const other = (await c.cardholder({ email: "other@example.com" }, PENDING)).cardholder_id;
    expect((await c.clock()).pending_timers).toBe(2);
    expect((await c.call("POST", `/sandbox/v1/cardholders/${id}/approve`)).status).toBe(200);
    expect((await c.clock()).pending_timers).toBe(1);
    expect(await c.advance(120)).toMatchObject({ fired: 1, pending_timers: 0 });
    expect(await kycOf(c, id)).toBe("APPROVED");
    expect(await kycOf(c, other)).toBe("APPROVED");
  });

  it("approving an unknown cardholder is 404 NOT_FOUND", async () => {
    const c = client(await harness().merchant());
    expectError(await c.call("POST", "/sandbox/v1/cardholders/999/approve"), 404, "NOT_FOUND");
  });
});

async function cardTxns(c: TestClient, id: number) {
  const res = await c.call("GET", `${CARDS}/${id}/transactions`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: any[]; pagination: { total: number } };
}

const spend = (c: TestClient, id: number | string, body: Record<string, unknown>) =>
  c.call("POST", `/sandbox/v1/virtual-cards/${id}/spend`, { body });

describe("POST /sandbox/v1/virtual-cards/{id}/spend", () => {
  it("a spend on an active card: 201, the card transaction, card balance reduced, listed first, wallet untouched", async () => {
    const c = client(await harness().merchant());
    const card = (await c.fundedCard(10)).card_id;
    const wallet = await c.balance();
    const ledger = c.tenant.state.ledger.length;
    await c.advance(30);

    const res = await spend(c, card, { amount: 3.5, merchant_name: "NETFLIX" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        transaction_id: expect.any(String),
        card_id: card,
        type: "spend",
        status: "success",
        amount: 3.5,
        currency: "USD",
        balance_after: 6.5,
        description: expect.any(String),
        merchant_name: "NETFLIX",
        decline_reason: null,
        created_at: at(30),
      },
    });
    expect((await c.card(card)).balance).toBe(6.5);
    const txns = await cardTxns(c, card);
    expect(txns.data[0]).toEqual(res.body.data);
    expect(txns.data[1]).toMatchObject({ type: "funding", amount: 10 });
    expect(txns.pagination.total).toBe(2);
    expect(await c.balance()).toBe(wallet);
    expect(c.tenant.state.ledger.length).toBe(ledger);
    expectLedgerConsistent(c.tenant);
  });

  it("merchant_name is optional; spending the exact balance empties the card", async () => {
    const c = client(await harness().merchant());
    const card = (await c.fundedCard(5)).card_id;
    const res = await spend(c, card, { amount: 5 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ type: "spend", status: "success", amount: 5, balance_after: 0, decline_reason: null });
    expect(typeof res.body.data.merchant_name).toBe("string");
    expect(res.body.data.merchant_name.length).toBeGreaterThan(0);
    expect((await c.card(card)).balance).toBe(0);
  });

  it("a frozen card declines: 201 status declined with a reason, balance unchanged, the decline listed", async () => {
    const c = client(await harness().merchant());
    const card = (await c.fundedCard(10)).card_id;
    expect((await c.call("POST", `${CARDS}/${card}/freeze`)).status).toBe(200);
    const wallet = await c.balance();

    const res = await spend(c, card, { amount: 2, merchant_name: "SPOTIFY" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ card_id: card, type: "spend", status: "declined", amount: 2, balance_after: 10, merchant_name: "SPOTIFY" });
    expect(res.body.data.decline_reason).toMatch(/frozen/i);
    expect((await c.card(card)).balance).toBe(10);
    const txns = await cardTxns(c, card);
    expect(txns.data[0]).toEqual(res.body.data);
    expect(txns.pagination.total).toBe(2);
    expect(await c.balance()).toBe(wallet);
    expectLedgerConsistent(c.tenant);

    // Unfrozen, the same spend goes through.
    expect((await c.call("POST", `${CARDS}/${card}/unfreeze`)).status).toBe(200);
    const ok = await spend(c, card, { amount: 2, merchant_name: "SPOTIFY" });
    expect(ok.body.data).toMatchObject({ status: "success", balance_after: 8, decline_reason: null });
    expect((await c.card(card)).balance).toBe(8);
  });

  it("a terminated card declines: 201 status declined with a reason, balance unchanged, the decline listed", async () => {
    const c = client(await harness().merchant());
    const card = (await c.fundedCard(10)).card_id;
    expect((await c.call("POST", `${CARDS}/${card}/terminate`)).status).toBe(200);
    const wallet = await c.balance();
    expect((await c.card(card)).balance).toBe(0);
    const before = (await cardTxns(c, card)).pagination.total;

    const res = await spend(c, card, { amount: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ card_id: card, type: "spend", status: "declined", amount: 1, balance_after: 0 });
    expect(res.body.data.decline_reason).toMatch(/terminated/i);
    expect((await c.card(card)).balance).toBe(0);
    const txns = await cardTxns(c, card);
    expect(txns.data[0]).toEqual(res.body.data);
    expect(txns.pagination.total).toBe(before + 1);
    expect(await c.balance()).toBe(wallet);
    expectLedgerConsistent(c.tenant);
  });

  it("a spend above the card balance declines: 201 status declined with a reason, balance unchanged", async () => {
    const c = client(await harness().merchant());
    const card = (await c.fundedCard(10)).card_id;
    const wallet = await c.balance();
    const res = await spend(c, card, { amount: 10.01, merchant_name: "APPLE.COM" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ type: "spend", status: "declined", amount: 10.01, balance_after: 10, merchant_name: "APPLE.COM" });
    expect(typeof res.body.data.decline_reason).toBe("string");
    expect(res.body.data.decline_reason).toMatch(/balance/i);
    expect((await c.card(card)).balance).toBe(10);
    const txns = await cardTxns(c, card);
    expect(txns.data[0]).toEqual(res.body.data);
    expect(await c.balance()).toBe(wallet);
    expectLedgerConsistent(c.tenant);
  });

  it("an unknown card is 404 NOT_FOUND", async () => {
    const c = client(await harness().merchant());
    const card = (await c.fundedCard(10)).card_id;
    expectError(await spend(c, 999, { amount: 1 }), 404, "NOT_FOUND");
    expect((await c.card(card)).balance).toBe(10);
    expect((await cardTxns(c, card)).pagination.total).toBe(1);
  });
});

async function expectFundingRefused(c: TestClient, card: number, amount: number) {
  const wallet = await c.balance();
  const ledger = c.tenant.state.ledger.map((e) => ({ ...e }));
  const balance = (await c.card(card)).balance;
  const txns = await cardTxns(c, card);
  const err = expectError(await c.call("POST", `${CARDS}/${card}/fund`, { body: { amount } }), 422, "CARD_FUNDING_FAILED");
  expect(await c.balance()).toBe(wallet);
  expect(c.tenant.state.ledger).toEqual(ledger);
  expect((await c.card(card)).balance).toBe(balance);
  expect(await cardTxns(c, card)).toEqual(txns);
  expectLedgerConsistent(c.tenant);
  return err;
}

describe("card funding failures", () => {
  it("rule { card_fund, failed }: 422 CARD_FUNDING_FAILED with nothing charged; funding works once the rule is deleted", async () => {
    const c = client(await harness().merchant());
    const card = (await c.fundedCard(5)).card_id;
    const r = await c.rule({ target: "card_fund", outcome: "failed" });
    await expectFundingRefused(c, card, 10);
    expect((await c.call("DELETE", `/sandbox/v1/outcomes/${r.id}`)).status).toBe(200);

    const wallet = await c.balance();
    await c.fundCard(card, 10);
    expect((await c.card(card)).balance).toBe(15);
    expect(await c.balance()).toBe(wallet - 17_600);
    expectLedgerConsistent(c.tenant);
  });

  it("the magic amount 13.13 USD fails likewise; 13.12 and 13.14 go through", async () => {
    const c = client(await harness().merchant());
    const card = (await c.fundedCard(0)).card_id;
    await expectFundingRefused(c, card, 13.13);
    for (const amount of [13.12, 13.14]) await c.fundCard(card, amount);
    expect((await c.card(card)).balance).toBe(26.26);
    await expectFundingRefused(c, card, 13.13);
    expect(await c.balance()).toBe(1_000_000 - Math.round((13.12 + 1) * 1600) - Math.round((13.14 + 1) * 1600));
  });

  it("a rule with match { card_id } applies only to that card", async () => {
    const c = client(await harness().merchant());
    const a = (await c.fundedCard(0)).card_id;
    const b = (await c.fundedCard(0)).card_id;
    await c.rule({ target: "card_fund", outcome: "failed", match: { card_id: a } });
    const wallet = await c.balance();
    await c.fundCard(b, 10);
    expect((await c.card(b)).balance).toBe(10);
    expect(await c.balance()).toBe(wallet - 17_600);
    await expectFundingRefused(c, a, 10);
    expect((await c.card(a)).balance).toBe(0);
  });
});
