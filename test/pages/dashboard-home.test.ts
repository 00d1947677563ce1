/**
 * The dashboard's Home (src/pages/dashboard-home.tsx) rendered to HTML: the balance and the clock with
 * its quick advances; the "get started" panel while the merchant is new (its calls, sent as shown,
 * all succeed and keep the integration checks passing) and its empty section after; the latest
 * activity across kinds, newest first, each linked to its story; and the checks' verdict in words.
 */
import { describe, expect, it } from "vitest";
import { ChecksVerdict, GetStarted, HomeSummary, LatestActivity } from "../../src/pages/dashboard-home.js";
import { integrationChecks } from "../../src/engine/integration-checks.js";
import { client, type TestClient } from "../client.js";
import { harness } from "../helpers.js";
import { BASE, render, text, unescape } from "./render.js";

/** What a section renders when it has nothing to show: the shell hides it. */
const EMPTY_SECTION = '<div data-empty-section=""></div>';

const merchant = async (settings: Record<string, unknown> = {}) => client(await harness().merchant({ webhook_capture: {}, ...settings }));

/** The calls a page's snippets hold (their templates, keys not filled in), as method, path and body. */
function snippetCalls(html: string) {
  return [...html.matchAll(/data-template="([^"]*)"/g)].map((m) => {
    const template = unescape(m[1]!);
    const [, method, path] = /curl -s -X (\w+) http:\/\/sandbox\.test(\S+)/.exec(template)!;
    const body = /-d '(.*)'/.exec(template)?.[1];
    return { method: method!, path: path!, body: body === undefined ? undefined : (JSON.parse(body) as unknown) };
  });
}

describe("Home: balance and clock", () => {
  it("shows the balance as money, the clock's UTC time, mode and timers, the quick advances and the fund form", async () => {
    const c = await merchant({ wallet_balance: 250_000 });
    const before = await render(c.tenant, HomeSummary, { tenant: c.tenant });
    expect(before).toContain('<span class="money" data-testid="balance">₦250,000.00</span>');
    expect(before).toContain('data-testid="sim-time">2026-03-02 09:00:00Z</time>'); // absolute, not "just now"
    expect(text(before)).toContain("manual");
    expect(text(before)).toContain("0 pending timers");
    for (const by of ["1m", "30m", "1d"]) expect(unescape(before)).toContain(`data-post="/sandbox/v1/clock/advance" data-method="POST" data-body="{"by":"${by}"}"`);
    expect(before).toContain('id="fund-form" data-post="/sandbox/v1/wallet/fund"');
    expect(before).not.toContain("sample");

    await c.processingPayout({ reference: "one-timer" });
    await c.advance("5s");
    const after = text(await render(c.tenant, HomeSummary, { tenant: c.tenant }));
    expect(after).toContain("1 pending timer ");
    expect(after).toContain("2026-03-02 09:00:05Z");
  });

  it("a realtime clock says its speed; a merchant with sample activity gets the sample notice", async () => {
    const h = harness();
    const fast = client(await h.merchant({ clock: { mode: "realtime", speed: 60 } }));
    expect(text(await render(fast.tenant, HomeSummary, { tenant: fast.tenant }))).toContain("realtime, ×60");
    const demo = await h.demoWithActivity();
    expect(await render(demo.tenant, HomeSummary, { tenant: demo.tenant })).toContain('data-testid="sample-notice"');
  });
});

describe("Home: get started", () => {
  it("for a new merchant: the first calls with Copy, which succeed as shown and keep the checks passing", async () => {
    const c = await merchant();
    const html = await render(c.tenant, GetStarted, { tenant: c.tenant, baseUrl: BASE });
    expect(html).toContain('data-testid="get-started"');
    expect(html).toContain('href="/docs"');
    const calls = snippetCalls(html);
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      "GET /api/v1/wallet/balance",
      "POST /api/v1/virtual-account/create",
      "POST /api/v1/payout/verify-account",
      "POST /api/v1/payout/transfer",
    ]);
    expect(html.match(/Copying fills in your keys\./g)).toHaveLength(calls.length);
    for (const call of calls) {
      const res = await c.call(call.method, call.path, call.body === undefined ? {} : { body: call.body });
      expect(res.body.success, `${call.method} ${call.path}: ${JSON.stringify(res.body)}`).toBe(true);
    }
    await c.advance("1m");
    expect((await c.payoutStatus("first-payout-001")).status).toBe("completed");
    expect(integrationChecks(c.tenant).summary).toMatchObject({ verdict: "pass", errors: 0, warnings: 0 });
  });

  it("after the merchant's first request: an empty section the shell hides", async () => {
    const c = await merchant();
    await c.balance();
    expect(await render(c.tenant, GetStarted, { tenant: c.tenant, baseUrl: BASE })).toBe(EMPTY_SECTION);
  });

  it("a merchant with objects of its own, made without a request (a scenario's), is not new", async () => {
    const h = harness();
    const loaded = await h.call("POST", "/sandbox/v1/scenarios", {
      body: { name: "One link", merchants: { shop: { business_name: "Mama Put Foods Ltd" } }, payment_links: [{ as: "jollof", amount: 12_500 }] },
    });
    expect(loaded.status, JSON.stringify(loaded.body)).toBe(201);
    const shop = h.existing(loaded.body.data.merchants.shop.merchant_id);
    expect(shop.tenant.requestLog.size).toBe(0);
    expect(await render(shop.tenant, GetStarted, { tenant: shop.tenant, baseUrl: BASE })).toBe(EMPTY_SECTION);
  });

  it("the demo merchant's sample activity does not count: it still gets the panel", async () => {
    const demo = await harness().demoWithActivity();
    expect(await render(demo.tenant, GetStarted, { tenant: demo.tenant, baseUrl: BASE })).toContain('data-testid="get-started"');
  });
});

describe("Home: latest activity", () => {
  it("with nothing yet: an empty state", async () => {
    const c = await merchant();
    const html = await render(c.tenant, LatestActivity, { tenant: c.tenant });
    expect(html).toContain('data-testid="empty-state"');
    expect(html).not.toContain("<table");
  });

  async function busy(c: TestClient) {
    await c.processingPayout({ reference: "pay-old" });
    await c.advance("1m");
    const account = await c.virtualAccount();
    const transfer = await c.transferIn(account.account_number, 2_000);
    await c.advance("1m");
    const link = await c.checkout({ amount: 3_000 });
    await c.advance("1m");
    expect((await c.airtime({ amount: 400 })).status).toBe(200);
    await c.advance("1m");
    const card = await c.fundedCard(10);
    return { transfer, link: link.payment_link.split("/").pop()!, card };
  }

  it("newest first across kinds, each with its story link, a status chip, money and a relative time", async () => {
    const c = await merchant();
    const { transfer, link, card } = await busy(c);
    await c.advance("2m");
    const html = await render(c.tenant, LatestActivity, { tenant: c.tenant });
    const rows = [...html.matchAll(/<tr data-activity="([^"]+)"/g)].map((m) => m[1]);
    const vtu = [...c.tenant.state.vtu.values()][0]!;
    expect(rows).toEqual([`card:${card.card_id}`, `vtu:${vtu.reference}`, `checkout:${link}`, `va_payment:${transfer.transaction_id}`, "payout:pay-old"]);
    expect(html).toContain('<a href="/dashboard/payouts/pay-old" class="mono">pay-old</a>');
    expect(html).toContain(`<a href="/dashboard/transfers/${transfer.transaction_id}" class="mono">`);
    expect(html).toContain(`<a href="/dashboard/payment-links/${link}" class="mono">`);
    expect(html).toContain(`<a href="/dashboard/vtu/${vtu.reference}" class="mono">`);
    expect(html).toContain(`<a href="/dashboard/cards/${card.card_id}" class="mono">`);
    expect(html).toContain('<th scope="col" class="money">Amount</th>');
    expect(html).toContain('<td data-label="Amount" class="money"><span class="money">₦3,000.00</span></td>');
    expect(html).toContain('<span class="money">$10.00</span>');
    expect(html).toMatch(/<span class="chip ok">completed<\/span>/); // the payout settled
    expect(text(html)).toContain("2 min ago"); // the card, on the merchant's clock
    expect(text(html)).toContain("6 min ago"); // the payout
  });

  it("at most eight rows", async () => {
    const c = await merchant();
    for (let i = 0; i < 10; i++) await c.processingPayout({ reference: `many-${i}` });
    const rows = [...(await render(c.tenant, LatestActivity, { tenant: c.tenant })).matchAll(/data-activity="payout:([^"]+)"/g)].map((m) => m[1]);
    expect(rows).toEqual(["many-9", "many-8", "many-7", "many-6", "many-5", "many-4", "many-3", "many-2"]);
  });
});

describe("Home: the checks' verdict", () => {
  it("passes with no rule fired, then fails with correct plurals, and links to the checks", async () => {
    const c = await merchant();
    const quiet = await render(c.tenant, ChecksVerdict, { tenant: c.tenant });
    expect(quiet).toContain('<span class="chip ok">Passes</span>');
    expect(text(quiet)).toContain("no rule fired");
    expect(quiet).toContain('href="/dashboard/checks"');

    // A transfer with no verify-account first (an error) and no reference of its own (a warning).
    expect((await c.payout({ reference: undefined })).status).toBe(201);
    const one = text(await render(c.tenant, ChecksVerdict, { tenant: c.tenant }));
    expect(one).toContain("Fails 1 error, 1 warning and 0 info fired");
    expect(one).not.toContain("(s)");

    // The status of one reference read twice at once: a second warning.
    for (let i = 0; i < 2; i++) await c.call("GET", "/api/v1/payout/status?reference=nope");
    const two = text(await render(c.tenant, ChecksVerdict, { tenant: c.tenant }));
    expect(two).toContain("Fails 1 error, 2 warnings and 0 info fired");
    expect(two).not.toContain("(s)");
  });
});
