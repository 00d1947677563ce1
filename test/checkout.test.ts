import { describe, expect, it } from "vitest";
import { nubanCheckDigit } from "../src/domain/nuban.js";
import { balanceOf, expectError, expectLedgerConsistent, harness, START, type Merchant, type Reply } from "./helpers.js";

const CREATE = "/api/v1/checkout/create";
const MINUTE = 60_000;

function expectPartnerNuban(n: unknown) {
  expect(n).toMatch(/^\d{10}$/);
  const s = n as string;
  expect(nubanCheckDigit("999", s.slice(0, 9))).toBe(Number(s[9]));
}

const create = (m: Merchant, body: unknown) => m.call("POST", CREATE, { body });
const statusOf = (m: Merchant, reference: string) =>
  m.call("GET", `/api/v1/checkout/status?reference=${encodeURIComponent(reference)}`);

async function created(m: Merchant, body: Record<string, unknown>): Promise<any> {
  const res = await create(m, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** A 422 VALIDATION_ERROR naming exactly these fields, with no payment link made. */
async function expectInvalid(m: Merchant, body: unknown, fields: string[]) {
  const before = m.tenant.state.checkouts.size;
  const err = expectError(await create(m, body), 422, "VALIDATION_ERROR");
  expect(Object.keys(err.errors ?? {}).sort()).toEqual([...fields].sort());
  expect(m.tenant.state.checkouts.size).toBe(before);
}

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

describe("POST /api/v1/checkout/create", () => {
  it("answers 200 with top-level fields, links on the request's host and a 30-minute expiry", async () => {
    const m = await harness().merchant();
    m.tenant.clock.advanceBy(7 * MINUTE);
    const res = await create(m, { amount: 2500.5, description: "Order #1042" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).not.toHaveProperty("data");
    const ref = res.body.reference;
    expect(typeof ref).toBe("string");
    expect(ref.length).toBeGreaterThan(0);
    expect(res.body).toEqual({
      success: true,
      payment_link: expect.stringMatching(/^http:\/\/localhost\//),
      checkout_url: expect.stringMatching(/^http:\/\/localhost\//),
      reference: ref,
      order_no: expect.stringMatching(/^\S+$/),
      amount: 2500.5,
      currency: "NGN",
      status: "pending",
      expires_at: new Date(START + 7 * MINUTE + 30 * MINUTE).toISOString(),
      paid_at: null,
    });
    expect(res.body.payment_link).toContain(ref);
    expect(res.body.checkout_url).toContain(ref);
    expect(res.body.payment_link).not.toBe(res.body.checkout_url);
  });

  it("generates the reference itself: unique per link, never the merchant's", async () => {
    const m = await harness().merchant();
    const a = await created(m, { amount: 100, reference: "MY-OWN-REF" });
    const b = await created(m, { amount: 100 });
    expect(a.reference).not.toBe("MY-OWN-REF");
    expect(a.reference).not.toBe(b.reference);
    expect(a.order_no).not.toBe(b.order_no);
    expect(m.tenant.state.checkouts.size).toBe(2);
  });

  it("moves no money", async () => {
    const m = await harness().merchant({ wallet_balance: 5000 });
    await created(m, { amount: 1000 });
    expect(await balanceOf(m)).toBe(5000);
    expect(m.tenant.state.ledger.length).toBe(1);
    expectLedgerConsistent(m.tenant);
  });

  it("accepts exactly 100 Naira and refuses 99.99", async () => {
    const m = await harness().merchant();
    expect((await created(m, { amount: 100 })).amount).toBe(100);
    await expectInvalid(m, { amount: 99.99 }, ["amount"]);
    await expectInvalid(m, { amount: 0 }, ["amount"]);
    await expectInvalid(m, { amount: -500 }, ["amount"]);
    expect(m.tenant.state.checkouts.size).toBe(1);
  });

  it("requires a numeric amount with at most two decimals", async () => {
    const m = await harness().merchant();
    await expectInvalid(m, {}, ["amount"]);
    await expectInvalid(m, { amount: "1500" }, ["amount"]);
    await expectInvalid(m, { amount: 150.125 }, ["amount"]);
    await expectInvalid(m, { amount: null }, ["amount"]);
    expect((await created(m, { amount: 150.25 })).amount).toBe(150.25);
  });

  it("accepts a 200-character description and refuses 201", async () => {
    const m = await harness().merchant();
    const ok = await created(m, { amount: 500, description: "d".repeat(200) });
    const status = await statusOf(m, ok.reference);
    expect(status.body.data.description).toBe("d".repeat(200));
    await expectInvalid(m, { amount: 500, description: "d".repeat(201) }, ["description"]);
    await expectInvalid(m, { amount: 500, description: 42 }, ["description"]);
  });

  it("accepts an optional http(s) redirect_url and refuses anything else", async () => {
    const m = await harness().merchant();
    const a = await created(m, { amount: 500, redirect_url: "https://shop.example.ng/thanks?order=1042" });
    expect((await statusOf(m, a.reference)).body.data.redirect_url).toBe("https://shop.example.ng/thanks?order=1042");
    await created(m, { amount: 500, redirect_url: "http://localhost:3000/done" });
    for (const bad of ["ftp://shop.example.ng/thanks", "javascript:alert(1)", "not a url", "shop.example.ng/thanks"]) {
      await expectInvalid(m, { amount: 500, redirect_url: bad }, ["redirect_url"]);
    }
    expect(m.tenant.state.checkouts.size).toBe(2);
  });

  it("names every bad field at once", async () => {
    const m = await harness().merchant();
    await expectInvalid(m, { amount: 50, description: "x".repeat(201), redirect_url: "ftp://a" }, ["amount", "description", "redirect_url"]);
  });

  it("answers malformed JSON with 400 INVALID_JSON", async () => {
    const m = await harness().merchant();
    expectError(await m.call("POST", CREATE, { raw: "{amount: 100}", headers: { "content-type": "application/json" } }), 400, "INVALID_JSON");
    expect(m.tenant.state.checkouts.size).toBe(0);
  });

  it("uses the configured public URL for both links", async () => {
    const h = harness({ publicUrl: "https://sandbox.example.test" });
    const m = await h.merchant();
    const c = await created(m, { amount: 1000 });
    expect(c.payment_link.startsWith("https://sandbox.example.test/")).toBe(true);
    expect(c.checkout_url.startsWith("https://sandbox.example.test/")).toBe(true);
    const status = await statusOf(m, c.reference);
    expect(status.body.data.payment_link).toBe(c.payment_link);
    expect(status.body.data.checkout_url).toBe(c.checkout_url);
    // The page is still served by this app under the path of the public URL.
    const page = await h.call("GET", pathOf(c.payment_link));
    expect(page.status).toBe(200);
  });
});

describe("capability", () => {
  it("refuses create with 403 SERVICE_NOT_ENABLED when checkout is off", async () => {
    const m = await harness().merchant({ capabilities: { checkout: false } });
    expectError(await create(m, { amount: 1000 }), 403, "SERVICE_NOT_ENABLED");
    expect(m.tenant.state.checkouts.size).toBe(0);
  });

  it("refuses status with 403 SERVICE_NOT_ENABLED when checkout is off", async () => {
    const m = await harness().merchant();
    const c = await created(m, { amount: 1000 });
    const patch = await m.call("PATCH", "/sandbox/v1/merchant", { body: { capabilities: { checkout: false } } });
    expect(patch.status, JSON.stringify(patch.body)).toBe(200);
    expectError(await statusOf(m, c.reference), 403, "SERVICE_NOT_ENABLED");
    expectError(await statusOf(m, "CHK_UNKNOWN"), 403, "SERVICE_NOT_ENABLED");
  });

  it("leaves other merchants' checkout on", async () => {
    const h = harness();
    const off = await h.merchant({ capabilities: { checkout: false } });
    const on = await h.merchant();
    expectError(await create(off, { amount: 1000 }), 403, "SERVICE_NOT_ENABLED");
    await created(on, { amount: 1000 });
  });
});

describe("GET /api/v1/checkout/status", () => {
  it("returns the link in a data wrapper: pending, unpaid, with its one-time account", async () => {
    const m = await harness().merchant();
    const c = await created(m, { amount: 1500, description: "Order 1" });
    const res = await statusOf(m, c.reference);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({
      reference: c.reference,
      order_no: c.order_no,
      status: "pending",
      paid_at: null,
      amount: 1500,
      currency: "NGN",
      description: "Order 1",
      created_at: new Date(START).toISOString(),
      expires_at: new Date(START + 30 * MINUTE).toISOString(),
      payment_link: c.payment_link,
      checkout_url: c.checkout_url,
    });
    expectPartnerNuban(res.body.data.account_number);
  });

  it("gives each link its own account number", async () => {
    const m = await harness().merchant();
    const numbers = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const c = await created(m, { amount: 100 + i });
      numbers.add((await statusOf(m, c.reference)).body.data.account_number);
    }
    expect(numbers.size).toBe(10);
  });

  it("stays pending until 30 minutes have passed, then is expired", async () => {
    const m = await harness().merchant();
    const c = await created(m, { amount: 1000 });
    m.tenant.clock.advanceBy(29 * MINUTE + 59_000);
    const before = await statusOf(m, c.reference);
    expect(before.body.data).toMatchObject({ status: "pending", paid_at: null });
    m.tenant.clock.advanceBy(1000);
    const after = await statusOf(m, c.reference);
    expect(after.status).toBe(200);
    expect(after.body.data).toMatchObject({
      reference: c.reference,
      status: "expired",
      paid_at: null,
      expires_at: new Date(START + 30 * MINUTE).toISOString(),
    });
  });

  it("answers 404 NOT_FOUND for an unknown reference", async () => {
    const m = await harness().merchant();
    await created(m, { amount: 1000 });
    expectError(await statusOf(m, "CHK_DOESNOTEXIST00"), 404, "NOT_FOUND");
  });

  it("answers 422 VALIDATION_ERROR naming reference when it is missing", async () => {
    const m = await harness().merchant();
    const err = expectError(await m.call("GET", "/api/v1/checkout/status"), 422, "VALIDATION_ERROR");
    expect(Object.keys(err.errors ?? {})).toEqual(["reference"]);
  });

  it("scopes links to their merchant: B cannot read A's link", async () => {
    const h = harness();
    const a = await h.merchant();
    const b = await h.merchant();
    const c = await created(a, { amount: 1000 });
    expectError(await statusOf(b, c.reference), 404, "NOT_FOUND");
    expect((await statusOf(a, c.reference)).status).toBe(200);
    expect(b.tenant.state.checkouts.size).toBe(0);
  });
});

describe("payment pages", () => {
  const expectPage = (res: Reply, amountText: string, accountNumber: string) => {
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(typeof res.body).toBe("string");
    expect(res.body).toContain(amountText);
    expect(res.body).toContain(accountNumber);
  };

  it("serves both payment_link and checkout_url as HTML pages with the amount and account number", async () => {
    const h = harness();
    const m = await h.merchant();
    const c = await created(m, { amount: 2500.5, description: "Order 1042" });
    const n = (await statusOf(m, c.reference)).body.data.account_number;
    // A customer's browser carries no API keys.
    expectPage(await h.call("GET", pathOf(c.payment_link)), "2,500.50", n);
    expectPage(await h.call("GET", pathOf(c.checkout_url)), "2,500.50", n);
  });

  it("answers 404 for a page of an unknown link", async () => {
    const h = harness();
    const m = await h.merchant();
    const c = await created(m, { amount: 1000 });
    const res = await h.call("GET", pathOf(c.payment_link).replace(c.reference, "CHK_DOESNOTEXIST00"));
    expect(res.status).toBe(404);
    expect(res.body).not.toContain((await statusOf(m, c.reference)).body.data.account_number);
  });
});
