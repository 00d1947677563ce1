/**
 * The content of the dashboard's lists rendered to HTML (src/pages/dashboard-fragments.tsx and the
 * sections beside it): statuses as chips, amounts as money cells under money headings, each object's
 * id linked to its story, an empty state with a first step that works when nothing exists yet, no
 * "(s)" plural anywhere, and the clock's pending timers. (Where each webhook delivery went:
 * test/regressions/deliveries-header-names-url-for-capture.test.ts.)
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Checks } from "../../src/pages/dashboard-checks.js";
import { WebhookDoctor } from "../../src/pages/dashboard-doctor.js";
import { Events } from "../../src/pages/dashboard-events.js";
import { SCENARIO_FILES } from "../../src/pages/dashboard-first-steps.js";
import { Cards, ClockPanel, Ledger, Outcomes, PaymentLinks, Payouts, Transfers, VirtualAccounts, Vtu } from "../../src/pages/dashboard-fragments.js";
import { ChecksVerdict, GetStarted, HomeSummary, LatestActivity } from "../../src/pages/dashboard-home.js";
import { RequestDetail, RequestLogList } from "../../src/pages/dashboard-logs.js";
import type { Tenant } from "../../src/engine/tenant.js";
import { client, type TestClient } from "../client.js";
import { harness, repoFile } from "../helpers.js";
import { BASE, render, text, unescape } from "./render.js";

const NONE = new URLSearchParams();

const merchant = async (settings: Record<string, unknown> = {}) => client(await harness().merchant({ webhook_capture: {}, ...settings }));

/** Every section of the dashboard that lists or states something, rendered for `tenant`. */
function sections(tenant: Tenant, query = NONE) {
  const base = { tenant, query, baseUrl: BASE };
  return {
    payouts: () => render(tenant, Payouts, base),
    links: () => render(tenant, PaymentLinks, base),
    accounts: () => render(tenant, VirtualAccounts, base),
    transfers: () => render(tenant, Transfers, { tenant, query }),
    vtu: () => render(tenant, Vtu, base),
    cards: () => render(tenant, Cards, base),
    ledger: () => render(tenant, Ledger, base),
    events: () => render(tenant, Events, { tenant, query }),
    logs: () => render(tenant, RequestLogList, { tenant, query }),
    outcomes: () => render(tenant, Outcomes, { tenant, query }),
    clock: () => render(tenant, ClockPanel, { tenant }),
    checks: () => render(tenant, Checks, { tenant }),
    doctor: () => render(tenant, WebhookDoctor, { tenant, card: undefined, running: false }),
    home: () => render(tenant, HomeSummary, { tenant }),
    start: () => render(tenant, GetStarted, { tenant, baseUrl: BASE }),
    activity: () => render(tenant, LatestActivity, { tenant }),
    verdict: () => render(tenant, ChecksVerdict, { tenant }),
  };
}

/** The `<tr>` whose `attr` is `value`, whole. */
const row = (html: string, attr: string, value: string | number) => new RegExp(`<tr[^>]*${attr}="${value}"[^>]*>[\\s\\S]*?</tr>`).exec(html)?.[0] ?? "";

/** The calls of the snippets in some HTML (keys not filled in), as method, path and body. */
function snippetCalls(html: string) {
  return [...html.matchAll(/data-template="([^"]*)"/g)].flatMap((m) =>
    unescape(m[1]!)
      .split("\n\n")
      .map((one) => {
        const [, method, path] = /curl -s -X (\w+) http:\/\/sandbox\.test(\S+)/.exec(one)!;
        const body = /-d '(.*)'/.exec(one)?.[1];
        return { method: method!, path: path!, body: body === undefined ? undefined : (JSON.parse(body) as unknown) };
      }),
  );
}

async function sendAll(c: TestClient, html: string) {
  const calls = snippetCalls(html);
  expect(calls.length).toBeGreaterThan(0);
  for (const call of calls) {
    const res = await c.call(call.method, call.path, call.body === undefined ? {} : { body: call.body });
    expect(res.body.success, `${call.method} ${call.path}: ${JSON.stringify(res.body)}`).toBe(true);
  }
}

describe("statuses as chips, amounts as money, ids linked to their stories", () => {
  it("payouts: a chip that keeps its test id, right-aligned money cells, the reference linked, the row's data kept", async () => {
    const c = await merchant();
    await c.processingPayout({ reference: "chip-1", amount: 5_000 });
    const html = await sections(c.tenant).payouts();
    const tr = row(html, "data-payout", "chip-1");
    expect(tr).toContain('data-key="chip-1"');
    expect(tr).toContain('<span class="chip info" data-testid="payout-status">processing</span>');
    expect(tr).toContain('<td data-label="Amount" class="money"><span class="money">₦5,000.00</span></td>');
    expect(tr).toContain('<td data-label="Fee" class="money"><span class="money">₦50.00</span></td>');
    expect(tr).toContain('<a href="/dashboard/payouts/chip-1" class="mono">chip-1</a>');
    expect(html).toContain('<th scope="col" class="money">Amount</th><th scope="col" class="money">Fee</th>');
    await c.advance("1m");
    expect(row(await sections(c.tenant).payouts(), "data-payout", "chip-1")).toContain('<span class="chip ok" data-testid="payout-status">completed</span>');
  });

  it("ledger: a debit is one money span with its sign, never split", async () => {
    const c = await merchant({ wallet_balance: 2_000_000, limits: { payout_review_threshold: 2_000_000 } });
    await c.processingPayout({ reference: "big-1", amount: 1_500_000 });
    const html = await sections(c.tenant).ledger();
    expect(html).toContain('<td data-label="Amount" class="money"><span class="money">−₦1,500,000.00</span></td>');
    expect(html).toContain('<span class="money">+₦2,000,000.00</span>');
    expect(html).toContain('<th scope="col" class="money">Balance after</th>');
  });

  it("payment links, VTU purchases, cards and cardholders: chips, money and story links", async () => {
    const c = await merchant();
    const link = (await c.checkout({ amount: 12_500 })).payment_link.split("/").pop()!;
    expect((await c.airtime({ amount: 500 })).status).toBe(200);
    const card = await c.fundedCard(25);
    const s = sections(c.tenant);

    const links = await s.links();
    const linkRow = row(links, "data-key", link);
    expect(linkRow).toContain(`<a href="/dashboard/payment-links/${link}" class="mono">${link}</a>`);
    expect(linkRow).toContain(`href="${BASE}/pay/${link}" target="_blank"`);
    expect(text(linkRow)).toContain("Open payment page");
    expect(linkRow).toContain('<span class="chip warn">pending</span>');
    expect(linkRow).toContain('<span class="money">₦12,500.00</span>');

    const vtu = [...c.tenant.state.vtu.values()][0]!;
    const vtuRow = row(await s.vtu(), "data-key", vtu.reference);
    expect(vtuRow).toContain(`<a href="/dashboard/vtu/${vtu.reference}" class="mono">`);
    expect(vtuRow).toMatch(/<span class="chip (ok|info)">(Success|Processing)<\/span>/);
    expect(vtuRow).toContain('<td data-label="Amount" class="money"><span class="money">₦500.00</span></td>');

    const cards = await s.cards();
    const cardRow = row(cards.slice(cards.indexOf('data-table="cards-list"')), "data-key", card.card_id);
    expect(cardRow).toContain(`<a href="/dashboard/cards/${card.card_id}" class="mono">${card.card_id}</a>`);
    expect(cardRow).toContain('<td data-label="Balance" class="money"><span class="money">$25.00</span></td>');
    expect(cardRow).toContain('<span class="chip ok">active</span>');
    expect(row(cards, "data-key", card.cardholder_id)).toContain('<span class="chip ok">approved</span>');
  });

  it("transfers in: newest first, linked to their story, filtered by status, with chips and money", async () => {
    const c = await merchant();
    const account = await c.virtualAccount();
    const first = await c.transferIn(account.account_number, 2_000, { narration: "Order 1" });
    await c.advance("1m");
    const second = await c.transferIn(account.account_number, 3_500, { narration: "Order 2", status: "pending" });
    const html = await sections(c.tenant).transfers();
    expect([...html.matchAll(/data-transfer="([^"]+)"/g)].map((m) => m[1])).toEqual([second.transaction_id, first.transaction_id]);
    const tr = row(html, "data-transfer", first.transaction_id);
    expect(tr).toContain(`<a href="/dashboard/transfers/${first.transaction_id}" class="mono">${first.transaction_id}</a>`);
    expect(tr).toContain(`<span class="chip ok">${first.status}</span>`);
    expect(tr).toContain('<td data-label="Amount" class="money"><span class="money">₦2,000.00</span></td>');
    expect(text(tr)).toContain("1 min ago");
    const pending = await sections(c.tenant, new URLSearchParams({ status: "pending" })).transfers();
    expect(pending).toContain(second.transaction_id);
    expect(pending).not.toContain(first.transaction_id);
    expect(text(await sections(c.tenant, new URLSearchParams({ q: "Order 1" })).transfers())).toContain("Showing all 1 matching");
  });

  it("the request log and the checks: status and severity chips", async () => {
    const c = await merchant();
    await c.balance();
    await c.payout({ reference: "unverified-1" });
    const logs = await sections(c.tenant).logs();
    expect(row(logs, "data-request-row", 1)).toContain('<span class="chip ok" data-testid="request-status">200</span>');
    const checks = await sections(c.tenant).checks();
    expect(row(checks, "data-check", "transfer-to-unverified-account")).toContain('<span class="chip bad">error</span>');
  });

  it("one request's objects link to their stories", async () => {
    const c = await merchant();
    await c.processingPayout({ reference: "told-1" });
    expect((await c.airtime()).status).toBe(200);
    const vtu = [...c.tenant.state.vtu.values()][0]!;
    expect(await render(c.tenant, RequestDetail, { tenant: c.tenant, seq: 1 })).toContain('<a href="/dashboard/payouts/told-1">told-1</a>');
    expect(await render(c.tenant, RequestDetail, { tenant: c.tenant, seq: 2 })).toContain(`<a href="/dashboard/vtu/${vtu.reference}">${vtu.transaction_id}</a>`);
  });
});

describe("empty states say how to make the first one", () => {
  it("every list of a new merchant: an empty state, with a curl call, a lever or a scenario", async () => {
    const c = await merchant({ wallet_balance: 0 });
    const s = sections(c.tenant);
    const curls: Record<string, string> = {
      payouts: "/api/v1/payout/transfer",
      links: "/api/v1/checkout/create",
      accounts: "/api/v1/virtual-account/create",
      vtu: "/api/v1/vtu/airtime",
      cards: "/api/v1/virtual-cards/cardholders",
      ledger: "/sandbox/v1/wallet/fund",
    };
    for (const [name, path] of Object.entries(curls)) {
      const html = await s[name as keyof typeof curls & keyof typeof s]();
      expect(html, name).toContain('data-testid="empty-state"');
      expect(unescape(html), name).toContain(`curl -s -X POST ${BASE}${path}`);
      expect(html, name).toContain("Copying fills in your keys.");
    }
    expect(text(await s.links())).toContain('"Create a payment link" below');
    expect(text(await s.accounts())).toContain('"Create a virtual account" below');
    expect(text(await s.transfers())).toContain("Create a virtual account above");
    expect(text(await s.outcomes())).toContain("the form below");
    for (const name of ["transfers", "events", "logs", "outcomes", "clock", "activity"] as const) expect(await s[name](), name).toContain('data-testid="empty-state"');
    expect(await s.events()).toContain('href="/dashboard/webhook-settings"');
    expect(await s.logs()).toContain('href="/dashboard"');
  });

  it("the scenarios they name are in the package's scenarios/ folder", async () => {
    for (const file of Object.values(SCENARIO_FILES)) expect(existsSync(repoFile(`scenarios/${file}`)), file).toBe(true);
    const c = await merchant();
    expect(unescape(await sections(c.tenant).payouts())).toContain(`merchant-sandbox run scenarios/${SCENARIO_FILES.payout}`);
  });

  it("their calls work as shown, in order: each list then holds what its call made", async () => {
    const c = await merchant({ wallet_balance: 0 });
    const s = sections(c.tenant);
    for (const name of ["ledger", "payouts", "links", "accounts", "vtu"] as const) await sendAll(c, await s[name]());
    // The cards section: a cardholder first; its card once its KYC is approved.
    const before = await s.cards();
    expect(text(before)).toContain("Create a cardholder first");
    await sendAll(c, before.slice(0, before.indexOf('data-table="cards-list"')));
    await c.advance("1d");
    const cards = await s.cards();
    expect(text(cards)).toContain("No cards yet");
    expect(text(cards)).toContain("Issue a virtual USD card");
    await sendAll(c, cards);
    for (const name of ["ledger", "payouts", "links", "accounts", "vtu", "cards"] as const) expect(await s[name](), name).not.toContain('data-testid="empty-state"');
  });

  it("a filter that hides every row says so, without the empty state", async () => {
    const c = await merchant();
    await c.processingPayout({ reference: "only-1" });
    const html = await sections(c.tenant, new URLSearchParams({ status: "failed" })).payouts();
    expect(html).toContain("No payouts match these filters.");
    expect(html).not.toContain('data-testid="empty-state"');
  });
});

describe("wording", () => {
  it("no section says \"(s)\", empty or busy", async () => {
    const empty = await merchant({ wallet_balance: 0 });
    const busy = await merchant();
    await busy.processingPayout({ reference: "words-1" });
    await busy.payout({ reference: undefined });
    await busy.transferIn((await busy.virtualAccount()).account_number);
    await busy.checkout();
    await busy.airtime();
    await busy.fundedCard(5);
    await busy.rule({ target: "payout", outcome: "failed", times: 2 });
    await busy.advance("2m");
    for (const c of [empty, busy]) {
      for (const [name, section] of Object.entries(sections(c.tenant))) expect(await section(), name).not.toMatch(/\(s\)/);
    }
    expect(text(await sections(busy.tenant).checks())).toMatch(/Judged \d+ requests of the request log, \d+ webhook delivery attempts and \d+ events/);
  });
});

describe("the clock", () => {
  it("its advance forms, and what is due when: soonest first, linked to the object, relative to the merchant's clock", async () => {
    const c = await merchant({ delays: { payout_settlement_seconds: 90 } });
    const empty = await sections(c.tenant).clock();
    for (const id of ["advance-by-form", "advance-to-form", "advance-by", "advance-to"]) expect(empty).toContain(`id="${id}"`);
    expect(text(empty)).toContain("Nothing is due");
    expect(text(empty)).toContain("0 pending timers");

    await c.processingPayout({ reference: "due-later" });
    await c.cardholder({}, { approved: false });
    const html = await sections(c.tenant).clock();
    const due = [...html.matchAll(/<tr data-timer[\s\S]*?<\/tr>/g)].map((m) => text(m[0]));
    // Each time relative, with its UTC time in the tip.
    expect(due).toEqual(["in 1 min 2026-03-02 09:01:30Z Payout due-later settles", "in 2 min 2026-03-02 09:02:00Z KYC of cardholder 1 is approved"]);
    expect(html).toContain('<a href="/dashboard/payouts/due-later" class="mono">due-later</a>');
    expect(text(html)).toContain("2 pending timers");
  });
});
