/**
 * POST /sandbox/v1/webhooks/test: one signed `webhook.test` event, delivered now through the same path
 * as real events (listed, logged, signed with the merchant's settings), never retried, no faults;
 * 409 without anywhere to deliver; a quota per merchant on the wall clock.
 */
import { describe, expect, it } from "vitest";
import { createRuntime, type Runtime } from "../../src/runtime.js";
import { TEST_EVENTS_PER_MINUTE } from "../../src/sandbox/webhooks/test-quota.js";
import { verifyWebhookSignature } from "../../src/webhooks/sign.js";
import { closedAfterEach, expectError, harness, receivers, type Merchant } from "../helpers.js";

const receiver = receivers();
const runtimes = closedAfterEach((runtime: Runtime) => runtime.stop());
const sendTest = (m: Merchant) => m.call("POST", "/sandbox/v1/webhooks/test");

describe("a test event", () => {
  it("reaches the merchant's receiver signed with its secret, and comes back as the delivery, listed and logged", async () => {
    const h = harness();
    const r = await receiver(() => ({ status: 204 }));
    const m = await h.merchant({ webhook_url: r.url });

    const res = await sendTest(m);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(r.received).toHaveLength(1);
    const [got] = r.received;
    expect(verifyWebhookSignature(got!.raw, got!.headers["x-webhook-signature"] as string, m.webhookSecret)).toBe(true);
    expect(got!.body).toMatchObject({ event: "webhook.test", data: { status: "test" } });
    expect(got!.body.data.transaction_id).toMatch(/^TEST_[0-9A-Z]{16}$/);
    // Nothing a careless receiver could credit.
    expect(Object.keys(got!.body.data).sort()).toEqual(["message", "status", "transaction_id"]);

    expect(res.body.data).toMatchObject({ event_type: "webhook.test", trigger: "test", url: r.url, status_code: 204, outcome: "delivered", fault: null, next_retry_at: null });
    expect(res.body.data.request_body).toBe(got!.raw.toString());
    const events = (await m.call("GET", "/sandbox/v1/events?type=webhook.test")).body.data;
    expect(events).toMatchObject([{ id: res.body.data.event_id, status: "delivered", attempts: 1 }]);
    expect((await m.call("GET", "/sandbox/v1/webhook-deliveries")).body.data).toEqual([res.body.data]);
    // No money moved.
    expect((await m.call("GET", "/sandbox/v1/snapshot")).body.data.state.ledger.length).toBe(1);
  });

  it("answered 500 is a failed delivery (still 200 here) with the receiver's answer, and is never retried", async () => {
    const h = harness();
    const r = await receiver(() => ({ status: 500, body: "receiver exploded" }));
    const m = await h.merchant({ webhook_url: r.url });

    const res = await sendTest(m);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status_code: 500, outcome: "failed", response_excerpt: "receiver exploded", next_retry_at: null });
    expect((await m.call("POST", "/sandbox/v1/clock/advance", { body: { by: "2d" } })).status).toBe(200);
    expect(r.received).toHaveLength(1);
    expect((await m.call("GET", "/sandbox/v1/events")).body.data).toMatchObject([{ type: "webhook.test", status: "failed", next_attempt_at: null }]);
  });

  it("ignores webhook faults: a drop rule neither drops it nor is used up", async () => {
    const h = harness();
    const r = await receiver();
    const m = await h.merchant({ webhook_url: r.url });
    expect((await m.call("POST", "/sandbox/v1/outcomes", { body: { target: "webhook", outcome: "drop", times: 1 } })).status).toBe(201);
    expect((await sendTest(m)).body.data).toMatchObject({ status_code: 200, fault: null });
    expect((await m.call("GET", "/sandbox/v1/outcomes")).body.data).toHaveLength(1);
  });

  it("without a webhook_url or capture is refused with 409 INVALID_STATE, and nothing is recorded", async () => {
    const h = harness();
    const m = await h.merchant();
    const body = expectError(await sendTest(m), 409, "INVALID_STATE");
    expect(body.message).toBe("No webhook_url is set for this merchant; set one (or webhook_capture) with PATCH /sandbox/v1/merchant.");
    expect((await m.call("GET", "/sandbox/v1/events")).body.data).toEqual([]);
  });

  it("with only the built-in capture, the capture answers", async () => {
    const m = await harness().merchant({ webhook_capture: {} });
    expect((await sendTest(m)).body.data).toMatchObject({ url: "sandbox:webhook-capture", status_code: 200, outcome: "delivered" });
  });

  it(`at most ${TEST_EVENTS_PER_MINUTE} per rolling minute of wall-clock time for one merchant (429 with retry_after); others are not held up`, async () => {
    const h = harness();
    const m = await h.merchant({ webhook_capture: {} });
    for (let i = 0; i < TEST_EVENTS_PER_MINUTE; i++) {
      expect((await sendTest(m)).status).toBe(200);
      h.wall.now += 1_000;
    }
    const body = expectError(await sendTest(m), 429, "QUOTA_EXCEEDED");
    expect(body.retry_after).toBe(60 - TEST_EVENTS_PER_MINUTE);
    expect((await m.call("GET", "/sandbox/v1/events")).body.data).toHaveLength(TEST_EVENTS_PER_MINUTE);
    expect((await sendTest(await h.merchant({ webhook_capture: {} }))).status).toBe(200);
    h.wall.now += (60 - TEST_EVENTS_PER_MINUTE) * 1_000;
    expect((await sendTest(m)).status).toBe(200);
  });

  it("in shared mode goes nowhere private, even to a URL a merchant still holds: the delivery says why", async () => {
    const r = await receiver();
    const m = await harness({ runtime: runtimes(createRuntime({ shared: true })), shared: true }).merchant({ webhook_capture: {} });
    m.tenant.config.webhook_url = r.url; // as a --data file written before shared mode was turned on has it
    const res = await sendTest(m);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status_code: null, outcome: "failed", error: "Refused: 127.0.0.1 is a private or loopback address (shared mode refuses these webhook targets)" });
    expect(r.received).toHaveLength(0);
  });
});
