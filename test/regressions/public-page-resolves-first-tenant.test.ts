/**
 * The public payment pages (/pay/{ref}) resolved a
 * reference to the first tenant holding it. References repeated across tenants (every load of a
 * seeded scenario gave the same link references and account numbers, and a snapshot could plant any
 * reference), so one merchant's page could show, and take payment for, another merchant's link; the
 * lookup walked every tenant. References and account numbers are now unique sandbox-wide, claimed in
 * the registry's index, which the pages use.
 */
import { describe, expect, it } from "vitest";
import { client, type TestClient } from "../client.js";
import { expectError, harness, type Harness } from "../helpers.js";

const SCENARIO = {
  name: "Seeded shop with a payment link",
  seed: "same-seed-every-time",
  merchants: { shop: { business_name: "Mama Put Foods Ltd", wallet_balance: 1_000, kyc: { bvn: "22212345678" } } },
  virtual_accounts: [{ as: "ada_account", email: "ada@example.com", reference: "cust-ada", first_name: "Ada", last_name: "Obi" }],
  payment_links: [{ as: "order_link", amount: 15_000, description: "Order 2001" }],
};

interface Loaded {
  /** The shop's test client. */
  c: TestClient;
  link: string;
  account: string;
}

/** SCENARIO loaded into `h`: the shop, its payment link's reference and its virtual account's number. */
async function loadShop(h: Harness): Promise<Loaded> {
  const res = await h.call("POST", "/sandbox/v1/scenarios", { body: SCENARIO });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return {
    c: client(h.existing(res.body.data.merchants.shop.merchant_id)),
    link: res.body.data.objects.order_link,
    account: res.body.data.objects.ada_account,
  };
}

describe("public payment pages and sandbox-wide references", () => {
  it("two loads of one seeded scenario get different link references and account numbers", async () => {
    const h = harness();
    const a = await loadShop(h);
    const b = await loadShop(h);
    expect(a.c.merchant.id).not.toBe(b.c.merchant.id);
    expect(a.link).toMatch(/^CHK_/);
    expect(b.link).toMatch(/^CHK_/);
    expect(b.link).not.toBe(a.link);
    expect(a.account).toMatch(/^\d{10}$/);
    expect(b.account).not.toBe(a.account);
    // The links' one-time accounts differ too, and from the virtual accounts.
    const [linkA, linkB] = [await a.c.checkoutStatus(a.link), await b.c.checkoutStatus(b.link)];
    expect(linkA.account_number).not.toBe(linkB.account_number);
    expect(new Set([linkA.account_number, linkB.account_number, a.account, b.account]).size).toBe(4);
    // Each merchant sees only its own link.
    expectError(await a.c.call("GET", `/api/v1/checkout/status?reference=${b.link}`), 404, "NOT_FOUND");
    expectError(await b.c.call("GET", `/api/v1/checkout/status?reference=${a.link}`), 404, "NOT_FOUND");
  });

  it("each link's page shows its own merchant, and paying it credits only that merchant", async () => {
    const h = harness();
    const a = await loadShop(h);
    const b = await loadShop(h);
    expect((await b.c.call("PATCH", "/sandbox/v1/merchant", { body: { business_name: "Second Shop" } })).status).toBe(200);

    const pageA = await h.call("GET", `/pay/${a.link}/status`);
    const pageB = await h.call("GET", `/pay/${b.link}/status`);
    expect(pageA.status).toBe(200);
    expect(pageB.status).toBe(200);
    expect(pageA.body.data).toMatchObject({ reference: a.link, business_name: "Mama Put Foods Ltd", account_number: (await a.c.checkoutStatus(a.link)).account_number, status: "pending" });
    expect(pageB.body.data).toMatchObject({ reference: b.link, business_name: "Second Shop", account_number: (await b.c.checkoutStatus(b.link)).account_number, status: "pending" });
    const html = await h.call("GET", `/pay/${b.link}`);
    expect(html.status).toBe(200);
    expect(html.body).toContain("Second Shop");
    expect(html.body).toContain(b.link);
    expect(html.body).not.toContain(a.link);
    const htmlA = await h.call("GET", `/pay/${a.link}`);
    expect(htmlA.body).toContain(a.link);
    expect(htmlA.body).not.toContain("Second Shop");

    // Paying B's link through its page credits B alone.
    const paid = await h.call("POST", `/pay/${b.link}/simulate`, { body: {} });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.data).toMatchObject({ reference: b.link, business_name: "Second Shop", status: "paid" });
    expect(await b.c.balance()).toBe(16_000);
    expect(await a.c.balance()).toBe(1_000);
    expect((await a.c.checkoutStatus(a.link)).status).toBe("pending");
    expect((await b.c.checkoutStatus(b.link)).status).toBe("paid");
    const ledgerA = await a.c.ledger();
    expect(ledgerA).toHaveLength(1); // the opening balance only

    // And A's link, paid through its own page, credits A.
    expect((await h.call("POST", `/pay/${a.link}/simulate`, { body: {} })).status).toBe(200);
    expect(await a.c.balance()).toBe(16_000);
    expect(await b.c.balance()).toBe(16_000);
    expectError(await h.call("POST", `/pay/${a.link}/simulate`, { body: {} }), 409, "INVALID_STATE");
    expect(await a.c.balance()).toBe(16_000);
  });

  it("a snapshot that holds another merchant's link reference or account number is refused and changes nothing", async () => {
    const h = harness();
    const a = await h.merchant({ business_name: "Shop A", wallet_balance: 500 });
    const b = await h.merchant({ business_name: "Shop B", wallet_balance: 700 });
    const linkA = (await a.call("POST", "/api/v1/checkout/create", { body: { amount: 2_500 } })).body.reference as string;
    await b.call("POST", "/api/v1/checkout/create", { body: { amount: 900 } });
    const before = (await b.call("GET", "/sandbox/v1/snapshot")).body;

    // A's whole snapshot into B: it holds A's reference.
    const exportedA = (await a.call("GET", "/sandbox/v1/snapshot")).body;
    const whole = expectError(await b.call("PUT", "/sandbox/v1/snapshot", { body: exportedA }), 422, "VALIDATION_ERROR");
    expect(whole.errors?.state?.join(" ")).toMatch(/(checkout|account) /);

    // B's own snapshot with its link renamed to A's reference.
    const planted = structuredClone(before.data);
    const oldRef = planted.state.checkouts[0].reference as string;
    planted.state.checkouts[0].reference = linkA;
    const asText = JSON.stringify(planted).replaceAll(oldRef, linkA);
    const byRef = expectError(await b.call("PUT", "/sandbox/v1/snapshot", { raw: asText, headers: { "content-type": "application/json" } }), 422, "VALIDATION_ERROR");
    expect(byRef.errors?.state?.join(" ")).toContain(`checkout ${linkA}`);

    // B's own snapshot with its link's account number replaced by A's link's.
    const accountA = (await a.call("GET", `/api/v1/checkout/status?reference=${linkA}`)).body.data.account_number as string;
    const stolen = structuredClone(before.data);
    const oldAccount = stolen.state.checkouts[0].account_number as string;
    const withAccount = JSON.stringify(stolen).replaceAll(oldAccount, accountA);
    const byAccount = expectError(await b.call("PUT", "/sandbox/v1/snapshot", { raw: withAccount, headers: { "content-type": "application/json" } }), 422, "VALIDATION_ERROR");
    expect(byAccount.errors?.state?.join(" ")).toContain(`account ${accountA}`);

    // B is as it was, and A's page still shows A.
    expect((await b.call("GET", "/sandbox/v1/snapshot")).body).toEqual(before);
    const page = await h.call("GET", `/pay/${linkA}/status`);
    expect(page.body.data).toMatchObject({ reference: linkA, business_name: "Shop A", account_number: accountA });
    expect(h.registry.findCheckout(linkA)?.tenant.id).toBe(a.id);
  });

  it("a deleted merchant's link is gone from the public pages (404), and its reference from the index", async () => {
    const h = harness();
    const a = await loadShop(h);
    const b = await loadShop(h);
    expect((await h.call("GET", `/pay/${a.link}/status`)).status).toBe(200);
    const deleted = await a.c.call("DELETE", "/sandbox/v1/merchant");
    expect(deleted.status).toBe(200);

    expectError(await h.call("GET", `/pay/${a.link}/status`), 404, "NOT_FOUND");
    expectError(await h.call("POST", `/pay/${a.link}/simulate`, { body: {} }), 404, "NOT_FOUND");
    expect((await h.call("GET", `/pay/${a.link}`)).status).toBe(404);
    expect(h.registry.findCheckout(a.link)).toBeUndefined();
    expectError(await a.c.call("GET", "/api/v1/wallet/balance"), 401, "INVALID_CREDENTIALS");
    // The other load is untouched.
    expect((await h.call("GET", `/pay/${b.link}/status`)).body.data).toMatchObject({ reference: b.link, status: "pending" });
  });
});
