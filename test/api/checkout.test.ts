/**
 * Payment links: POST /api/v1/checkout/create (fields, validation, links on the request's host or the
 * public URL), the `checkout` capability, GET /api/v1/checkout/status (its one-time account, expiry
 * after 30 minutes, tenancy), the payment pages, and the pay lever POST /sandbox/v1/checkout/{reference}/pay
 * on the manual clock (exact amount, expiry, second payments, wrong amounts, tenancy).
 */
import { describe, expect, it } from "vitest";
import { at, client, expectInvalid, expectPartnerNuban, type TestClient } from "../client.js";
import { expectError, expectLedgerConsistent, harness, type Reply } from "../helpers.js";

const CREATE = "/api/v1/checkout/create";
/** The status lookup without its reference, for replies the test examines itself. */
const STATUS = "/api/v1/checkout/status?reference=";
const MINUTE = 60;

/** A 422 VALIDATION_ERROR naming exactly these fields, with no payment link made. */
async function expectRefusedLink(c: TestClient, body: unknown, fields: string[]) {
  const before = c.tenant.state.checkouts.size;
  expectInvalid(await c.call("POST", CREATE, { body }), fields);
  expect(c.tenant.state.checkouts.size).toBe(before);
}

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

describe("POST /api/v1/checkout/create", () => {
  it("answers 200 with top-level fields, links on the request's host and a 30-minute expiry", async () => {
    const c = client(await harness().merchant());
    await c.advance(7 * MINUTE);
    const res = await c.call("POST", CREATE, { body: { amount: 2500.5, description: "Order #1042" } });
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
      transaction_id: expect.stringMatching(/^TXN_[0-9A-Z]{16}$/),
      order_no: res.body.transaction_id,
      amount: 2500.5,
      currency: "NGN",
      status: "pending",
      expires_at: at(7 * MINUTE + 30 * MINUTE),
      paid_at: null,
    });
    expect(res.body.payment_link).toContain(ref);
    expect(res.body.checkout_url).toContain(ref);
    expect(res.body.payment_link).not.toBe(res.body.checkout_url);
  });

  it("generates the reference itself: unique per link, never the merchant's", async () => {
    const c = client(await harness().merchant());
    const a = await c.checkout({ amount: 100, reference: "MY-OWN-REF" });
    const b = await c.checkout({ amount: 100 });
    expect(a.reference).not.toBe("MY-OWN-REF");
    expect(a.reference).not.toBe(b.reference);
    expect(a.order_no).not.toBe(b.order_no);
    expect(c.tenant.state.checkouts.size).toBe(2);
  });

  it("moves no money", async () => {
    const c = client(await harness().merchant({ wallet_balance: 5000 }));
    await c.checkout({ amount: 1000 });
    expect(await c.balance()).toBe(5000);
    expect(c.tenant.state.ledger.length).toBe(1);
    expectLedgerConsistent(c.tenant);
  });

  it("accepts exactly 100 Naira and refuses 99.99", async () => {
    const c = client(await harness().merchant());
    expect((await c.checkout({ amount: 100 })).amount).toBe(100);
    await expectRefusedLink(c, { amount: 99.99 }, ["amount"]);
    await expectRefusedLink(c, { amount: 0 }, ["amount"]);
    await expectRefusedLink(c, { amount: -500 }, ["amount"]);
    expect(c.tenant.state.checkouts.size).toBe(1);
  });

  it("requires a numeric amount with at most two decimals", async () => {
    const c = client(await harness().merchant());
    await expectRefusedLink(c, {}, ["amount"]);
    await expectRefusedLink(c, { amount: "1500" }, ["amount"]);
    await expectRefusedLink(c, { amount: 150.125 }, ["amount"]);
    await expectRefusedLink(c, { amount: null }, ["amount"]);
    expect((await c.checkout({ amount: 150.25 })).amount).toBe(150.25);
  });

  it("accepts a 200-character description and refuses 201", async () => {
    const c = client(await harness().merchant());
    const ok = await c.checkout({ amount: 500, description: "d".repeat(200) });
    expect((await c.checkoutStatus(ok.reference)).description).toBe("d".repeat(200));
    await expectRefusedLink(c, { amount: 500, description: "d".repeat(201) }, ["description"]);
    await expectRefusedLink(c, { amount: 500, description: 42 }, ["description"]);
  });

  it("accepts an optional http(s) redirect_url and refuses anything else", async () => {
    const c = client(await harness().merchant());
    const a = await c.checkout({ amount: 500, redirect_url: "https://shop.example.ng/thanks?order=1042" });
    expect((await c.checkoutStatus(a.reference)).redirect_url).toBe("https://shop.example.ng/thanks?order=1042");
    await c.checkout({ amount: 500, redirect_url: "http://localhost:3000/done" });
    for (const bad of ["ftp://shop.example.ng/thanks", "javascript:alert(1)", "not a url", "shop.example.ng/thanks"]) {
      await expectRefusedLink(c, { amount: 500, redirect_url: bad }, ["redirect_url"]);
    }
    expect(c.tenant.state.checkouts.size).toBe(2);
  });

  it("names every bad field at once", async () => {
    const c = client(await harness().merchant());
    await expectRefusedLink(c, { amount: 50, description: "x".repeat(201), redirect_url: "ftp://a" }, ["amount", "description", "redirect_url"]);
  });

  it("answers malformed JSON with 400 INVALID_JSON", async () => {
    const c = client(await harness().merchant());
    expectError(await c.call("POST", CREATE, { raw: "{amount: 100}", headers: { "content-type": "application/json" } }), 400, "INVALID_JSON");
    expect(c.tenant.state.checkouts.size).toBe(0);
  });

  it("uses the configured public URL for both links", async () => {
    const h = harness({ publicUrl: "https://sandbox.example.test" });
    const c = client(await h.merchant());
    const link = await c.checkout({ amount: 1000 });
    expect(link.payment_link.startsWith("https://sandbox.example.test/")).toBe(true);
    expect(link.checkout_url.startsWith("https://sandbox.example.test/")).toBe(true);
    const status = await c.checkoutStatus(link.reference);
    expect(status.payment_link).toBe(link.payment_link);
    expect(status.checkout_url).toBe(link.checkout_url);
    // The page is still served by this app under the path of the public URL.
    const page = await h.call("GET", pathOf(link.payment_link));
    expect(page.status).toBe(200);
  });
});

describe("capability", () => {
  it("refuses create with 403 SERVICE_NOT_ENABLED when checkout is off", async () => {
    const c = client(await harness().merchant({ capabilities: { checkout: false } }));
    expectError(await c.call("POST", CREATE, { body: { amount: 1000 } }), 403, "SERVICE_NOT_ENABLED");
    expect(c.tenant.state.checkouts.size).toBe(0);
  });

  it("refuses status with 403 SERVICE_NOT_ENABLED when checkout is off", async () => {
    const c = client(await harness().merchant());
    const link = await c.checkout({ amount: 1000 });
    const patch = await c.call("PATCH", "/sandbox/v1/merchant", { body: { capabilities: { checkout: false } } });
    expect(patch.status, JSON.stringify(patch.body)).toBe(200);
    expectError(await c.call("GET", STATUS + link.reference), 403, "SERVICE_NOT_ENABLED");
    expectError(await c.call("GET", `${STATUS}CHK_UNKNOWN`), 403, "SERVICE_NOT_ENABLED");
  });

  it("leaves other merchants' checkout on", async () => {
    const h = harness();
    const off = client(await h.merchant({ capabilities: { checkout: false } }));
    const on = client(await h.merchant());
    expectError(await off.call("POST", CREATE, { body: { amount: 1000 } }), 403, "SERVICE_NOT_ENABLED");
    await on.checkout({ amount: 1000 });
  });
});

describe("GET /api/v1/checkout/status", () => {
  it("returns the link in a data wrapper: pending, unpaid, with its one-time account", async () => {
    const c = client(await harness().merchant());
    const link = await c.checkout({ amount: 1500, description: "Order 1" });
    const status = await c.checkoutStatus(link.reference);
    expect(status).toMatchObject({
      reference: link.reference,
      order_no: link.order_no,
      status: "pending",
      paid_at: null,
      amount: 1500,
      currency: "NGN",
      description: "Order 1",
      created_at: at(0),
      expires_at: at(30 * MINUTE),
      payment_link: link.payment_link,
      checkout_url: link.checkout_url,
    });
    expectPartnerNuban(status.account_number);
  });

  it("gives each link its own account number", async () => {
    const c = client(await harness().merchant());
    const numbers = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const link = await c.checkout({ amount: 100 + i });
      numbers.add((await c.checkoutStatus(link.reference)).account_number);
    }
    expect(numbers.size).toBe(10);
  });

  it("stays pending until 30 minutes have passed, then is expired", async () => {
    const c = client(await harness().merchant());
    const link = await c.checkout({ amount: 1000 });
    await c.advance(29 * MINUTE + 59);
    expect(await c.checkoutStatus(link.reference)).toMatchObject({ status: "pending", paid_at: null });
    await c.advance(1);
    expect(await c.checkoutStatus(link.reference)).toMatchObject({
      reference: link.reference,
      status: "expired",
      paid_at: null,
      expires_at: at(30 * MINUTE),
    });
  });

  it("answers 404 NOT_FOUND for an unknown reference", async () => {
    const c = client(await harness().merchant());
    await c.checkout({ amount: 1000 });
    expectError(await c.call("GET", `${STATUS}CHK_DOESNOTEXIST00`), 404, "NOT_FOUND");
  });

  it("answers 422 VALIDATION_ERROR naming reference when it is missing", async () => {
    const c = client(await harness().merchant());
    expectInvalid(await c.call("GET", "/api/v1/checkout/status"), ["reference"]);
  });

  it("scopes links to their merchant: B cannot read A's link", async () => {
    const h = harness();
    const a = client(await h.merchant());
    const b = client(await h.merchant());
    const link = await a.checkout({ amount: 1000 });
    expectError(await b.call("GET", STATUS + link.reference), 404, "NOT_FOUND");
    await a.checkoutStatus(link.reference);
    expect(b.tenant.state.checkouts.size).toBe(0);
  });
});

describe("payment pages", () => {
  const expectPaymentPage = (res: Reply, amountText: string, accountNumber: string) => {
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(typeof res.body).toBe("string");
    expect(res.body).toContain(amountText);
    expect(res.body).toContain(accountNumber);
  };

  it("serves both payment_link and checkout_url as HTML pages with the amount and account number", async () => {
    const h = harness();
    const c = client(await h.merchant());
    const link = await c.checkout({ amount: 2500.5, description: "Order 1042" });
    const n = (await c.checkoutStatus(link.reference)).account_number;
    // A customer's browser carries no API keys.
    expectPaymentPage(await h.call("GET", pathOf(link.payment_link)), "2,500.50", n);
    expectPaymentPage(await h.call("GET", pathOf(link.checkout_url)), "2,500.50", n);
  });

  it("answers 404 for a page of an unknown link", async () => {
    const h = harness();
    const c = client(await h.merchant());
    const link = await c.checkout({ amount: 1000 });
    const res = await h.call("GET", pathOf(link.payment_link).replace(link.reference, "CHK_DOESNOTEXIST00"));
    expect(res.status).toBe(404);
    expect(res.body).not.toContain((await c.checkoutStatus(link.reference)).account_number);
  });
});

/** The link's status lookup says `status`, and the wallet and ledger are exactly as given. */
async function expectLinkUnpaid(c: TestClient, reference: string, status: "pending" | "expired", balance: number, ledgerLength: number) {
  expect(await c.checkoutStatus(reference)).toMatchObject({ reference, status, paid_at: null });
  expect(await c.balance()).toBe(balance);
  expect(c.tenant.state.ledger.length).toBe(ledgerLength);
  expect(c.tenant.state.ledger.some((e) => e.kind === "checkout_payment")).toBe(false);
  expectLedgerConsistent(c.tenant);
}

describe("POST /sandbox/v1/checkout/{reference}/pay", () => {
  it("pays a pending link for its exact amount (no body): 200 with the paid record (as the status endpoint gives it), wallet credited by a checkout_payment entry", async () => {
    const c = client(await harness().merchant({ wallet_balance: 10_000, business_name: "Zenith Foods" }));
    await c.advance(5 * MINUTE);
    const link = await c.checkout({ amount: 2500.5, description: "Order 1042" });
    await c.advance(10 * MINUTE);
    const res = await c.payLink(link.reference);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toEqual({
      reference: link.reference,
      transaction_id: link.order_no,
      order_no: link.order_no,
      status: "paid",
      amount: 2500.5,
      currency: "NGN",
      description: "Order 1042",
      customer_email: null,
      customer_name: null,
      redirect_url: null,
      account_number: expect.stringMatching(/^\d{10}$/),
      account_name: "Zenith Foods Checkout",
      bank_name: expect.any(String),
      created_at: at(5 * MINUTE),
      expires_at: at(35 * MINUTE),
      paid_at: at(15 * MINUTE),
      // The same record as GET /api/v1/checkout/status, links included.
      payment_link: link.payment_link,
      checkout_url: link.checkout_url,
    });
    expect(res.body.data).toEqual(await c.checkoutStatus(link.reference));

    expect(await c.balance()).toBe(12_500.5);
    const ledger = await c.ledger();
    expect(ledger).toHaveLength(2);
    expect(ledger[1]).toMatchObject({
      kind: "checkout_payment",
      type: "credit",
      amount: 2500.5,
      balance_after: 12_500.5,
      transaction_id: link.order_no,
      created_at: at(15 * MINUTE),
    });
    expect(c.tenant.state.ledger.at(-1)).toMatchObject({ kind: "checkout_payment", amount: 250_050, transaction_id: link.order_no });
    expectLedgerConsistent(c.tenant);

    expect(await c.checkoutStatus(link.reference)).toMatchObject({ ...res.body.data, status: "paid", paid_at: at(15 * MINUTE) });
  });

  it("accepts an explicit exact amount and an empty body", async () => {
    const c = client(await harness().merchant({ wallet_balance: 0 }));
    const a = await c.checkout({ amount: 1000 });
    const b = await c.checkout({ amount: 750.25 });
    const paidA = await c.payLink(a.reference, 1000);
    expect(paidA.status, JSON.stringify(paidA.body)).toBe(200);
    expect(paidA.body.data).toMatchObject({ status: "paid", amount: 1000, paid_at: at(0) });
    const paidB = await c.call("POST", `/sandbox/v1/checkout/${encodeURIComponent(b.reference)}/pay`, { body: {} });
    expect(paidB.status, JSON.stringify(paidB.body)).toBe(200);
    expect(paidB.body.data).toMatchObject({ status: "paid", amount: 750.25, paid_at: at(0) });
    expect(await c.balance()).toBe(1750.25);
    expect(c.tenant.state.ledger.map((e) => [e.kind, e.amount, e.transaction_id])).toEqual([
      ["checkout_payment", 100_000, a.order_no],
      ["checkout_payment", 75_025, b.order_no],
    ]);
    expectLedgerConsistent(c.tenant);
  });

  it("pays at 29m59s after creation, with paid_at at that sim time", async () => {
    const c = client(await harness().merchant({ wallet_balance: 0 }));
    const link = await c.checkout({ amount: 1000 });
    await c.advance(29 * MINUTE + 59);
    const res = await c.payLink(link.reference);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: "paid", paid_at: at(29 * MINUTE + 59), expires_at: at(30 * MINUTE) });
    expect(await c.balance()).toBe(1000);
    expectLedgerConsistent(c.tenant);
  });

  it("refuses a link at exactly 30m00s: it is expired, 409 INVALID_STATE saying so, nothing credited", async () => {
    const c = client(await harness().merchant({ wallet_balance: 500 }));
    const link = await c.checkout({ amount: 1000 });
    await c.advance(30 * MINUTE);
    await expectLinkUnpaid(c, link.reference, "expired", 500, 1);
    const err = expectError(await c.payLink(link.reference), 409, "INVALID_STATE");
    expect(err.message).toMatch(/expired/i);
    const explicit = expectError(await c.payLink(link.reference, 1000), 409, "INVALID_STATE");
    expect(explicit.message).toMatch(/expired/i);
    await expectLinkUnpaid(c, link.reference, "expired", 500, 1);
    // Still expired, still refused, long after.
    await c.advance("1d");
    expectError(await c.payLink(link.reference), 409, "INVALID_STATE");
    await expectLinkUnpaid(c, link.reference, "expired", 500, 1);
  });

  it("refuses a second payment of a paid link with 409 INVALID_STATE naming paid, crediting once", async () => {
    const c = client(await harness().merchant({ wallet_balance: 0 }));
    const link = await c.checkout({ amount: 1000 });
    await c.advance(60);
    expect((await c.payLink(link.reference)).status).toBe(200);
    await c.advance(60);
    const err = expectError(await c.payLink(link.reference), 409, "INVALID_STATE");
    expect(err.message).toMatch(/paid/);
    expectError(await c.payLink(link.reference, 1000), 409, "INVALID_STATE");
    expect(await c.balance()).toBe(1000);
    expect(c.tenant.state.ledger).toHaveLength(1);
    expect(await c.checkoutStatus(link.reference)).toMatchObject({ status: "paid", paid_at: at(1 * MINUTE) });
    expectLedgerConsistent(c.tenant);
  });

  it.each([
    ["one kobo less", 2500.49],
    ["one kobo more", 2500.51],
    ["double", 5001],
  ])("refuses a wrong amount (%s) with 422 AMOUNT_MISMATCH; the link stays pending and the exact amount still pays", async (_, wrong) => {
    const c = client(await harness().merchant({ wallet_balance: 200 }));
    const link = await c.checkout({ amount: 2500.5, description: "Order 1042" });
    await c.advance(120);
    const err = expectError(await c.payLink(link.reference, wrong), 422, "AMOUNT_MISMATCH");
    expect(err.message).toContain("2500.50");
    await expectLinkUnpaid(c, link.reference, "pending", 200, 1);
    await c.advance(60);
    const ok = await c.payLink(link.reference, 2500.5);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ status: "paid", paid_at: at(3 * MINUTE) });
    expect(await c.balance()).toBe(2700.5);
    expect(c.tenant.state.ledger).toHaveLength(2);
    expectLedgerConsistent(c.tenant);
  });

  it("keeps a paid link paid after the clock passes expires_at", async () => {
    const c = client(await harness().merchant({ wallet_balance: 0 }));
    const link = await c.checkout({ amount: 1000 });
    await c.advance(20 * MINUTE);
    expect((await c.payLink(link.reference)).status).toBe(200);
    await c.advance("2h");
    expect(await c.checkoutStatus(link.reference)).toMatchObject({ status: "paid", paid_at: at(20 * MINUTE), expires_at: at(30 * MINUTE) });
    expect(await c.balance()).toBe(1000);
    expectLedgerConsistent(c.tenant);
  });

  it("answers 404 NOT_FOUND for an unknown reference", async () => {
    const c = client(await harness().merchant({ wallet_balance: 0 }));
    const link = await c.checkout({ amount: 1000 });
    expectError(await c.payLink("CHK_DOESNOTEXIST00"), 404, "NOT_FOUND");
    await expectLinkUnpaid(c, link.reference, "pending", 0, 0);
  });

  it("does not let another merchant pay this merchant's link (404); neither wallet moves", async () => {
    const h = harness();
    const a = client(await h.merchant({ wallet_balance: 100 }));
    const b = client(await h.merchant({ wallet_balance: 300 }));
    const link = await a.checkout({ amount: 1000 });
    expectError(await b.payLink(link.reference), 404, "NOT_FOUND");
    expectError(await b.payLink(link.reference, 1000), 404, "NOT_FOUND");
    await expectLinkUnpaid(a, link.reference, "pending", 100, 1);
    expect(await b.balance()).toBe(300);
    expect(b.tenant.state.ledger).toHaveLength(1);
    expectLedgerConsistent(b.tenant);
    // The owner still can.
    expect((await a.payLink(link.reference)).status).toBe(200);
    expect(await a.balance()).toBe(1100);
    expectLedgerConsistent(a.tenant);
  });
});
