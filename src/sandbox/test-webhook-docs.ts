/**
 * What the OpenAPI document says about POST /sandbox/v1/webhooks/test: its description and examples
 * (real bodies; see control-docs.ts for the contract they keep). The demo merchant has no webhook_url,
 * so its example is a delivery to its built-in capture.
 */
import { TEST_EVENT_MESSAGE } from "../domain/events.js";
import { AT } from "../http/demo-examples.js";
import { errorExample, type Examples } from "../http/openapi.js";

/** Test events a merchant may send per rolling minute of wall-clock time. */
export const TEST_EVENTS_PER_MINUTE = 10;

export const TEST_DESCRIPTION = `
Sends one signed \`webhook.test\` event to the calling merchant's \`webhook_url\` now, through the same path as real
events: signed with the merchant's \`webhook_secret\` and signature settings, listed by GET /sandbox/v1/events and
logged in GET /sandbox/v1/webhook-deliveries (\`trigger: "test"\`). The response waits for the attempt and returns the
delivery: \`status_code\` (null when the receiver could not be reached, with \`error\`), \`latency_ms\`,
\`response_excerpt\` (the answer's first characters) and the exact \`request_headers\` and \`request_body\` sent.

- The payload names no amount, account or payer: \`{ "event": "webhook.test", "nonce", "sent_at", "data": {
  "transaction_id": "TEST_...", "status": "test", "message" } }\`. No money moved: a receiver answers 2xx and credits
  nothing.
- One attempt, never retried, and no \`webhook\` outcome rule (fault) applies. A non-2xx answer still gets 200 here:
  the delivery's \`outcome\` is \`failed\` and the event's status \`failed\`.
- No \`webhook_url\` and no \`webhook_capture\`: 409 \`INVALID_STATE\`. With only \`webhook_capture\`, the built-in
  receiver answers (as the demo merchant's does).
- At most ${TEST_EVENTS_PER_MINUTE} per rolling minute per merchant (429 \`QUOTA_EXCEEDED\` with \`retry_after\`). In shared
  mode a URL resolving to a loopback or private address is refused at delivery, as for every event.`.trim();

const NONCE = "7c1e9a3f5b2d4086e8f0a2c4b6d8e0f2";

export const TEST_RESPONSE_EXAMPLES: Examples = {
  sendTest: {
    summary: "The test delivery, answered 200 by the built-in receiver",
    value: {
      success: true,
      data: {
        id: "DLV_5N1Q7T3W9Z2C8F4J",
        event_id: "EVT_6P2R8U4X0A3D9G5K",
        event_type: "webhook.test",
        trigger: "test",
        url: "sandbox:webhook-capture",
        sent_at: AT,
        nonce: NONCE,
        request_headers: {
          "content-type": "application/json",
          "user-agent": "merchant-sandbox-webhooks/1.0",
          "x-webhook-signature": "9a4e1c7b3f5d2e8a0c6b4d2f8e1a7c3b5d9f0e2a4c6b8d1f3e5a7c9b0d2f4e6a",
        },
        request_body: JSON.stringify({
          event: "webhook.test",
          nonce: NONCE,
          sent_at: AT,
          data: { transaction_id: "TEST_8K2M6P0R4T8W2Y6A", status: "test", message: TEST_EVENT_MESSAGE },
        }),
        status_code: 200,
        error: null,
        latency_ms: 0,
        response_excerpt: "captured by the sandbox (no webhook_url set)",
        outcome: "delivered",
        fault: null,
        next_retry_at: null,
      },
    },
  },
};

export const TEST_ERRORS = {
  409: {
    noUrl: errorExample(
      "The merchant has no webhook_url and no webhook_capture",
      "INVALID_STATE",
      "No webhook_url is set for this merchant; set one (or webhook_capture) with PATCH /sandbox/v1/merchant.",
    ),
  },
};

/** The control API has no 429 of its own (controlErrors drops it); this route's quota is the exception. */
export const TEST_QUOTA_ERRORS = {
  429: {
    quotaExceeded: errorExample(
      `More than ${TEST_EVENTS_PER_MINUTE} test events in a rolling minute`,
      "QUOTA_EXCEEDED",
      `At most ${TEST_EVENTS_PER_MINUTE} test events per minute for one merchant; retry in 41 s.`,
      { retry_after: 41 },
    ),
  },
};
