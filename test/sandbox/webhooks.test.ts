import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyWebhookSignature } from "../../src/webhooks/sign.js";
import { at, client, PAYOUT_ACCOUNT } from "../client.js";
import { expectError, harness, receivers } from "../helpers.js";
import { startReceiver } from "../receiver.js";

const receiver = receivers();
/** A merchant's test client (webhooks to `webhook_url` when given) and a virtual account of theirs. */
async function merchantWithAccount(settings: Record<string, unknown> = {}) {
  const c = client(await harness().merchant(settings));
  return { c, account: (await c.virtualAccount()).account_number };
}

describe("payment.received", () => {
  it("is POSTed as the spec's payload, signed over the raw body, and logged", async () => {
    const r = await receiver();
    const { c, account } = await merchantWithAccount({ webhook_url: r.url });
    const m = c.merchant;
    const payment = await c.transferIn(account);
    await c.flush();
    expect(r.received).toHaveLength(1);
    const got = r.received[0]!;
    expect(got.path).toBe("/webhooks");
    expect(got.headers["content-type"]).toBe("application/json");
    const signature = got.headers["x-webhook-signature"] as string;
    expect(signature).toBe(createHmac("sha256", m.webhookSecret).update(got.raw).digest("hex"));
    expect(verifyWebhookSignature(got.raw, signature, m.webhookSecret)).toBe(true);
    expect(got.body).toEqual({
      event: "payment.received",
      nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
      sent_at: at(0),
      data: {
        reference: "Order 1001",
        amount: 7_500,
        currency: "NGN",
        virtual_account: account,
        payer_name: "BELLO HALIMA",
        payer_bank: "Zenith Bank",
        transaction_id: payment.transaction_id,
        status: "successful",
      },
    });

    const events = await c.events();
    expect(events).toEqual([
      expect.objectContaining({ type: "payment.received", transaction_id: payment.transaction_id, status: "delivered", attempts: 1, next_attempt_at: null }),
    ]);
    expect(await c.deliveries()).toEqual([
      {
        id: expect.stringMatching(/^DLV_/),
        event_id: events[0]!.id,
        event_type: "payment.received",
        trigger: "initial",
        url: r.url,
        sent_at: at(0),
        nonce: got.body.nonce,
        request_headers: { "content-type": "application/json", "user-agent": "merchant-sandbox-webhooks/1.0", "x-webhook-signature": signature },
        request_body: got.raw.toString("utf8"),
        status_code: 200,
        error: null,
        latency_ms: expect.any(Number),
        response_excerpt: "ok",
        outcome: "delivered",
        fault: null,
        next_retry_at: null,
      },
    ]);
  });

  it("events are stored even when no webhook URL is set, and can be delivered once one is", async () => {
    const r = await receiver();
    const { c, account } = await merchantWithAccount();
    await c.transferIn(account);
    await c.flush();
    const [event] = await c.events();
    expect(event).toMatchObject({ type: "payment.received", status: "no_url", attempts: 0 });
    expect(await c.deliveries()).toEqual([]);
    expectError(await c.call("POST", `/sandbox/v1/events/${event!.id}/redeliver`), 409, "INVALID_STATE");
    await c.call("PATCH", "/sandbox/v1/merchant", { body: { webhook_url: r.url } });
    const redelivered = await c.call("POST", `/sandbox/v1/events/${event!.id}/redeliver`);
    expect(redelivered.body.data).toMatchObject({ trigger: "redeliver", status_code: 200, outcome: "delivered" });
    expect(r.received).toHaveLength(1);
    expect((await c.events())[0]!.status).toBe("delivered");
  });

  it("filters events by type and since", async () => {
    const { c, account } = await merchantWithAccount();
    await c.transferIn(account, 100, { narration: "first" });
    await c.advance(60);
    await c.transferIn(account, 200, { narration: "second" });
    const link = await c.checkout({ amount: 1_000 });
    expect((await c.payLink(link.reference)).status).toBe(200);
    const all = await c.events();
    expect(all.map((e) => e.type)).toEqual(["payment.received", "payment.received", "checkout.completed"]);
    const since = (await c.call("GET", `/sandbox/v1/events?since=${encodeURIComponent(at(60))}`)).body.data;
    expect(since.map((e: { data: { amount: number } }) => e.data.amount)).toEqual([200, 1_000]);
    expect(await c.events("checkout.completed")).toHaveLength(1);
    expectError(await c.call("GET", "/sandbox/v1/events?type=nope"), 422, "VALIDATION_ERROR");
  });
});

describe("link and payout events", () => {
  it("checkout.completed carries the link, its reference and transaction_id", async () => {
    const r = await receiver();
    const c = client(await harness().merchant({ webhook_url: r.url }));
    const link = await c.checkout({ amount: 2_500, description: "Jollof x2", customer_email: "ada@example.com" });
    await c.advance(600);
    expect((await c.payLink(link.reference)).status).toBe(200);
    await c.flush();
    expect(r.received.map((x) => x.body)).toEqual([
      {
        event: "checkout.completed",
        nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
        sent_at: at(600),
        data: {
          reference: link.reference,
          amount: 2_500,
          currency: "NGN",
          description: "Jollof x2",
          customer_email: "ada@example.com",
          customer_name: null,
          account_number: expect.stringMatching(/^\d{10}$/),
          paid_at: at(600),
          transaction_id: link.order_no,
          order_no: link.order_no,
          status: "successful",
        },
      },
    ]);
  });

  it("payout.completed and payout.failed carry the payout record and its order_no", async () => {
    const r = await receiver();
    const c = client(await harness().merchant({ webhook_url: r.url }));
    const body = { amount: 5_000, bank_code: "058" };
    const ok = await c.processingPayout({ ...body, reference: "ok", account_number: PAYOUT_ACCOUNT });
    const bad = await c.processingPayout({ ...body, reference: "bad", account_number: "0123450001" });
    await c.advance(30);
    const byType = Object.fromEntries(r.received.map((x) => [x.body.event, x.body]));
    expect(Object.keys(byType).sort()).toEqual(["payout.completed", "payout.failed"]);
    expect(byType["payout.completed"].data).toEqual({
      reference: "ok",
      amount: 5_000,
      fee: 50,
      total_deducted: 5_050,
      net_amount: 5_000,
      currency: "NGN",
      account: `****${PAYOUT_ACCOUNT.slice(-4)}`,
      account_name: "ADEYEMI IBRAHIM IFEOMA", // what name enquiry returns for PAYOUT_ACCOUNT
      bank_name: "Guaranty Trust Bank",
      narration: null,
      created_at: at(0),
      processed_at: at(30),
      error: null,
      transaction_id: ok.order_no,
      order_no: ok.order_no,
      status: "completed",
    });
    expect(byType["payout.failed"].data).toMatchObject({
      reference: "bad",
      status: "failed",
      error: "Transfer failed at the beneficiary bank",
      transaction_id: bad.order_no,
    });
    expect(byType["payout.failed"].sent_at).toBe(at(30));
  });
});

describe("retries", () => {
  it("follow the schedule on the merchant's clock, then the event is failed", async () => {
    const r = await receiver(() => ({ status: 503, body: "down for maintenance" }));
    const { c, account } = await merchantWithAccount({ webhook_url: r.url });
    await c.transferIn(account);
    await c.flush();
    expect(r.received).toHaveLength(1);
    const schedule = [60, 300, 1_800, 7_200, 21_600, 86_400];
    let elapsed = 0;
    for (const wait of schedule) {
      await c.advance(wait - 1);
      const before = r.received.length;
      await c.advance(1);
      expect(r.received.length).toBe(before + 1);
      elapsed += wait;
      expect(r.received.at(-1)!.body.sent_at).toBe(at(elapsed));
    }
    await c.advance(7 * 86_400);
    expect(r.received).toHaveLength(7);
    const deliveries = await c.deliveries();
    expect(deliveries.map((d) => d.next_retry_at)).toEqual([at(60), at(360), at(2_160), at(9_360), at(30_960), at(117_360), null]);
    expect(deliveries.every((d) => d.status_code === 503 && d.response_excerpt === "down for maintenance" && d.outcome === "failed")).toBe(true);
    const [event] = await c.events();
    expect(event).toMatchObject({ status: "failed", attempts: 7, next_attempt_at: null });
  });

  it("a receiver that fails 3 times then succeeds gets 4 attempts: distinct nonces, one transaction_id", async () => {
    const r = await receiver((n) => ({ status: n < 3 ? 500 : 200 }));
    const { c, account } = await merchantWithAccount({ webhook_url: r.url });
    const m = c.merchant;
    const payment = await c.transferIn(account);
    await c.advance(86_400);
    expect(r.received).toHaveLength(4);
    const nonces = new Set(r.received.map((x) => x.body.nonce));
    expect(nonces.size).toBe(4);
    expect(new Set(r.received.map((x) => x.body.data.transaction_id))).toEqual(new Set([payment.transaction_id]));
    expect(r.received.map((x) => x.body.sent_at)).toEqual([at(0), at(60), at(360), at(2_160)]);
    expect(r.received.every((x) => verifyWebhookSignature(x.raw, x.headers["x-webhook-signature"] as string, m.webhookSecret))).toBe(true);
    const [event] = await c.events();
    expect(event).toMatchObject({ status: "delivered", attempts: 4 });
    expect((await c.clock()).pending_timers).toBe(0);
  });

  it("a refused connection and a timeout are failed attempts with the error logged", async () => {
    const closed = await startReceiver();
    const deadUrl = closed.url;
    await closed.close();
    let release!: () => void;
    const slow = await receiver(() => ({ hold: new Promise<void>((resolve) => (release = resolve)) }));
    const refused = await merchantWithAccount({ webhook_url: deadUrl, webhook: { retry_schedule_seconds: [] } });
    const timeout = await merchantWithAccount({ webhook_url: slow.url, webhook: { timeout_seconds: 0.2, retry_schedule_seconds: [] } });
    await refused.c.transferIn(refused.account);
    await timeout.c.transferIn(timeout.account);
    await refused.c.flush();
    await timeout.c.flush();
    release();
    const [a] = await refused.c.deliveries();
    const [b] = await timeout.c.deliveries();
    expect(a).toMatchObject({ status_code: null, outcome: "failed", error: expect.stringContaining("ECONNREFUSED") });
    expect(b).toMatchObject({ status_code: null, outcome: "failed", error: "Timed out after 0.2 s" });
    expect((await refused.c.events())[0]!.status).toBe("failed");
  });
});

describe("redelivery", () => {
  it("sends the event again now with a new nonce and sent_at and the same transaction_id", async () => {
    const r = await receiver();
    const { c, account } = await merchantWithAccount({ webhook_url: r.url });
    const payment = await c.transferIn(account);
    await c.flush();
    await c.advance(3_600);
    const [event] = await c.events();
    const res = await c.call("POST", `/sandbox/v1/events/${event!.id}/redeliver`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ event_id: event!.id, trigger: "redeliver", status_code: 200, sent_at: at(3_600) });
    expect(r.received).toHaveLength(2);
    expect(r.received[1]!.body.nonce).not.toBe(r.received[0]!.body.nonce);
    expect(r.received[1]!.body.data.transaction_id).toBe(payment.transaction_id);
    expect(r.received[1]!.body.sent_at).toBe(at(3_600));
    expectError(await c.call("POST", "/sandbox/v1/events/EVT_NOPE/redeliver"), 404, "NOT_FOUND");
  });

  it("a successful redelivery of a failing event stops its retries", async () => {
    const r = await receiver((n) => ({ status: n === 0 ? 500 : 200 }));
    const { c, account } = await merchantWithAccount({ webhook_url: r.url });
    await c.transferIn(account);
    await c.flush();
    const [event] = await c.events();
    expect(event).toMatchObject({ status: "pending", next_attempt_at: at(60) });
    await c.call("POST", `/sandbox/v1/events/${event!.id}/redeliver`);
    await c.advance(86_400);
    expect(r.received).toHaveLength(2);
    expect((await c.events())[0]).toMatchObject({ status: "delivered", next_attempt_at: null });
  });
});

describe("webhooks never hold up the API", () => {
  it("a receiver that has not answered yet does not delay the response that emitted the event", async () => {
    let release!: () => void;
    const r = await receiver(() => ({ hold: new Promise<void>((resolve) => (release = resolve)) }));
    const { c, account } = await merchantWithAccount({ webhook_url: r.url });
    const pending = c.transferIn(account);
    await r.waitFor(1); // the receiver holds the request open...
    const payment = await pending; // ...and the API has answered anyway
    expect(payment.transaction_id).toMatch(/^TXN_/);
    const [event] = await c.events();
    expect(event).toMatchObject({ status: "pending", attempts: 0 });
    release();
    await c.flush();
    expect((await c.events())[0]).toMatchObject({ status: "delivered", attempts: 1 });
  });
});
