import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { verifyWebhookSignature } from "../src/webhooks/sign.js";
import { expectError, harness, makeNuban, START, type Merchant } from "./helpers.js";
import { startReceiver, type Receiver } from "./receiver.js";

const iso = (ms: number) => new Date(ms).toISOString();
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
async function receiver(answer?: Receiver["answer"]) {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}
const flush = (m: Merchant) => m.call("POST", "/sandbox/v1/clock/advance", { body: { seconds: 0 } });
const advance = (m: Merchant, seconds: number) => m.call("POST", "/sandbox/v1/clock/advance", { body: { seconds } });

async function virtualAccount(m: Merchant) {
  const res = await m.call("POST", "/api/v1/virtual-account/create", {
    body: { email: "ada@example.com", reference: "cust-1", bank: "partnerbank", first_name: "Ada", last_name: "Obi", bvn: "22212345678" },
  });
  return res.body.data.account_number as string;
}
async function transferIn(m: Merchant, account: string, amount = 7_500, narration = "Order 1001") {
  const res = await m.call("POST", `/sandbox/v1/virtual-accounts/${account}/transfers`, {
    body: { amount, narration, payer_name: "BELLO HALIMA", payer_bank: "Zenith Bank" },
  });
  expect(res.status).toBe(201);
  return res.body.data as { transaction_id: string };
}

describe("payment.received", () => {
  it("is POSTed as the spec's payload, signed over the raw body, and logged", async () => {
    const r = await receiver();
    const h = harness();
    const m = await h.merchant({ webhook_url: r.url });
    const account = await virtualAccount(m);
    const payment = await transferIn(m, account);
    await flush(m);
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
      sent_at: iso(START),
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

    const events = (await m.call("GET", "/sandbox/v1/events")).body.data;
    expect(events).toEqual([
      expect.objectContaining({ type: "payment.received", transaction_id: payment.transaction_id, status: "delivered", attempts: 1, next_attempt_at: null }),
    ]);
    const deliveries = (await m.call("GET", "/sandbox/v1/webhook-deliveries")).body.data;
    expect(deliveries).toEqual([
      {
        id: expect.stringMatching(/^DLV_/),
        event_id: events[0].id,
        event_type: "payment.received",
        trigger: "initial",
        url: r.url,
        sent_at: iso(START),
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
    const m = await harness().merchant();
    const account = await virtualAccount(m);
    await transferIn(m, account);
    await flush(m);
    const [event] = (await m.call("GET", "/sandbox/v1/events")).body.data;
    expect(event).toMatchObject({ type: "payment.received", status: "no_url", attempts: 0 });
    expect((await m.call("GET", "/sandbox/v1/webhook-deliveries")).body.data).toEqual([]);
    expectError(await m.call("POST", `/sandbox/v1/events/${event.id}/redeliver`), 409, "INVALID_STATE");
    await m.call("PATCH", "/sandbox/v1/merchant", { body: { webhook_url: r.url } });
    const redelivered = await m.call("POST", `/sandbox/v1/events/${event.id}/redeliver`);
    expect(redelivered.body.data).toMatchObject({ trigger: "redeliver", status_code: 200, outcome: "delivered" });
    expect(r.received).toHaveLength(1);
    expect((await m.call("GET", "/sandbox/v1/events")).body.data[0].status).toBe("delivered");
  });

  it("filters events by type and since", async () => {
    const m = await harness().merchant();
    const account = await virtualAccount(m);
    await transferIn(m, account, 100, "first");
    await advance(m, 60);
    await transferIn(m, account, 200, "second");
    const link = await m.call("POST", "/api/v1/checkout/create", { body: { amount: 1_000 } });
    await m.call("POST", `/sandbox/v1/checkout/${link.body.reference}/pay`);
    const all = (await m.call("GET", "/sandbox/v1/events")).body.data;
    expect(all.map((e: { type: string }) => e.type)).toEqual(["payment.received", "payment.received", "checkout.completed"]);
    const since = (await m.call("GET", `/sandbox/v1/events?since=${encodeURIComponent(iso(START + 60_000))}`)).body.data;
    expect(since.map((e: { data: { amount: number } }) => e.data.amount)).toEqual([200, 1_000]);
    const links = (await m.call("GET", "/sandbox/v1/events?type=checkout.completed")).body.data;
    expect(links).toHaveLength(1);
    expectError(await m.call("GET", "/sandbox/v1/events?type=nope"), 422, "VALIDATION_ERROR");
  });
});

describe("link and payout events", () => {
  it("checkout.completed carries the link, its reference and transaction_id", async () => {
    const r = await receiver();
    const m = await harness().merchant({ webhook_url: r.url });
    const link = await m.call("POST", "/api/v1/checkout/create", { body: { amount: 2_500, description: "Jollof x2", customer_email: "ada@example.com" } });
    await advance(m, 600);
    await m.call("POST", `/sandbox/v1/checkout/${link.body.reference}/pay`);
    await flush(m);
    expect(r.received.map((x) => x.body)).toEqual([
      {
        event: "checkout.completed",
        nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
        sent_at: iso(START + 600_000),
        data: {
          reference: link.body.reference,
          amount: 2_500,
          currency: "NGN",
          description: "Jollof x2",
          customer_email: "ada@example.com",
          customer_name: null,
          account_number: expect.stringMatching(/^\d{10}$/),
          paid_at: iso(START + 600_000),
          transaction_id: link.body.order_no,
          order_no: link.body.order_no,
          status: "successful",
        },
      },
    ]);
  });

  it("payout.completed and payout.failed carry the payout record and its order_no", async () => {
    const r = await receiver();
    const m = await harness().merchant({ webhook_url: r.url });
    const body = { amount: 5_000, bank_code: "058", account_name: "EZE NGOZI", bank_name: "GTBank" };
    const ok = await m.call("POST", "/api/v1/payout/transfer", { body: { ...body, reference: "ok", account_number: makeNuban("058", "100200300") } });
    const bad = await m.call("POST", "/api/v1/payout/transfer", { body: { ...body, reference: "bad", account_number: "0123450001" } });
    await advance(m, 30);
    const byType = Object.fromEntries(r.received.map((x) => [x.body.event, x.body]));
    expect(Object.keys(byType).sort()).toEqual(["payout.completed", "payout.failed"]);
    expect(byType["payout.completed"].data).toEqual({
      reference: "ok",
      amount: 5_000,
      fee: 50,
      total_deducted: 5_050,
      net_amount: 5_000,
      currency: "NGN",
      account: `****${makeNuban("058", "100200300").slice(-4)}`,
      account_name: "EZE NGOZI",
      bank_name: "GTBank",
      narration: null,
      created_at: iso(START),
      processed_at: iso(START + 30_000),
      error: null,
      transaction_id: ok.body.data.order_no,
      order_no: ok.body.data.order_no,
      status: "completed",
    });
    expect(byType["payout.failed"].data).toMatchObject({
      reference: "bad",
      status: "failed",
      error: "Transfer failed at the beneficiary bank",
      transaction_id: bad.body.data.order_no,
    });
    expect(byType["payout.failed"].sent_at).toBe(iso(START + 30_000));
  });
});

describe("retries", () => {
  it("follow the schedule on the merchant's clock, then the event is failed", async () => {
    const r = await receiver(() => ({ status: 503, body: "down for maintenance" }));
    const m = await harness().merchant({ webhook_url: r.url });
    const account = await virtualAccount(m);
    await transferIn(m, account);
    await flush(m);
    expect(r.received).toHaveLength(1);
    const schedule = [60, 300, 1_800, 7_200, 21_600, 86_400];
    let at = START;
    for (const wait of schedule) {
      await advance(m, wait - 1);
      const before = r.received.length;
      await advance(m, 1);
      expect(r.received.length).toBe(before + 1);
      at += wait * 1000;
      expect(r.received.at(-1)!.body.sent_at).toBe(iso(at));
    }
    await advance(m, 7 * 86_400);
    expect(r.received).toHaveLength(7);
    const deliveries = (await m.call("GET", "/sandbox/v1/webhook-deliveries")).body.data;
    expect(deliveries.map((d: { next_retry_at: string | null }) => d.next_retry_at)).toEqual([
      iso(START + 60_000),
      iso(START + 360_000),
      iso(START + 2_160_000),
      iso(START + 9_360_000),
      iso(START + 30_960_000),
      iso(START + 117_360_000),
      null,
    ]);
    expect(deliveries.every((d: { status_code: number; response_excerpt: string; outcome: string }) =>
      d.status_code === 503 && d.response_excerpt === "down for maintenance" && d.outcome === "failed")).toBe(true);
    const [event] = (await m.call("GET", "/sandbox/v1/events")).body.data;
    expect(event).toMatchObject({ status: "failed", attempts: 7, next_attempt_at: null });
  });

  it("a receiver that fails 3 times then succeeds gets 4 attempts: distinct nonces, one transaction_id", async () => {
    const r = await receiver((n) => ({ status: n < 3 ? 500 : 200 }));
    const m = await harness().merchant({ webhook_url: r.url });
    const account = await virtualAccount(m);
    const payment = await transferIn(m, account);
    await advance(m, 86_400);
    expect(r.received).toHaveLength(4);
    const nonces = new Set(r.received.map((x) => x.body.nonce));
    expect(nonces.size).toBe(4);
    expect(new Set(r.received.map((x) => x.body.data.transaction_id))).toEqual(new Set([payment.transaction_id]));
    expect(r.received.map((x) => x.body.sent_at)).toEqual([iso(START), iso(START + 60_000), iso(START + 360_000), iso(START + 2_160_000)]);
    expect(r.received.every((x) => verifyWebhookSignature(x.raw, x.headers["x-webhook-signature"] as string, m.webhookSecret))).toBe(true);
    const [event] = (await m.call("GET", "/sandbox/v1/events")).body.data;
    expect(event).toMatchObject({ status: "delivered", attempts: 4 });
    expect((await m.call("GET", "/sandbox/v1/clock")).body.data.pending_timers).toBe(0);
  });

  it("a refused connection and a timeout are failed attempts with the error logged", async () => {
    const closed = await startReceiver();
    const deadUrl = closed.url;
    await closed.close();
    let release!: () => void;
    const slow = await receiver(() => ({ hold: new Promise<void>((resolve) => (release = resolve)) }));
    const h = harness();
    const refused = await h.merchant({ webhook_url: deadUrl, webhook: { retry_schedule_seconds: [] } });
    const timeout = await h.merchant({ webhook_url: slow.url, webhook: { timeout_seconds: 0.2, retry_schedule_seconds: [] } });
    await transferIn(refused, await virtualAccount(refused));
    await transferIn(timeout, await virtualAccount(timeout));
    await flush(refused);
    await flush(timeout);
    release();
    const [a] = (await refused.call("GET", "/sandbox/v1/webhook-deliveries")).body.data;
    const [b] = (await timeout.call("GET", "/sandbox/v1/webhook-deliveries")).body.data;
    expect(a).toMatchObject({ status_code: null, outcome: "failed", error: expect.stringContaining("ECONNREFUSED") });
    expect(b).toMatchObject({ status_code: null, outcome: "failed", error: "Timed out after 0.2 s" });
    expect((await refused.call("GET", "/sandbox/v1/events")).body.data[0].status).toBe("failed");
  });
});

describe("redelivery", () => {
  it("sends the event again now with a new nonce and sent_at and the same transaction_id", async () => {
    const r = await receiver();
    const m = await harness().merchant({ webhook_url: r.url });
    const account = await virtualAccount(m);
    const payment = await transferIn(m, account);
    await flush(m);
    await advance(m, 3_600);
    const [event] = (await m.call("GET", "/sandbox/v1/events")).body.data;
    const res = await m.call("POST", `/sandbox/v1/events/${event.id}/redeliver`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ event_id: event.id, trigger: "redeliver", status_code: 200, sent_at: iso(START + 3_600_000) });
    expect(r.received).toHaveLength(2);
    expect(r.received[1]!.body.nonce).not.toBe(r.received[0]!.body.nonce);
    expect(r.received[1]!.body.data.transaction_id).toBe(payment.transaction_id);
    expect(r.received[1]!.body.sent_at).toBe(iso(START + 3_600_000));
    expectError(await m.call("POST", "/sandbox/v1/events/EVT_NOPE/redeliver"), 404, "NOT_FOUND");
  });

  it("a successful redelivery of a failing event stops its retries", async () => {
    const r = await receiver((n) => ({ status: n === 0 ? 500 : 200 }));
    const m = await harness().merchant({ webhook_url: r.url });
    await transferIn(m, await virtualAccount(m));
    await flush(m);
    const [event] = (await m.call("GET", "/sandbox/v1/events")).body.data;
    expect(event).toMatchObject({ status: "pending", next_attempt_at: iso(START + 60_000) });
    await m.call("POST", `/sandbox/v1/events/${event.id}/redeliver`);
    await advance(m, 86_400);
    expect(r.received).toHaveLength(2);
    expect((await m.call("GET", "/sandbox/v1/events")).body.data[0]).toMatchObject({ status: "delivered", next_attempt_at: null });
  });
});

describe("webhooks never hold up the API", () => {
  it("a receiver that has not answered yet does not delay the response that emitted the event", async () => {
    let release!: () => void;
    const r = await receiver(() => ({ hold: new Promise<void>((resolve) => (release = resolve)) }));
    const m = await harness().merchant({ webhook_url: r.url });
    const account = await virtualAccount(m);
    const pending = transferIn(m, account);
    await r.waitFor(1); // the receiver holds the request open...
    const payment = await pending; // ...and the API has answered anyway
    expect(payment.transaction_id).toMatch(/^TXN_/);
    const [event] = (await m.call("GET", "/sandbox/v1/events")).body.data;
    expect(event).toMatchObject({ status: "pending", attempts: 0 });
    release();
    await flush(m);
    expect((await m.call("GET", "/sandbox/v1/events")).body.data[0]).toMatchObject({ status: "delivered", attempts: 1 });
  });
});
