/**
 * What the OpenAPI document says about the event log, the delivery log, redelivery and incidents:
 * descriptions and examples (real bodies; see control-docs.ts for the contract they keep).
 */
import { MAX_DELIVERIES } from "../domain/bounds.js";
import { thousands } from "../domain/money.js";
import { errorExample, type Examples } from "../http/openapi.js";
import { AT, DEMO } from "../http/demo-examples.js";

const PAYMENT_DATA = {
  reference: "Order 1001",
  amount: 5000,
  currency: "NGN",
  virtual_account: DEMO.virtualAccount,
  payer_name: "OKAFOR CHINEDU EMMANUEL",
  payer_bank: "Guaranty Trust Bank",
  transaction_id: "TXN_1TFI4AI7WX9S54YS",
  status: "successful",
};

const delivery = (id: string, trigger: string, nonce: string, signature: string) => ({
  id,
  event_id: DEMO.event,
  event_type: "payment.received",
  trigger,
  nonce,
  request_headers: {
    "content-type": "application/json",
    "user-agent": "merchant-sandbox-webhooks/1.0",
    "x-webhook-signature": signature,
  },
  request_body: JSON.stringify({ event: "payment.received", nonce, sent_at: AT, data: PAYMENT_DATA }),
  status_code: 200,
  error: null,
  latency_ms: 0,
  response_excerpt: "captured by the sandbox (no webhook_url set)",
  fault: null,
  next_retry_at: null,
  url: "sandbox:webhook-capture",
  sent_at: AT,
  outcome: "delivered",
});

// ---- GET /sandbox/v1/events ----------------------------------------------------------------------

export const EVENTS_DESCRIPTION = `
The calling merchant's events, oldest first. Every event is stored here first, even when no \`webhook_url\` is
set, then delivered. Use it to check that a flow produced the event it should, whatever your receiver did.

- \`type\`: \`payment.received\` (a transfer into a virtual account), \`checkout.completed\` (a payment link paid),
  \`payout.completed\`, \`payout.failed\` (a payout failed or rejected), \`webhook.test\` (sent on request by
  POST /sandbox/v1/webhooks/test; no money moved).
- \`transaction_id\`: the same on every delivery of the event: the key to detect duplicates. \`data\`: the
  payload's \`data\`, exactly as delivered.
- \`status\`: \`pending\` (an attempt under way, or a retry due at \`next_attempt_at\`), \`delivered\` (a 2xx answer),
  \`failed\` (the last retry of \`webhook.retry_schedule_seconds\` failed too), \`no_url\` (no \`webhook_url\` and no
  \`webhook_capture\`: nothing was sent; redeliver it once a URL is set), \`held\` (an \`out_of_order\` fault holds it
  until another event has been delivered).
- \`attempts\`: how many deliveries were made. \`error\`: why the sandbox itself could not deliver it (not the
  receiver's answer), else null.

Query: \`type\` (one of the five; another value gets 422), \`since\` (ISO 8601 with an offset: only events created at
or after it, on the merchant's clock; another format gets 422).`.trim();

export const EVENTS_TYPE_EXAMPLES: Examples = {
  paymentReceived: { summary: "Only payment.received events", value: "payment.received" },
  noneYet: { summary: "A type the demo merchant has no event of yet", value: "payout.completed" },
};

export const EVENTS_SINCE_EXAMPLES: Examples = {
  sinceMorning: { summary: "Events created since the morning of 2 March 2026", value: "2026-03-02T00:00:00Z" },
};

const demoEvents = {
  success: true,
  data: [
    {
      id: DEMO.event,
      type: "payment.received",
      transaction_id: "TXN_1TFI4AI7WX9S54YS",
      status: "delivered",
      attempts: 1,
      next_attempt_at: null,
      error: null,
      created_at: AT,
      data: PAYMENT_DATA,
    },
  ],
};

export const EVENTS_RESPONSE_EXAMPLES: Examples = {
  paymentReceived: { summary: "The demo's payment.received, delivered to the built-in receiver", value: demoEvents },
  sinceMorning: { summary: "Every event of the demo merchant created since then", value: demoEvents },
  noneYet: { summary: "No event of this type", value: { success: true, data: [] } },
};

export const EVENTS_ERRORS = {
  422: {
    unknownType: errorExample("Not one of the event types", "VALIDATION_ERROR", "The given data was invalid.", {
      errors: { type: ['Invalid option: expected one of "payment.received"|"checkout.completed"|"payout.completed"|"payout.failed"'] },
    }),
    invalidSince: errorExample("since is not an ISO 8601 time", "VALIDATION_ERROR", "The given data was invalid.", { errors: { since: ["Invalid ISO datetime"] } }),
  },
};

// ---- GET /sandbox/v1/webhook-deliveries ----------------------------------------------------------

export const DELIVERIES_DESCRIPTION = `
Every delivery attempt of the calling merchant's webhooks, oldest first (the newest ${thousands(MAX_DELIVERIES)} are kept, fewer when
the sandbox-wide log budget, \`--log-budget-mb\`, takes the oldest of the largest logs): what was sent, what came back,
and what happens next. Use it to debug a receiver, or to check a retry or fault test.

- \`trigger\`: \`initial\` (the first attempt), \`retry\`, \`redeliver\` (POST /sandbox/v1/events/{id}/redeliver),
  \`duplicate\` (a \`duplicate\` fault's second delivery), \`released\` (an event held by \`out_of_order\`, sent after
  another).
- \`url\`: where it went (\`sandbox:webhook-capture\` when the built-in receiver answered, with no \`webhook_url\` set).
  \`sent_at\`: the merchant's time. \`nonce\`: new for every delivery.
- \`request_headers\` (with \`x-webhook-signature\`) and \`request_body\`: the exact raw bytes that were signed, to
  check a signature verifier against.
- \`status_code\` (the receiver's answer) or \`error\` (a timeout, a refused connection, a \`drop\` fault);
  \`latency_ms\` (wall clock); \`response_excerpt\` (the answer's first 500 characters).
- \`outcome\`: \`delivered\` (2xx), \`failed\`, \`deferred\` (a \`delay\` fault: the real attempt follows), \`held\`.
  \`fault\`: the injected fault, if any. \`next_retry_at\`: when the failed attempt is retried, else null.

Query: \`event_id\` (optional) keeps one event's attempts; an id without deliveries gives an empty list.`.trim();

export const DELIVERIES_RESPONSE_EXAMPLES: Examples = {
  deliveries: {
    summary: "The first delivery of the demo's payment.received",
    value: {
      success: true,
      data: [delivery("DLV_4SFAJMJXPP2INF8B", "initial", "2ff4fd3185f655010087054ee5706522", "1c2fbd72ca27bba63798be4a13000500110590cd56b6e4042a1b2f4a45e81a71")],
    },
  },
};

// ---- POST /sandbox/v1/events/{id}/redeliver ------------------------------------------------------

export const REDELIVER_DESCRIPTION = `
Sends an event again now, outside its retry schedule, whatever its status (\`delivered\`, \`failed\`, \`no_url\`...):
a new delivery with a new \`nonce\` and \`sent_at\` (the merchant's current time), the same \`data\` and
\`transaction_id\`, signed with the merchant's current webhook secret and settings, to its current \`webhook_url\`
(or the built-in receiver). The response waits for the attempt and returns it (\`trigger: "redeliver"\`).

- A 2xx answer marks the event \`delivered\` and cancels its pending retries. A failed redelivery schedules no
  retry and leaves the event's status as it was.
- Faults (\`webhook\` outcome rules) never apply to redeliveries.
- No \`webhook_url\` and no \`webhook_capture\`: 409 \`INVALID_STATE\` (set one with PATCH /sandbox/v1/merchant).
  An unknown event id: 404 \`NOT_FOUND\`.

Use it to resend an event once a receiver is fixed, or to test that the receiver ignores a \`transaction_id\` it
has already processed. Demo merchant: \`${DEMO.event}\` (\`payment.received\`).`.trim();

export const REDELIVER_PARAM_EXAMPLES: Examples = {
  redeliver: { summary: "The demo's payment.received event", value: DEMO.event },
  notFound: { summary: "No event with this id", value: "EVT_0000000000000000" },
};

export const REDELIVER_RESPONSE_EXAMPLES: Examples = {
  redeliver: {
    summary: "The new delivery, answered 200 by the built-in receiver",
    value: {
      success: true,
      data: delivery("DLV_32WJPO77L0TUWTZ5", "redeliver", "b6516a2cab090e53e84477d9995e1309", "04c08e9657db80ad81cb013318e29eac9082c97c55524437f3319aa3a1162f62"),
    },
  },
};

export const REDELIVER_ERRORS = {
  404: { notFound: errorExample("No event with this id", "NOT_FOUND", "No event EVT_0000000000000000.") },
  409: {
    noUrl: errorExample(
      "The merchant has no webhook_url and no webhook_capture",
      "INVALID_STATE",
      "No webhook_url is set for this merchant; set one (or webhook_capture) with PATCH /sandbox/v1/merchant.",
    ),
  },
};

// ---- GET /sandbox/v1/incidents -------------------------------------------------------------------

export const INCIDENTS_DESCRIPTION = `
Background work that the sandbox itself could not carry out for the calling merchant (a timer, a webhook attempt),
oldest first; the newest 100 are kept. Each is \`{ at, where, error }\`, for instance
\`{ "at": "2026-03-02T09:05:00.000Z", "where": "webhook payout.completed EVT_...", "error": "..." }\`. The rest of the
merchant's work goes on, and an event that could not be attempted is marked \`failed\` with the \`error\`.

A receiver that answers an error or times out is not an incident (see GET /sandbox/v1/webhook-deliveries): an
incident is a fault of the sandbox's own, worth reporting. An empty list is the normal case.`.trim();

export const INCIDENTS_RESPONSE_EXAMPLES: Examples = {
  incidents: { summary: "No incident (the normal case)", value: { success: true, data: [] } },
};
