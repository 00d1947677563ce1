/**
 * The dashboard asks for each section every 2 s. A fragment carries an ETag (a hash
 * of its HTML) and an unchanged one is answered 304 with no body, so an unchanged section costs the page
 * nothing; any change of state, or another merchant's view (its name in the top bar), gets the new
 * HTML. Rows carry a `data-key`, which the page's merge matches them by.
 */
import { describe, expect, it } from "vitest";
import { client } from "../client.js";
import { harness } from "../helpers.js";

describe("GET /dashboard/fragments/{section}: ETag and 304", () => {
  it("answers 304 to the tag it gave, and 200 with a new tag once the section changed", async () => {
    const c = client(await harness().merchant({ wallet_balance: 1_000_000 }));
    const first = await c.call("GET", "/dashboard/fragments/overview");
    expect(first.status).toBe(200);
    const tag = first.headers.get("etag");
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{20,}"$/);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");

    const same = await c.call("GET", "/dashboard/fragments/overview", { headers: { "if-none-match": tag! } });
    expect(same.status).toBe(304);
    expect(same.body).toBe("");
    expect(same.headers.get("etag")).toBe(tag);
    // A weak form of the tag, or the tag among others, is the same validator.
    expect((await c.call("GET", "/dashboard/fragments/overview", { headers: { "if-none-match": `"x", W/${tag!}` } })).status).toBe(304);
    expect((await c.call("GET", "/dashboard/fragments/overview", { headers: { "if-none-match": '"something-else"' } })).status).toBe(200);

    await c.fund(2_500);
    const changed = await c.call("GET", "/dashboard/fragments/overview", { headers: { "if-none-match": tag! } });
    expect(changed.status).toBe(200);
    expect(changed.body).toContain("₦1,002,500.00");
    expect(changed.headers.get("etag")).not.toBe(tag);
  });

  it("is per section and per merchant: another's tag gets the full HTML; the keys are still needed", async () => {
    const h = harness();
    const a = client(await h.merchant({ business_name: "Alpha Stores" }));
    const b = client(await h.merchant({ business_name: "Beta Foods" }));
    // The top bar's identity names the merchant: A's tag never stands for B's.
    const tagA = (await a.call("GET", "/dashboard/fragments/identity")).headers.get("etag")!;
    const asB = await b.call("GET", "/dashboard/fragments/identity", { headers: { "if-none-match": tagA } });
    expect(asB.status).toBe(200);
    expect(asB.body).toContain("Beta Foods");
    expect(asB.body).not.toContain("Alpha Stores");
    expect((await a.call("GET", "/dashboard/fragments/identity", { headers: { "if-none-match": tagA } })).status).toBe(304);
    // A tag is one section's: A's identity tag does not answer for A's other sections.
    for (const section of ["overview", "payouts"]) {
      expect((await a.call("GET", `/dashboard/fragments/${section}`, { headers: { "if-none-match": tagA } })).status, section).toBe(200);
    }
    // A tag names content, not a merchant: two new merchants' identical Home sections are the same HTML, so the same tag.
    const overviewA = (await a.call("GET", "/dashboard/fragments/overview")).headers.get("etag")!;
    expect((await b.call("GET", "/dashboard/fragments/overview", { headers: { "if-none-match": overviewA } })).status).toBe(304);
    expect((await h.call("GET", "/dashboard/fragments/identity", { headers: { "if-none-match": tagA } })).status).toBe(401);
  });

  it("keys each row by its reference, so the page's merge matches rows rather than positions", async () => {
    const c = client(await harness().merchant({ wallet_balance: 1_000_000 }));
    expect((await c.payout({ reference: "keyed-1" })).status).toBe(201);
    const payouts = await c.call("GET", "/dashboard/fragments/payouts");
    expect(payouts.body).toContain('data-key="keyed-1"');
  });
});
