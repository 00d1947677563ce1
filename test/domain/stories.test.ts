/**
 * An object's story (domain/stories.ts), from state built through the API on a manual clock: the record's
 * creation and state changes, its webhook events with each delivery and the receiver's answer, the
 * requests of the request log that touched it, and what is still due, in time order; null for an object
 * the merchant does not have.
 */
import { describe, expect, it } from "vitest";
import { CAPTURE_URL } from "../../src/domain/webhook-policy.js";
import { hasStory, storyOf, type StoryEntry, type StoryObjectKind } from "../../src/domain/stories.js";
import { client, type TestClient } from "../client.js";
import { harness, START } from "../helpers.js";

const story = (c: TestClient, kind: StoryObjectKind, id: string | number) =>
  storyOf({ state: c.tenant.state, requests: c.tenant.requestLog.all(), kind, id: String(id), now: c.tenant.clock.now() });

/** Each entry as "kind: title", in the story's order. */
const outline = (entries: StoryEntry[]) => entries.map((e) => `${e.kind}: ${e.title}`);

const expectTimeOrder = (entries: StoryEntry[]) => {
  const times = entries.map((e) => e.at);
  expect(times).toEqual([...times].sort((a, b) => a - b));
  expect(new Set(entries.map((e) => e.key)).size, "keys are unique").toBe(entries.length);
};

/** A merchant whose webhooks go to the built-in capture, with money to spend. */
const capturing = async (settings: Record<string, unknown> = {}) => client(await harness().merchant({ wallet_balance: 1_000_000, webhook_capture: {}, ...settings }));

describe("a payout's story", () => {
  it("tells its creation, its requests (status reads too), its settlement, the webhook and its delivery to the capture, in time order", async () => {
    const c = await capturing();
    const created = await c.processingPayout({ reference: "inv-1" });
    await c.payoutStatus("inv-1");
    await c.advance(30);
    await c.payoutStatus("inv-1");

    const s = story(c, "payout", "inv-1")!;
    expect(s).toMatchObject({ kind: "payout", id: "inv-1", status: "completed", amount: { label: "Amount", value: 5_000, currency: "NGN" } });
    expect(outline(s.timeline)).toEqual([
      "request: POST /api/v1/payout/transfer → 201",
      "created: Payout created",
      "request: GET /api/v1/payout/status → 200",
      "state: Status changed to completed",
      "event: Webhook payout.completed sent",
      "delivery: Delivered to the sandbox's built-in capture: HTTP 200 in 0 ms",
      "request: GET /api/v1/payout/status → 200",
    ]);
    expectTimeOrder(s.timeline);
    const [post, made, , settled, event, delivery, read] = s.timeline;
    expect(made).toMatchObject({ at: START, detail: "Sent to the beneficiary's bank: processing." });
    expect(post!.at).toBe(START);
    expect(settled).toMatchObject({ at: START + 30_000, tone: "ok" });
    const [evt] = await c.events("payout.completed");
    expect(evt!.transaction_id).toBe(created.order_no);
    expect(s.events).toEqual([evt!.id]);
    expect(event).toMatchObject({ event_id: evt!.id, tone: "ok", at: START + 30_000 });
    const [sent] = await c.deliveries(evt!.id);
    expect(delivery).toMatchObject({
      key: `delivery:${sent!.id}`,
      event_id: evt!.id,
      tone: "ok",
      delivery: { id: sent!.id, url: CAPTURE_URL, capture: true, status_code: 200, outcome: "delivered", trigger: "initial", response_excerpt: expect.any(String) },
    });
    const seqs = (await c.requests("path=/api/v1/payout")).data.map((r) => r.seq).sort((a, b) => a - b);
    expect(s.timeline.filter((e) => e.request).map((e) => e.request!.seq)).toEqual(seqs);
    expect(read!.request).toMatchObject({ method: "GET", path: "/api/v1/payout/status", query: "reference=inv-1", status: 200, error_code: null });
    expect(s.fields).toContainEqual({ label: "Order no.", value: created.order_no, format: "mono" });
    expect(s.fields).toContainEqual({ label: "Fee", value: created.fee, format: "money", currency: "NGN" });
  });

  it("a creation whose answer an outcome rule spoiled is still the request that made it, with its status and error code", async () => {
    const c = await capturing();
    await c.rule({ target: "response", outcome: "server_error", match: { operation: "createPayout" }, times: 1 });
    const spoiled = await c.payout({ reference: "inv-2" });
    expect(spoiled.status).toBe(500);
    const s = story(c, "payout", "inv-2")!;
    expect(outline(s.timeline)).toEqual([`request: POST /api/v1/payout/transfer → 500 ${spoiled.body.error_code}`, "created: Payout created", "scheduled: Due to settle: completed"]);
    expect(s.timeline[0]).toMatchObject({ tone: "bad", request: { status: 500, error_code: spoiled.body.error_code } });
  });

  it("held for approval, then approved: the approval's time, and the settlement still due", async () => {
    const c = await capturing({ limits: { payout_review_threshold: 10_000 } });
    const held = (await c.payout({ reference: "big", amount: 20_000 })).body.data;
    expect(held.status).toBe("pending_approval");
    const waiting = story(c, "payout", "big")!;
    expect(waiting.timeline[1]).toMatchObject({ kind: "created", detail: "Held for approval: at or above the review threshold." });
    expect(waiting.fields.find((f) => f.label === "Plan")?.value).toBe("Completes 30 s after it is sent once approved.");

    await c.advance("10m");
    expect((await c.call("POST", "/sandbox/v1/payouts/big/approve")).status).toBe(200);
    const approved = story(c, "payout", "big")!;
    expect(outline(approved.timeline)).toEqual([
      "request: POST /api/v1/payout/transfer → 201",
      "created: Payout created",
      "state: Approved: status changed to processing",
      "scheduled: Due to settle: completed",
    ]);
    expect(approved.timeline[2]!.at).toBe(START + 600_000);
    expect(approved.timeline[3]!.at).toBe(START + 630_000);
  });

  it("rejected: failed with the reason and the money back; no webhook URL means the event is logged, not sent", async () => {
    const c = client(await harness().merchant({ wallet_balance: 1_000_000, limits: { payout_review_threshold: 10_000 } }));
    await c.payout({ reference: "no", amount: 20_000 });
    await c.advance(5);
    expect((await c.call("POST", "/sandbox/v1/payouts/no/reject", { body: { reason: "Wrong invoice" } })).status).toBe(200);
    const s = story(c, "payout", "no")!;
    const failed = s.timeline.find((e) => e.kind === "state")!;
    expect(failed).toMatchObject({ title: "Status changed to failed", tone: "bad", at: START + 5_000, amount: { sign: "+", currency: "NGN" } });
    expect(failed.detail).toContain("Wrong invoice");
    expect(s.timeline.find((e) => e.kind === "event")).toMatchObject({ title: "Webhook payout.failed logged, not sent", detail: "No webhook URL was set, so it was logged and not sent." });
    expect(s.timeline.some((e) => e.kind === "delivery")).toBe(false);
  });

  it("a receiver answering 500: the failed attempt with its answer, the retry due, then the retry delivered", async () => {
    const c = await capturing({ webhook_capture: { fail_first: 1 } });
    await c.processingPayout({ reference: "retry-me" });
    await c.advance(30);
    const first = story(c, "payout", "retry-me")!;
    expect(outline(first.timeline).slice(-3)).toEqual([
      "event: Webhook payout.completed sent",
      "delivery: Not delivered to the sandbox's built-in capture: HTTP 500 in 0 ms",
      "scheduled: Webhook retry due",
    ]);
    expect(first.timeline.at(-2)).toMatchObject({ tone: "bad", delivery: { status_code: 500, response_excerpt: "failing on purpose (webhook_capture.fail_first)", next_retry_at: START + 90_000 } });
    expect(first.timeline.at(-1)!.at).toBe(START + 90_000);

    await c.advance(60);
    const later = story(c, "payout", "retry-me")!;
    expect(later.timeline.filter((e) => e.kind === "delivery").map((e) => [e.delivery!.trigger, e.delivery!.status_code, e.at])).toEqual([
      ["initial", 500, START + 30_000],
      ["retry", 200, START + 90_000],
    ]);
    expect(later.timeline.some((e) => e.kind === "scheduled")).toBe(false);
  });

  it("settled by a status read: that read comes before the change it caused, at the same instant", async () => {
    const c = await capturing();
    await c.rule({ target: "payout", outcome: "completed", queries: 1 });
    await c.processingPayout({ reference: "on-read" });
    await c.payoutStatus("on-read");
    expect(outline(story(c, "payout", "on-read")!.timeline)).toEqual([
      "request: POST /api/v1/payout/transfer → 201",
      "request: GET /api/v1/payout/status → 200",
      "created: Payout created",
      "state: Status changed to completed",
      "event: Webhook payout.completed sent",
      "delivery: Delivered to the sandbox's built-in capture: HTTP 200 in 0 ms",
    ]);
  });
});

describe("the other stories", () => {
  it("a VTU purchase: created by its request, settlement due, then the change to Success", async () => {
    const c = await capturing();
    await c.rule({ target: "vtu", outcome: "processing_success", delay_seconds: 120 });
    const bought = (await c.airtime()).body;
    expect(bought.status).toBe("processing");
    const due = story(c, "vtu", bought.reference)!;
    expect(outline(due.timeline)).toEqual(["request: POST /api/v1/vtu/airtime → 200", "created: VTU purchase created", "scheduled: Due to settle: Success"]);
    expect(due).toMatchObject({ status: "processing", status_label: "Processing", amount: { value: 500, currency: "NGN" } });

    await c.advance(120);
    await c.call("GET", `/api/v1/vtu/transaction/status?reference=${bought.reference}`);
    const s = story(c, "vtu", bought.reference)!;
    expect(outline(s.timeline)).toEqual([
      "request: POST /api/v1/vtu/airtime → 200",
      "created: VTU purchase created",
      "state: Status changed to Success",
      "request: GET /api/v1/vtu/transaction/status → 200",
    ]);
    expect(s.timeline[2]!.at).toBe(START + 120_000);
    expectTimeOrder(s.timeline);
  });

  it("a payment link: created, read, paid, its checkout.completed webhook delivered", async () => {
    const c = await capturing();
    const link = await c.checkout({ amount: 12_500 });
    await c.checkoutStatus(link.reference);
    await c.advance(60);
    expect((await c.payLink(link.reference)).status).toBe(200);
    const s = story(c, "checkout", link.reference)!;
    expect(outline(s.timeline)).toEqual([
      "request: POST /api/v1/checkout/create → 200",
      "created: Payment link created",
      "request: GET /api/v1/checkout/status → 200",
      "state: Paid: status changed to paid",
      "event: Webhook checkout.completed sent",
      "delivery: Delivered to the sandbox's built-in capture: HTTP 200 in 0 ms",
    ]);
    expect(s).toMatchObject({ status: "paid", amount: { value: 12_500 } });
    expect(s.timeline[3]!.at).toBe(START + 60_000);
    expectTimeOrder(s.timeline);
  });

  it("a payment link left unpaid: its expiry is due, then it has expired on the merchant's clock", async () => {
    const c = await capturing();
    const link = await c.checkout();
    const pending = story(c, "checkout", link.reference)!;
    expect(pending.timeline.at(-1)).toMatchObject({ kind: "scheduled", title: "Expires unless paid", at: Date.parse(link.expires_at) });
    await c.advance("31m");
    const s = story(c, "checkout", link.reference)!;
    expect(s.status).toBe("expired");
    expect(s.timeline.at(-1)).toMatchObject({ kind: "state", title: "Expired unpaid: status changed to expired", at: Date.parse(link.expires_at) });
  });

  it("a transfer in that arrived pending: its settlement due, its status read, then credited with payment.received delivered", async () => {
    const c = await capturing();
    const account = await c.virtualAccount();
    const payment = await c.transferIn(account.account_number, 7_500, { status: "pending", settle_after_seconds: 60, narration: "Order 77" });
    await c.call("GET", "/api/v1/transaction/status?reference=Order%2077");
    const due = story(c, "va_payment", payment.transaction_id)!;
    expect(outline(due.timeline)).toEqual(["created: Transfer received", "request: GET /api/v1/transaction/status → 200", "scheduled: Due to settle: success (credited)"]);
    expect(due.timeline[0]!.detail).toContain("Arrived pending");

    await c.advance(60);
    const s = story(c, "va_payment", payment.transaction_id)!;
    expect(outline(s.timeline)).toEqual([
      "created: Transfer received",
      "request: GET /api/v1/transaction/status → 200",
      "state: Status changed to success: credited to the wallet",
      "event: Webhook payment.received sent",
      "delivery: Delivered to the sandbox's built-in capture: HTTP 200 in 0 ms",
    ]);
    expect(s.timeline[2]).toMatchObject({ at: START + 60_000, amount: { value: 7_500, sign: "+" } });
  });

  it("a card: issued by its request, funded, frozen, each with the request that did it", async () => {
    const c = await capturing();
    const holder = await c.cardholder();
    const card = (await c.call("POST", "/api/v1/virtual-cards", { body: { cardholder_id: holder.cardholder_id } })).body;
    await c.advance(10);
    await c.fundCard(card.card_id, 40);
    await c.advance(10);
    expect((await c.call("POST", `/api/v1/virtual-cards/${card.card_id}/freeze`)).status).toBe(200);
    const s = story(c, "card", card.card_id)!;
    expect(outline(s.timeline)).toEqual([
      "request: POST /api/v1/virtual-cards → 200",
      "created: Card issued",
      `request: POST /api/v1/virtual-cards/${card.card_id}/fund → 200`,
      "state: Funded from the wallet",
      `request: POST /api/v1/virtual-cards/${card.card_id}/freeze → 200`,
      "state: Status changed to frozen",
    ]);
    expect(s).toMatchObject({ status: "frozen", amount: { label: "Balance", value: 40, currency: "USD" } });
    expect(s.timeline[3]).toMatchObject({ at: START + 10_000, amount: { value: 40, currency: "USD", sign: "+" }, detail: expect.stringContaining("Balance after: USD 40.00") });
    expectTimeOrder(s.timeline);
  });
});

describe("an object the merchant does not have", () => {
  it("has no story, whatever the id looks like; another merchant's objects are not its", async () => {
    const h = harness();
    const c = client(await h.merchant({ wallet_balance: 1_000_000 }));
    const other = client(await h.merchant({ wallet_balance: 1_000_000 }));
    await other.processingPayout({ reference: "theirs" });
    const card = await c.fundedCard(0);
    for (const [kind, id] of [
      ["payout", "theirs"],
      ["payout", ""],
      ["vtu", "VTU_NOPE"],
      ["checkout", "CHK_NOPE"],
      ["va_payment", "TXN_NOPE"],
      ["card", `0${card.card_id}`],
      ["card", `${card.card_id}.0`],
      ["card", "99999999999999999999"],
      ["card", "__proto__"],
    ] as const) {
      expect(story(c, kind, id), `${kind} ${id}`).toBeNull();
      expect(hasStory(c.tenant.state, kind, id)).toBe(false);
    }
    expect(story(c, "card", card.card_id)).not.toBeNull();
    expect(hasStory(c.tenant.state, "card", String(card.card_id))).toBe(true);
  });
});
