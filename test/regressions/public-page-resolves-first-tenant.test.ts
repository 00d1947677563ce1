/**
 * Issue 11 ("Never down, never corrupt"): the public payment pages (/pay/{ref}) resolved a
 * reference to the first tenant holding it. References repeated across tenants (every load of a
 * seeded scenario gave the same link references and account numbers, and a snapshot could plant any
 * reference), so one merchant's page could show, and take payment for, another merchant's link; the
 * lookup walked every tenant. References and account numbers are now unique sandbox-wide, claimed in
 * the registry's index, which the pages use.
 */
import { describe, expect, it } from "vitest";
import { expectError, harness, type Harness, type Reply } from "../helpers.js";

const SCENARIO = {
  name: "Seeded shop with a payment link",
  seed: "same-seed-every-time",
  merchants: { shop: { business_name: "Mama Put Foods Ltd", wallet_balance: 1_000, kyc: { bvn: "22212345678" } } },
  virtual_accounts: [{ as: "ada_account", email: "ada@example.com", reference: "cust-ada", first_name: "Ada", last_name: "Obi" }],
  payment_links: [{ as: "order_link", amount: 15_000, description: "Order 2001" }],
};

interface Loaded {
  merchantId: string;
  keys: Record<string, string>;
  link: string;
  account: string;
}

async function load(h: Harness): Promise<Loaded> {
  const res = await h.call("POST", "/sandbox/v1/scenarios", { body: SCENARIO });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const shop = res.body.data.merchants.shop;
  return {
    merchantId: shop.merchant_id,
    keys: { "x-api-key": shop.api_key, "x-api-secret": shop.api_secret },
    link: res.body.data.objects.order_link,
    account: res.body.data.objects.ada_account,
  };
}

const as = (h: Harness, who: Loaded, method: string, path: string, body?: unknown): Promise<Reply> =>
  h.call(method, path, { headers: who.keys, ...(body === undefined ? {} : { body }) });
const balance = async (h: Harness, who: Loaded) => (await as(h, who, "GET", "/api/v1/wallet/balance")).body.data.balance as number;
const linkStatus = async (h: Harness, who: Loaded) => (await as(h, who, "GET", `/api/v1/checkout/status?reference=${who.link}`)).body.data;

describe("public payment pages and sandbox-wide references", () => {
  it("two loads of one seeded scenario get different link references and account numbers", async () => {
    const h = harness();
    const a = await load(h);
    const b = await load(h);
    expect(a.merchantId).not.toBe(b.merchantId);
    expect(a.link).toMatch(/^CHK_/);
    expect(b.link).toMatch(/^CHK_/);
    expect(b.link).not.toBe(a.link);
    expect(a.account).toMatch(/^\d{10}$/);
    expect(b.account).not.toBe(a.account);
    // The links' one-time accounts differ too, and from the virtual accounts.
    const [linkA, linkB] = [await linkStatus(h, a), await linkStatus(h, b)];
    expect(linkA.account_number).not.toBe(linkB.account_number);
    expect(new Set([linkA.account_number, linkB.account_number, a.account, b.account]).size).toBe(4);
    // Each merchant sees only its own link.
    expectError(await as(h, a, "GET", `/api/v1/checkout/status?reference=${b.link}`), 404, "NOT_FOUND");
    expectError(await as(h, b, "GET", `/api/v1/checkout/status?reference=${a.link}`), 404, "NOT_FOUND");
  });

  it("each link's page shows its own merchant, and paying it credits only that merchant", async () => {
    const h = harness();
    const a = await load(h);
    const b = await load(h);
    expect((await as(h, b, "PATCH", "/sandbox/v1/merchant", { business_name: "Second Shop" })).status).toBe(200);

    const pageA = await h.call("GET", `/pay/${a.link}/status`);
    const pageB = await h.call("GET", `/pay/${b.link}/status`);
    expect(pageA.status).toBe(200);
    expect(pageB.status).toBe(200);
    expect(pageA.body.data).toMatchObject({ reference: a.link, business_name: "Mama Put Foods Ltd", account_number: (await linkStatus(h, a)).account_number, status: "pending" });
    expect(pageB.body.data).toMatchObject({ reference: b.link, business_name: "Second Shop", account_number: (await linkStatus(h, b)).account_number, status: "pending" });
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
    expect(await balance(h, b)).toBe(16_000);
    expect(await balance(h, a)).toBe(1_000);
    expect((await linkStatus(h, a)).status).toBe("pending");
    expect((await linkStatus(h, b)).status).toBe("paid");
    const ledgerA = (await as(h, a, "GET", "/sandbox/v1/wallet/ledger")).body.data;
    expect(ledgerA).toHaveLength(1); // the opening balance only

    // And A's link, paid through its own page, credits A.
    expect((await h.call("POST", `/pay/${a.link}/simulate`, { body: {} })).status).toBe(200);
    expect(await balance(h, a)).toBe(16_000);
    expect(await balance(h, b)).toBe(16_000);
    expectError(await h.call("POST", `/pay/${a.link}/simulate`, { body: {} }), 409, "INVALID_STATE");
    expect(await balance(h, a)).toBe(16_000);
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
    const a = await load(h);
    const b = await load(h);
    expect((await h.call("GET", `/pay/${a.link}/status`)).status).toBe(200);
    const deleted = await as(h, a, "DELETE", "/sandbox/v1/merchant");
    expect(deleted.status).toBe(200);

    expectError(await h.call("GET", `/pay/${a.link}/status`), 404, "NOT_FOUND");
    expectError(await h.call("POST", `/pay/${a.link}/simulate`, { body: {} }), 404, "NOT_FOUND");
    expect((await h.call("GET", `/pay/${a.link}`)).status).toBe(404);
    expect(h.registry.findCheckout(a.link)).toBeUndefined();
    expectError(await as(h, a, "GET", "/api/v1/wallet/balance"), 401, "INVALID_CREDENTIALS");
    // The other load is untouched.
    expect((await h.call("GET", `/pay/${b.link}/status`)).body.data).toMatchObject({ reference: b.link, status: "pending" });
  });
});
