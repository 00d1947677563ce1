/**
 * The dashboard's tables through their fragment route: search, filters and paging
 * from the section's query, nothing cut silently, hostile query values clamped with a note (never a
 * 500), times relative to the merchant's clock with UTC and the reader's local time in a tip, pretty
 * payloads with Copy buttons, and events and deliveries linked both ways.
 */
import { describe, expect, it } from "vitest";
import { CHECKOUT_VALIDITY_MS } from "../../src/domain/limits.js";
import { at, client, type TestClient } from "../client.js";
import { harness, receivers } from "../helpers.js";

const receiver = receivers();

const fragment = async (c: TestClient, section: string, query = "") => {
  const res = await c.call("GET", `/dashboard/fragments/${section}${query ? `?${query}` : ""}`);
  expect(res.status, String(res.body)).toBe(200);
  return res.body as string;
};
const rows = (html: string, attribute: string) => [...html.matchAll(new RegExp(`${attribute}="([^"]+)"`, "g"))].map((m) => m[1]);

async function withPayouts(count: number) {
  const c = client(await harness().merchant({ wallet_balance: 100_000_000, limits: { payout_attempts_per_hour: 0, payout_attempts_per_ip_per_hour: 0, requests_per_minute: 0 } }));
  for (let i = 0; i < count; i++) expect((await c.payout({ reference: `ref-${String(i).padStart(3, "0")}`, amount: 1_000 })).status).toBe(201);
  return c;
}

describe("dashboard tables: search, filters and paging", () => {
  it("pages past 50 rows and says what is shown; searches by part of a reference; filters by status", async () => {
    const c = await withPayouts(60);
    const first = await fragment(c, "payouts");
    expect(rows(first, "data-payout")).toHaveLength(50);
    expect(rows(first, "data-payout")[0]).toBe("ref-059"); // newest first
    expect(first).toContain("Showing 1–50 of 60");
    expect(first).toContain('data-page-to="2"');
    expect(first).not.toContain('data-page-to="0"');

    const second = await fragment(c, "payouts", "page=2");
    expect(rows(second, "data-payout")).toEqual(Array.from({ length: 10 }, (_, i) => `ref-${String(9 - i).padStart(3, "0")}`));
    expect(second).toContain("Showing 51–60 of 60");
    expect(second).toContain('data-page-to="1"');

    const small = await fragment(c, "payouts", "per_page=7&page=3");
    expect(small).toContain("Showing 15–21 of 60");

    const found = await fragment(c, "payouts", "q=REF-04");
    expect(rows(found, "data-payout")).toEqual(Array.from({ length: 10 }, (_, i) => `ref-${String(49 - i).padStart(3, "0")}`));
    expect(found).toContain("Showing all 10 matching");
    expect(found).toContain('value="REF-04"'); // the search box keeps what was typed

    await c.call("POST", "/sandbox/v1/payouts/ref-003/complete");
    const completed = await fragment(c, "payouts", "status=completed");
    expect(rows(completed, "data-payout")).toEqual(["ref-003"]);
    expect(completed).toMatch(/<option value="completed" selected/);
    const none = await fragment(c, "payouts", "status=failed");
    expect(none).toContain("No payouts match these filters.");
    expect(none).toContain('data-filter=""'); // the filter bar stays, to clear the filter
  });

  it("answers hostile query values with a note and a sane page, never a 500", async () => {
    const c = await withPayouts(3);
    const cases: Array<[string, string]> = [
      ["page=-1", "page=-1 is not a whole number from 1 to 1000000: using 1."],
      ["per_page=1000000000", "per_page=1000000000 is not a whole number from 1 to 100: using 100."],
      ["per_page=abc", "per_page=abc is not a whole number from 1 to 100: using 50."],
      ["page=999", "Page 999 is past the end: showing page 1."],
      ["status=%3Cscript%3E", "&quot;&lt;script&gt;&quot; is not a status here: showing every status."],
      [`q=${"x".repeat(5_000)}`, "The search is cut to its first 100 characters."],
    ];
    for (const [query, note] of cases) {
      const html = await fragment(c, "payouts", query);
      expect(html, query).toContain(note);
      expect(html).not.toContain("<script>");
    }
    expect(rows(await fragment(c, "payouts", "page=-1&per_page=0"), "data-payout")).toHaveLength(3);
    // Every table's section takes the same query without failing.
    for (const section of ["links", "accounts", "events", "logs", "vtu", "cards", "outcomes", "ledger"]) {
      const html = await fragment(c, section, "page=-5&per_page=99999999999999999999&status=nope&q=%00&deliveries.page=x&cards.status=zzz&deliveries.event=evt_none");
      expect(html, section).not.toContain("Unknown section");
    }
    expect((await c.call("GET", "/dashboard/fragments/payouts?page=2")).status).toBe(200);
  });

  it("filters the ledger by kind, outcome rules by target, the request log by status class and path", async () => {
    const c = await withPayouts(2);
    await c.rule({ target: "payout", outcome: "failed" });
    expect(await fragment(c, "outcomes", "status=payout")).toContain("rule_");
    expect(await fragment(c, "outcomes", "status=vtu")).toContain("No outcome rules match these filters.");
    const payoutEntries = await fragment(c, "ledger", "q=ref-001");
    expect(payoutEntries).toContain("ref-001");
    expect(payoutEntries).not.toContain("ref-000");
    expect(await fragment(c, "ledger", "status=vtu_refund")).toContain("No ledger entries match these filters.");
    await c.call("GET", "/api/v1/payout/status?reference=nope");
    const errors = await fragment(c, "logs", "status=4xx");
    expect(errors).toContain("/api/v1/payout/status");
    expect(errors).not.toContain("/api/v1/payout/transfer");
    expect(await fragment(c, "logs", "q=%2Fapi%2Fv1%2Fpayout%2Ftransfer&status=2xx")).toContain("Showing all 2 matching");
    // One request opened: its bodies indented, each with Copy.
    const one = await fragment(c, "logs/1");
    expect(one).toContain('data-copy="request-1-body" aria-label="Copy request body of request 1"');
    expect(one).toMatch(/id="request-1-body" data-testid="request-body">\{\n {2}&quot;amount&quot;/);
    expect(one).toContain('data-copy="request-1-response"');
  });
});

describe("dashboard tables: the records the control API does not list", () => {
  it("searches virtual accounts, cardholders and cards, and filters cards by status (the second table's query after cards.)", async () => {
    const c = client(await harness().merchant({ wallet_balance: 100_000_000 }));
    const first = await c.virtualAccount({ email: "first@example.com" });
    await c.virtualAccount({ email: "second@example.com" });
    const accounts = await fragment(c, "accounts", "q=FIRST@");
    expect(accounts).toContain(first.account_number);
    expect(accounts).toContain("Showing all 1 matching");
    const card = await c.fundedCard(50);
    await c.cardholder({ email: "other@example.com", first_name: "Musa" });
    await c.call("POST", `/api/v1/virtual-cards/${card.card_id}/freeze`);
    const cards = await fragment(c, "cards", "q=musa&cards.status=frozen");
    expect(cards).toContain("Showing all 1 matching"); // the cardholder Musa, and the frozen card
    expect(cards.match(/Showing all 1 matching/g)).toHaveLength(2);
    expect(await fragment(c, "cards", "cards.status=active")).toContain("No cards match these filters.");
  });
});

describe("dashboard tables: times", () => {
  /** Each time of a fragment as shown (relative to the merchant's clock) and as its tip says it (UTC, then the reader's time). */
  const times = (html: string) =>
    [...html.matchAll(/<time class="when" datetime="([^"]+)">([^<]*)<span class="tip" role="tooltip">([^<]*)<\/span><\/time>/g)].map(([, iso, shown, tip]) => ({ iso: iso!, shown: shown!, tip: tip! }));
  const created = (html: string) => times(/<td data-label="Created">([\s\S]*?)<\/td>/.exec(html)![1]!)[0]!;

  it("reads relative to the merchant's clock, with UTC and the local time in the reader's zone in its tip; an unknown zone is ignored", async () => {
    const c = await withPayouts(1);
    const lagos = await fragment(c, "payouts", "tz=Africa%2FLagos");
    expect(created(lagos)).toEqual({ iso: "2026-03-02T09:00:00.000Z", shown: "just now", tip: expect.stringMatching(/^2026-03-02 09:00:00Z\nYour time: 2026-03-02 10:00:00 (WAT|GMT\+1)$/) });
    // Another section, another zone: Home's latest activity.
    const tokyo = await fragment(c, "activity", "tz=Asia%2FTokyo");
    expect(times(tokyo).map((t) => t.tip)).toEqual(["2026-03-02 09:00:00Z\nYour time: 2026-03-02 18:00:00 GMT+9"]);
    for (const zone of ["Not%2FA_Zone", "UTC", "x".repeat(200), "%3Cb%3E"]) {
      const html = await fragment(c, "payouts", `tz=${zone}`);
      expect(created(html), zone).toEqual({ iso: "2026-03-02T09:00:00.000Z", shown: "just now", tip: "2026-03-02 09:00:00Z" });
      expect(html, zone).not.toContain("Your time");
    }

    // The merchant's clock, not the wall clock, is what a time is counted from.
    await c.advance("5m");
    expect(created(await fragment(c, "payouts")).shown).toBe("5 min ago");
    await c.advance("3h");
    expect(created(await fragment(c, "payouts")).shown).toBe("3 h ago");
    // Ahead of the clock: a payment link's expiry.
    await c.checkout();
    const expires = times(await fragment(c, "links"))[0]!;
    expect(Date.parse(expires.iso) - Date.parse(at(5 * 60 + 3 * 3600))).toBe(CHECKOUT_VALIDITY_MS);
    expect(expires.shown).toBe(`in ${CHECKOUT_VALIDITY_MS / 60_000} min`);
    // Past 30 days: the date.
    await c.advance("31d");
    expect(created(await fragment(c, "payouts")).shown).toBe("2026-03-02");
  });
});

describe("dashboard tables: events and deliveries", () => {
  it("links each delivery to its event and each event to its deliveries; payloads pretty-printed with Copy buttons", async () => {
    const r = await receiver(() => ({ status: 500, body: "no" }));
    const c = client(await harness().merchant({ webhook_url: r.url, webhook: { retry_schedule_seconds: [60] } }));
    const account = (await c.virtualAccount()).account_number;
    await c.transferIn(account);
    await c.transferIn(account, 9_000);
    await c.flush();
    await c.advance("2m");
    await c.flush();
    const events = [...c.merchant.tenant.state.events.keys()];
    expect(events).toHaveLength(2);
    const [older, newer] = events as [string, string];

    const html = await fragment(c, "events");
    // Each event counts its deliveries (an attempt and its retry) and links to them.
    expect(html).toContain(`id="event-${older}"`);
    expect(html).toContain(`data-query-set="event=${older}"`);
    expect(html).toContain(`aria-label="2 deliveries of ${older}"`);
    // Each delivery names its event and links to its row.
    expect(html).toContain(`href="#event-${newer}" data-query-prefix="" data-query-set="q=${newer}"`);
    // The payload indented, escaped, beside its Copy button; the signature too.
    const delivery = c.merchant.tenant.state.deliveries[0]!;
    expect(html).toContain(`id="delivery-${delivery.id}-body">{\n  &quot;event&quot;`);
    expect(html).toContain(`data-copy="delivery-${delivery.id}-body" aria-label="Copy payload of delivery ${delivery.id}"`);
    expect(html).toContain(`data-copy="delivery-${delivery.id}-signature"`);

    // The links' queries: the deliveries of one event, the events narrowed to one.
    const ofOlder = await fragment(c, "events", `deliveries.event=${older}`);
    const shown = rows(ofOlder, "data-delivery-id");
    expect(shown).toHaveLength(2);
    const expected = c.merchant.tenant.state.deliveries.filter((d) => d.event_id === older).map((d) => d.id).reverse();
    expect(shown).toEqual(expected);
    expect(ofOlder).toContain(`Webhook deliveries of <span class="mono">${older}</span>`);
    expect(ofOlder).toContain("Show every event&#39;s deliveries");
    expect(ofOlder).toContain(`name="deliveries.event" value="${older}"`); // the filter bar keeps it
    expect(rows(await fragment(c, "events", `q=${newer}`), "data-event-row")).toEqual([newer]);
    expect(rows(await fragment(c, "events", "deliveries.status=delivered"), "data-delivery-id")).toEqual([]);
    expect(rows(await fragment(c, "events", "deliveries.status=failed&deliveries.per_page=1"), "data-delivery-id")).toHaveLength(1);
  });
});
