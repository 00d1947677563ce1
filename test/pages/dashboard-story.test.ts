/**
 * The story view (src/pages/dashboard-story.tsx) rendered to HTML: its header, fields and timeline, the
 * actions the object's state allows and no others, each delivery's answer, each request linked to the
 * request log, and a clear not-found block (which storyExists tells apart, for the 404).
 */
import { createElement } from "hono/jsx";
import { describe, expect, it } from "vitest";
import { Story, storyExists } from "../../src/pages/dashboard-story.js";
import { ClockNow, type StoryKind } from "../../src/pages/dashboard-ui.js";
import { client, type TestClient } from "../client.js";
import { harness } from "../helpers.js";

const BASE = "http://sandbox.test";

/** The story's HTML, rendered with the merchant's clock as the dashboard gives it. */
async function render(c: TestClient, kind: StoryKind, id: string | number): Promise<string> {
  const story = createElement(Story, { tenant: c.tenant, kind, id: String(id), baseUrl: BASE });
  return (await createElement(ClockNow.Provider, { value: c.tenant.clock.now() }, story).toString()) as string;
}

/** The labels of the buttons that post somewhere (the actions), in order. */
const actions = (html: string) => [...html.matchAll(/<button[^>]*data-post="[^"]*"[^>]*>([^<]*)<\/button>/g)].map((m) => m[1]);
/** The `<li>`s carrying a data-testid, whole. */
const items = (html: string, testid: string) => [...html.matchAll(new RegExp(`<li[^>]*data-testid="${testid}"[^>]*>[\\s\\S]*?</li>`, "g"))].map((m) => m[0]);
const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
/** The text of some HTML, as a reader sees it: tags dropped, entities read. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!)
    .replace(/\s+/g, " ")
    .trim();

const capturing = async (settings: Record<string, unknown> = {}) => client(await harness().merchant({ wallet_balance: 1_000_000, webhook_capture: {}, ...settings }));

describe("a payout's story view", () => {
  it("pending approval: Approve and Reject, nothing else", async () => {
    const c = await capturing({ limits: { payout_review_threshold: 10_000 } });
    await c.payout({ reference: "held-1", amount: 20_000 });
    const html = await render(c, "payout", "held-1");
    expect(actions(html)).toEqual(["Approve", "Reject"]);
    expect(html).toContain('data-post="/sandbox/v1/payouts/held-1/approve"');
    expect(html).toContain('data-post="/sandbox/v1/payouts/held-1/reject"');
    expect(html).toMatch(/data-testid="story-status"[^>]*>pending approval</);
    expect(text(html)).toContain("₦20,000.00");
  });

  it("processing: Complete and Fail, and the settlement still due", async () => {
    const c = await capturing();
    await c.processingPayout({ reference: "proc-1" });
    const html = await render(c, "payout", "proc-1");
    expect(actions(html)).toEqual(["Complete", "Fail"]);
    expect(html).toContain('data-post="/sandbox/v1/payouts/proc-1/complete"');
    expect(text(html)).toContain("Due to settle: completed");
  });

  it("completed: no lever, Redeliver on its event, each delivery's answer, each request linked to the log", async () => {
    const c = await capturing();
    await c.processingPayout({ reference: "done-1" });
    await c.advance(30);
    await c.payoutStatus("done-1");
    const [event] = await c.events("payout.completed");
    const html = await render(c, "payout", "done-1");

    expect(actions(html)).toEqual(["Redeliver"]);
    expect(html).toContain(`data-post="/sandbox/v1/events/${event!.id}/redeliver"`);
    expect(html).toMatch(/data-testid="story-status"[^>]*>completed</);
    for (const heading of ["story-details", "story-actions", "story-timeline"]) expect(html).toMatch(new RegExp(`<h2 id="${heading}">`));
    expect(text(html)).toContain("Nothing to do: this payout is completed.");

    const [delivery, ...more] = items(html, "story-delivery");
    expect(more).toEqual([]);
    expect(text(delivery!)).toContain("Delivered to the sandbox's built-in capture: HTTP 200 in 0 ms");
    expect(text(delivery!)).toContain("captured by the sandbox (no webhook_url set)");
    expect(delivery).toMatch(/<li class="ok"/);

    const requests = items(html, "story-request");
    const seqs = (await c.requests()).data.map((r) => r.seq).sort((a, b) => a - b);
    expect(requests.map((li) => li.match(/href="\/dashboard\/logs\?seq=(\d+)"/)?.[1])).toEqual(seqs.map(String));
    expect(text(requests[0]!)).toContain("POST /api/v1/payout/transfer → 201");
    expect(text(requests[1]!)).toContain("GET /api/v1/payout/status → 200");

    // Times can be focused for their UTC tip; every item has a stable key for the live merge.
    expect(html).toMatch(/<ol class="timeline" data-testid="story-timeline"/);
    expect(html).toMatch(/<time class="when" datetime="[^"]+" tabindex="0">/);
    const keys = [...html.matchAll(/<li class="[a-z]+" data-key="([^"]+)"/g)].map((m) => m[1]);
    expect(keys).toContain("created");
    expect(keys).toContain(`event:${event!.id}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("a failed delivery shows the receiver's answer as not delivered", async () => {
    const c = await capturing({ webhook_capture: { fail_first: 1 } });
    await c.processingPayout({ reference: "bad-1" });
    await c.advance(30);
    const [delivery] = items(await render(c, "payout", "bad-1"), "story-delivery");
    expect(delivery).toMatch(/<li class="bad"/);
    expect(text(delivery!)).toContain("Not delivered to the sandbox's built-in capture: HTTP 500 in 0 ms");
    expect(text(delivery!)).toContain("failing on purpose (webhook_capture.fail_first)");
    expect(delivery).toMatch(/Next retry<\/dt><dd><time class="when" datetime="2026-03-02T09:01:30.000Z" tabindex="0">in 1 min/);
  });

  it("without anywhere to deliver, no Redeliver is offered", async () => {
    const c = client(await harness().merchant({ wallet_balance: 1_000_000 }));
    await c.processingPayout({ reference: "quiet-1" });
    await c.advance(30);
    expect(actions(await render(c, "payout", "quiet-1"))).toEqual([]);
  });
});

describe("the other stories' actions", () => {
  it("a processing VTU purchase: Succeed and Fail; settled: none", async () => {
    const c = await capturing();
    await c.rule({ target: "vtu", outcome: "processing_success", delay_seconds: 60, times: 1 });
    const processing = (await c.airtime()).body.reference as string;
    const settled = (await c.airtime()).body.reference as string;
    expect(actions(await render(c, "vtu", processing))).toEqual(["Succeed", "Fail"]);
    expect(actions(await render(c, "vtu", settled))).toEqual([]);
  });

  it("a pending payment link: Pay exact amount and its payment page; paid: no Pay, Redeliver on its webhook", async () => {
    const c = await capturing();
    const link = await c.checkout();
    const html = await render(c, "checkout", link.reference);
    expect(actions(html)).toEqual(["Pay exact amount"]);
    expect(html).toContain(`href="${BASE}/pay/${link.reference}"`);
    await c.payLink(link.reference);
    expect(actions(await render(c, "checkout", link.reference))).toEqual(["Redeliver"]);
  });

  it("a pending transfer in: Clear now and Fail now", async () => {
    const c = await capturing();
    const account = await c.virtualAccount();
    const payment = await c.transferIn(account.account_number, 7_500, { status: "pending" });
    const html = await render(c, "va_payment", payment.transaction_id);
    expect(actions(html)).toEqual(["Clear now", "Fail now"]);
    expect(html).toContain(`data-post="/sandbox/v1/virtual-accounts/payments/${payment.transaction_id}/clear"`);
  });

  it("a card: Freeze or Unfreeze by its status, Terminate, and Spend; terminated: nothing; its balance in dollars", async () => {
    const c = await capturing();
    const card = await c.fundedCard(25);
    const active = await render(c, "card", card.card_id);
    expect(actions(active)).toEqual(["Freeze", "Terminate"]);
    expect(active).toContain(`data-post="/sandbox/v1/virtual-cards/${card.card_id}/spend"`);
    expect(text(active)).toContain("$25.00");
    await c.call("POST", `/api/v1/virtual-cards/${card.card_id}/freeze`);
    expect(actions(await render(c, "card", card.card_id))).toEqual(["Unfreeze", "Terminate"]);
    await c.call("POST", `/api/v1/virtual-cards/${card.card_id}/terminate`);
    const terminated = await render(c, "card", card.card_id);
    expect(actions(terminated)).toEqual([]);
    expect(terminated).not.toContain("/spend");
  });
});

describe("an object that is not there", () => {
  it("says so, links back to its list, and storyExists tells the route", async () => {
    const c = await capturing();
    const html = await render(c, "payout", "NOPE-1");
    expect(storyExists(c.tenant, "payout", "NOPE-1")).toBe(false);
    expect(html).toContain('data-testid="story-not-found"');
    expect(text(html)).toContain("No payout with reference NOPE-1 for this merchant.");
    expect(html).toContain('href="/dashboard/payouts"');
    expect(text(await render(c, "va_payment", "TXN_X"))).toContain("No transfer in with transaction id TXN_X for this merchant.");
    expect(await render(c, "card", "1")).toContain('href="/dashboard/cards"');

    await c.processingPayout({ reference: "here" });
    expect(storyExists(c.tenant, "payout", "here")).toBe(true);
  });

  it("a hostile id is shown as text, and a kind that is no story's is not found rather than a crash", async () => {
    const c = await capturing();
    const html = await render(c, "payout", "<script>alert(1)</script>");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;");
    const odd = await render(c, "__proto__" as StoryKind, "x");
    expect(storyExists(c.tenant, "__proto__" as StoryKind, "x")).toBe(false);
    expect(text(odd)).toContain("The dashboard has no such view.");
  });
});
