/**
 * The dashboard's shell as the server sends it: every view's URL answers the same shell with that view
 * shown and its navigation link current; a story's URL shows the story view for that object; anything
 * else is a 404. The demo merchant's button is there on a local start only. A story's fragment of an
 * object the merchant does not have is a 404 that says so.
 */
import { describe, expect, it } from "vitest";
import { STORY_PATHS } from "../../src/pages/dashboard-ui.js";
import { VIEWS } from "../../src/pages/dashboard-views.js";
import { harness } from "../helpers.js";

const h = harness({ tryItMerchant: "mch_demo" });
const html = async (path: string, app = h.app) => {
  const res = await app.request(path);
  return { status: res.status, body: await res.text() };
};
/** The id of the one view the shell shows. */
const shownView = (body: string) => [...body.matchAll(/<section class="view" id="view-([a-z-]+)"[^>]*?(hidden="")?>/g)].filter((m) => !m[2]).map((m) => m[1]);

describe("the dashboard's shell", () => {
  it.each(VIEWS.map((v) => [v.id, v]))("%s: its URL shows it, titled, its link current", async (_id, view) => {
    const { status, body } = await html(`/dashboard${view.path ? `/${view.path}` : ""}`);
    expect(status).toBe(200);
    expect(shownView(body)).toEqual([view.id]);
    expect(body).toContain(`<title>${view.title} · merchant-sandbox</title>`);
    expect(body).toMatch(new RegExp(`data-nav="${view.id}" aria-current="page"`));
    expect(body.match(/aria-current="page"/g)).toHaveLength(1);
  });

  it("a story's URL shows the story view for that object, its list current", async () => {
    const { status, body } = await html(`/dashboard/${STORY_PATHS.payout}/rent-%C3%A9-1`);
    expect(status).toBe(200);
    expect(shownView(body)).toEqual(["story"]);
    expect(body).toContain("<title>Payout rent-é-1 · merchant-sandbox</title>");
    expect(body).toContain('data-query="kind=payout&amp;id=rent-%C3%A9-1"');
    expect(body).toMatch(/data-nav="payouts" aria-current="page"/);
    // A transfer in belongs to the virtual accounts view.
    expect((await html(`/dashboard/${STORY_PATHS.va_payment}/TXN_1`)).body).toMatch(/data-nav="virtual-accounts" aria-current="page"/);
  });

  it.each(["/dashboard/nothing", "/dashboard/payouts/a/b", "/dashboard/ledger/1", "/dashboard/payouts/%E0%A4%A"])("%s is a 404 page", async (path) => {
    const { status, body } = await html(path);
    expect(status).toBe(404);
    expect(body).toContain('href="/dashboard"');
  });

  it("offers the demo merchant on a local start, never when shared", async () => {
    expect((await html("/dashboard")).body).toContain('id="use-demo"');
    const shared = harness({ shared: true, tryItMerchant: "mch_demo" });
    expect((await html("/dashboard", shared.app)).body).not.toContain('id="use-demo"');
    // Neither holds a key or a secret: the button reads them from the front page's JSON when clicked.
    expect((await html("/dashboard")).body).not.toMatch(/pk_test_|sk_test_/);
  });

  it("a story fragment of an object the merchant lacks is a 404 that says so", async () => {
    const m = await h.merchant();
    const res = await h.app.request(`/dashboard/fragments/story?kind=payout&id=nope`, { headers: m.keys });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("No payout with reference");
    const bad = await h.app.request(`/dashboard/fragments/story?kind=__proto__&id=1`, { headers: m.keys });
    expect(bad.status).toBe(404);
  });
});
