/**
 * The webhooks' contract in the control API: the event log, the delivery log, redelivery, incidents and
 * the test event. The examples are the demo merchant's real bodies (it has no webhook_url, so its built-in
 * capture answers); sizes, quotas and magic values are read from the rules that enforce them.
 */
import { inWords } from "../../domain/prose.js";
import { z } from "@hono/zod-openapi";
import { MAX_DELIVERIES, MAX_INCIDENTS } from "../../domain/bounds.js";
import { EVENT_TYPES, TEST_EVENT_MESSAGE } from "../../domain/events.js";
import { isoTime } from "../../domain/fields.js";
import { thousands } from "../../domain/money.js";
import { DeliveryTriggers } from "../../domain/records.js";
import { CAPTURE_URL, CAPTURED } from "../../domain/webhook-policy.js";
import { AT, DEMO, DEMO_PAYMENT_RECEIVED, demoNextId } from "../../http/demo-examples.js";
import { errorExample, errors, example, examples, json } from "../../http/openapi.js";
import { routes, Success } from "../../http/route.js";
import { USER_AGENT } from "../../webhooks/dispatcher.js";
import { EXCERPT_CHARS } from "../../webhooks/transport.js";
import { controlErrors } from "../errors.js";
import { TEST_EVENTS_PER_MINUTE, testQuotaMessage } from "./test-quota.js";

const route = routes({ tags: ["Sandbox"] });

const Event = z
  .object({
    id: z.string(),
    type: z.string(),
    transaction_id: z.string(),
    status: z.enum(["pending", "delivered", "failed", "no_url", "held"]),
    attempts: z.number().int(),
    next_attempt_at: isoTime.nullable(),
    error: z.string().nullable().openapi({ description: "Why the sandbox itself could not deliver it (not the receiver's answer), else null" }),
    created_at: isoTime,
    data: z.record(z.string(), z.unknown()),
  })
  .openapi("WebhookEvent");

const Delivery = z
  .object({
    id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    trigger: z.enum(DeliveryTriggers),
    url: z.string(),
    sent_at: isoTime,
    nonce: z.string().nullable(),
    request_headers: z.record(z.string(), z.string()),
    request_body: z.string().nullable(),
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    latency_ms: z.number().nullable(),
    response_excerpt: z.string().nullable(),
    outcome: z.enum(["delivered", "failed", "deferred", "held"]),
    fault: z.string().nullable(),
    next_retry_at: isoTime.nullable(),
  })
  .openapi("WebhookDelivery");

const Incident = z
  .object({ at: z.string(), where: z.string(), error: z.string() })
  .openapi("Incident", { description: "Background work (a timer, a webhook attempt) that the sandbox itself could not carry out" });

/** Small counts, spelled as the text reads them. */

// ---- Example pieces: the demo's payment.received and its deliveries to the built-in capture ----

/** A delivery answered 200 by the built-in capture, as the delivery log shows it. */
const captured = (fields: { id: string; event_id: string; event_type: string; trigger: string; nonce: string; signature: string; data: object }) => ({
  id: fields.id,
  event_id: fields.event_id,
  event_type: fields.event_type,
  trigger: fields.trigger,
  url: CAPTURE_URL,
  sent_at: AT,
  nonce: fields.nonce,
  request_headers: { "content-type": "application/json", "user-agent": USER_AGENT, "x-webhook-signature": fields.signature },
  request_body: JSON.stringify({ event: fields.event_type, nonce: fields.nonce, sent_at: AT, data: fields.data }),
  ...CAPTURED,
  outcome: "delivered",
  fault: null,
  next_retry_at: null,
});

/** A delivery of the demo's payment.received. */
const paymentDelivery = (id: string, trigger: string, nonce: string, signature: string) =>
  captured({ id, event_id: DEMO.event, event_type: "payment.received", trigger, nonce, signature, data: DEMO_PAYMENT_RECEIVED });

const NO_URL = {
  noUrl: errorExample(
    "The merchant has no webhook_url and no webhook_capture",
    "INVALID_STATE",
    "No webhook_url is set for this merchant; set one (or webhook_capture) with PATCH /sandbox/v1/merchant.",
  ),
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
      data: DEMO_PAYMENT_RECEIVED,
    },
  ],
};

export const listEvents = route({
  method: "get",
  path: "/events",
  operationId: "listEvents",
  summary: "The merchant's events, oldest first (stored even when no webhook URL is set)",
  description: `
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

Query: \`type\` (one of the ${inWords(EVENT_TYPES.length)}; another value gets 422), \`since\` (ISO 8601 with an offset: only events created at
or after it, on the merchant's clock; another format gets 422).`.trim(),
  request: {
    query: z.object({
      type: examples(z.enum(EVENT_TYPES).optional(), {
        paymentReceived: { summary: "Only payment.received events", value: "payment.received" },
        noneYet: { summary: "A type the demo merchant has no event of yet", value: "payout.completed" },
      }),
      since: examples(z.iso.datetime({ offset: true }).optional(), {
        sinceMorning: { summary: "Events created since the morning of 2 March 2026", value: "2026-03-02T00:00:00Z" },
      }).openapi({ description: "Only events created at or after this time" }),
    }),
  },
  responses: {
    200: json(Success({ data: z.array(Event) }), "Events", {
      paymentReceived: { summary: "The demo's payment.received, delivered to the built-in receiver", value: demoEvents },
      sinceMorning: { summary: "Every event of the demo merchant created since then", value: demoEvents },
      noneYet: { summary: "No event of this type", value: { success: true, data: [] } },
    }),
    ...controlErrors({
      422: {
        unknownType: errorExample("Not one of the event types", "VALIDATION_ERROR", "The given data was invalid.", {
          errors: { type: [`Invalid option: expected one of ${EVENT_TYPES.map((t) => `"${t}"`).join("|")}`] },
        }),
        invalidSince: errorExample("since is not an ISO 8601 time", "VALIDATION_ERROR", "The given data was invalid.", { errors: { since: ["Invalid ISO datetime"] } }),
      },
    }),
  },
});

export const listDeliveries = route({
  method: "get",
  path: "/webhook-deliveries",
  operationId: "listWebhookDeliveries",
  summary: "Every delivery attempt, oldest first, with request, response and next retry",
  description: `
Every delivery attempt of the calling merchant's webhooks, oldest first (the newest ${thousands(MAX_DELIVERIES)} are kept, fewer when
the sandbox-wide log budget, \`--log-budget-mb\`, takes the oldest of the largest logs): what was sent, what came back,
and what happens next. Use it to debug a receiver, or to check a retry or fault test.

- \`trigger\`: \`initial\` (the first attempt), \`retry\`, \`redeliver\` (POST /sandbox/v1/events/{id}/redeliver),
  \`duplicate\` (a \`duplicate\` fault's second delivery), \`released\` (an event held by \`out_of_order\`, sent after
  another).
- \`url\`: where it went (\`${CAPTURE_URL}\` when the built-in receiver answered, with no \`webhook_url\` set).
  \`sent_at\`: the merchant's time. \`nonce\`: new for every delivery.
- \`request_headers\` (with \`x-webhook-signature\`) and \`request_body\`: the exact raw bytes that were signed, to
  check a signature verifier against.
- \`status_code\` (the receiver's answer) or \`error\` (a timeout, a refused connection, a \`drop\` fault);
  \`latency_ms\` (wall clock); \`response_excerpt\` (the answer's first ${EXCERPT_CHARS} characters).
- \`outcome\`: \`delivered\` (2xx), \`failed\`, \`deferred\` (a \`delay\` fault: the real attempt follows), \`held\`.
  \`fault\`: the injected fault, if any. \`next_retry_at\`: when the failed attempt is retried, else null.

Query: \`event_id\` (optional) keeps one event's attempts; an id without deliveries gives an empty list.`.trim(),
  request: { query: z.object({ event_id: example(z.string().max(40).optional(), DEMO.event) }) },
  responses: {
    200: json(Success({ data: z.array(Delivery) }), "Delivery attempts", {
      deliveries: {
        summary: "The first delivery of the demo's payment.received",
        value: {
          success: true,
          data: [paymentDelivery("DLV_4SFAJMJXPP2INF8B", "initial", "2ff4fd3185f655010087054ee5706522", "d91fa49c520c38986001eb97cd379a2e990f807e7bc787a4f5af71d124e7692a")],
        },
      },
    }),
    ...controlErrors(),
  },
});

export const redeliver = route({
  method: "post",
  path: "/events/{id}/redeliver",
  operationId: "redeliverEvent",
  summary: "Send an event again now (a new delivery: new nonce and sent_at, same transaction_id)",
  description: `
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
has already processed. Demo merchant: \`${DEMO.event}\` (\`payment.received\`).`.trim(),
  request: {
    params: z.object({
      id: examples(z.string().max(40), {
        redeliver: { summary: "The demo's payment.received event", value: DEMO.event },
        notFound: { summary: "No event with this id", value: "EVT_0000000000000000" },
      }),
    }),
  },
  responses: {
    200: json(Success({ data: Delivery }), "The delivery attempt", {
      redeliver: {
        summary: "The new delivery, answered 200 by the built-in receiver",
        value: {
          success: true,
          data: paymentDelivery(demoNextId("DLV"), "redeliver", "d8f4dd13f2110e187810e71c6f8b6516", "dc66ca3080a0cd97b6dedd008fafea819a4de95480542bd8b122fa0ea7d613ab"),
        },
      },
    }),
    ...controlErrors({
      404: { notFound: errorExample("No event with this id", "NOT_FOUND", "No event EVT_0000000000000000.") },
      409: NO_URL,
    }),
  },
});

export const listIncidents = route({
  method: "get",
  path: "/incidents",
  operationId: "listIncidents",
  summary: `Background failures of the sandbox's own for this merchant, oldest first (the newest ${thousands(MAX_INCIDENTS)} are kept)`,
  description: `
Background work that the sandbox itself could not carry out for the calling merchant (a timer, a webhook attempt),
oldest first; the newest ${thousands(MAX_INCIDENTS)} are kept. Each is \`{ at, where, error }\`, for instance
\`{ "at": "2026-03-02T09:05:00.000Z", "where": "webhook payout.completed EVT_...", "error": "..." }\`. The rest of the
merchant's work goes on, and an event that could not be attempted is marked \`failed\` with the \`error\`.

A receiver that answers an error or times out is not an incident (see GET /sandbox/v1/webhook-deliveries): an
incident is a fault of the sandbox's own, worth reporting. An empty list is the normal case.`.trim(),
  responses: {
    200: json(Success({ data: z.array(Incident) }), "Incidents", { incidents: { summary: "No incident (the normal case)", value: { success: true, data: [] } } }),
    ...controlErrors(),
  },
});

export const sendTest = route({
  method: "post",
  path: "/webhooks/test",
  operationId: "sendTestWebhook",
  summary: "Send one signed webhook.test event to the merchant's webhook_url now and return the delivery",
  description: `
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
  mode a URL resolving to a loopback or private address is refused at delivery, as for every event.`.trim(),
  responses: {
    200: json(Success({ data: Delivery }), "The delivery attempt", {
      sendTest: {
        summary: "The test delivery, answered 200 by the built-in receiver",
        value: {
          success: true,
          data: captured({
            id: "DLV_686N2JGF3GUNP2H7",
            event_id: demoNextId("EVT", 1),
            event_type: "webhook.test",
            trigger: "test",
            nonce: "c5de4b014d4677ec17ae2305eb337815",
            signature: "628cb7b1925d83701d00d2c0acba97277dcf7c15b14ec98b859f42ec949b58ec",
            data: { transaction_id: demoNextId("TEST"), status: "test", message: TEST_EVENT_MESSAGE },
          }),
        },
      },
    }),
    ...controlErrors({ 409: NO_URL }),
    // The control API has no 429 of its own (controlErrors drops it); this route's quota is the exception.
    429: errors({
      429: {
        quotaExceeded: errorExample(
          `More than ${TEST_EVENTS_PER_MINUTE} test events in a rolling minute`,
          "QUOTA_EXCEEDED",
          testQuotaMessage(41),
          { retry_after: 41 },
        ),
      },
    })[429]!,
  },
});
