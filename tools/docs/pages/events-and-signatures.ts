/**
 * docs/reference/events-and-signatures.md: every webhook event with its `data` fields (the payload
 * schemas every delivery is checked against), the envelope and headers, the signature, the retry
 * schedule and the faults, each from the constant the dispatcher and the webhook policy use.
 */
import { z } from "zod";
import { EVENT_EXAMPLES } from "../../../src/domain/event-examples.js";
import { EVENT_PAYLOADS, type EventType } from "../../../src/domain/event-records.js";
import { DEFAULTS } from "../../../src/domain/merchant.js";
import { MerchantSettingsSchema } from "../../../src/domain/merchant-settings.js";
import { EVENT_STATUSES, OUTCOMES } from "../../../src/domain/records.js";
import { CAPTURE_URL, DEFAULT_FAULT_DELAY_SECONDS, DEFAULT_RETRY_SCHEDULE_SECONDS } from "../../../src/domain/webhook-policy.js";
import { TEST_EVENTS_PER_MINUTE } from "../../../src/sandbox/webhooks/test-quota.js";
import { USER_AGENT } from "../../../src/webhooks/dispatcher.js";
import { code, fenced, spokenList, spokenSeconds, table, type ReferencePage } from "../markdown.js";

/** An event's `data` fields as the docs list them: `amount`, and a fixed value as `status: "successful"`. */
export function dataFields(type: EventType): string[] {
  return Object.entries(EVENT_PAYLOADS[type].shape).map(([field, schema]) =>
    schema instanceof z.ZodLiteral ? `\`${field}: ${JSON.stringify(schema.value)}\`` : code(field),
  );
}

/** When each event is sent. */
const WHEN: Record<EventType, string> = {
  "payment.received": "A transfer into a virtual account clears (the spec's payload table, exactly)",
  "checkout.completed": "A payment link is paid",
  "payout.completed": "A payout settles successfully (`transaction_id` and `order_no` are both the payout's `order_no`)",
  "payout.failed": "A payout fails or is rejected (`error` says why)",
  "webhook.test":
    `Only when asked: \`POST /sandbox/v1/webhooks/test\` (at most ${TEST_EVENTS_PER_MINUTE} a minute) or the dashboard's **Send test event**. ` +
    "No amount, account or payer; one attempt, never retried, logged with trigger `test`",
};

const STATUS_MEANING: Record<(typeof EVENT_STATUSES)[number], string> = {
  pending: "Not delivered yet: an attempt is due (`next_attempt_at`) or in flight",
  delivered: "An attempt was answered 2xx",
  failed: "The last retry failed, or the sandbox could not deliver it (`error` says why)",
  no_url: "Stored only: no `webhook_url` and no `webhook_capture`",
  held: "Held by an `out_of_order` fault until another event of the merchant is delivered",
};

const FAULTS: Record<(typeof OUTCOMES.webhook)[number], string> = {
  duplicate: "Delivered twice: a second delivery with a new nonce and the same `transaction_id` (`trigger` and `fault` are `duplicate`)",
  delay: `The attempt waits \`delay_seconds\` (default ${DEFAULT_FAULT_DELAY_SECONDS}) on the merchant's clock. A \`deferred\` entry is logged, then the real attempt.`,
  out_of_order: "The event is `held` until another event of the merchant has been delivered, then sent",
  bad_signature: "Signed with a wrong key: the header looks right but does not verify. The receiver's answer decides retries.",
  drop: "No request is sent. The attempt fails as if the receiver were down (`error` names the fault injection), and the retry schedule applies.",
};

/** The values a merchant's `webhook.<field>` setting takes. */
const webhookOptions = (field: "signature_algorithm" | "signature_encoding") => {
  const webhook = MerchantSettingsSchema.shape.webhook.unwrap();
  return webhook.shape[field].unwrap().options.map(code);
};

export function eventsPage(): ReferencePage {
  const types = Object.keys(EVENT_PAYLOADS) as EventType[];
  const envelope = Object.keys(EVENT_EXAMPLES["payment.received"]);
  const schedule = spokenList(DEFAULT_RETRY_SCHEDULE_SECONDS.map(spokenSeconds));
  const { signature_algorithm: algorithm, signature_encoding: encoding, timeout_seconds: timeout } = DEFAULTS.webhook;
  return {
    name: "events-and-signatures.md",
    sources: ["src/domain/event-records.ts", "src/domain/webhook-policy.ts", "src/webhooks/dispatcher.ts", "src/webhooks/sign.ts", "src/domain/merchant.ts"],
    body: `
# Events and signatures

Every event is stored first, in the merchant's event log, even when no \`webhook_url\` is set. It is then
POSTed to the merchant's \`webhook_url\` (set at sign-up or with \`PATCH /sandbox/v1/merchant\`), or answered by
its built-in capture (\`webhook_capture\`, logged with the URL \`${CAPTURE_URL}\`). How to receive and verify them in
each framework: [Receive webhooks](../how-to/receive-webhooks.md).

## Events

${table(
  ["Event", "When", "`data`"],
  types.map((type) => [code(type), WHEN[type], dataFields(type).join(", ")]),
)}

The fields' types and descriptions are in the OpenAPI document's \`webhooks\` (\`/docs\`, \`/openapi.json\`). A delivery of
\`payment.received\`:

${fenced(JSON.stringify(EVENT_EXAMPLES["payment.received"], null, 2), "json")}

## Deliveries

Each delivery is one JSON object with ${spokenList(envelope.map(code))}. \`nonce\` is new for every delivery;
\`sent_at\` is the merchant's clock at the attempt; \`data.transaction_id\` is the same on every delivery of an event,
so use it to detect duplicates. The headers:

- \`Content-Type: application/json\`
- \`User-Agent: ${USER_AGENT}\`
- \`X-Webhook-Signature\`: the signature of the body (below)

Check \`sent_at\` too, for replay protection: reject deliveries older than about 5 minutes, and remember each
\`nonce\` for that long. The sandbox does not check either; it only makes sure that every delivery carries a fresh pair.

## Signatures

\`X-Webhook-Signature\` is the HMAC of the **exact raw body bytes**, keyed with the merchant's \`webhook_secret\`:
HMAC-${algorithm.toUpperCase()} in ${encoding} by default (hex in lower case). Real providers differ, so each merchant
can set \`webhook.signature_algorithm\` (${webhookOptions("signature_algorithm").join(" or ")}) and
\`webhook.signature_encoding\` (${webhookOptions("signature_encoding").join(" or ")}). Verify before parsing, and
compare in constant time. The package exports \`verifyWebhookSignature(rawBody, signature, secret, options?)\`,
which does, and \`signPayload\`; \`examples/webhook-verify/\` has the same check in Node.js, Python and PHP.

## Retries and timing

Any 2xx is delivered. Any other answer is a failed attempt, and so are a timeout (${spokenSeconds(timeout)} of
wall-clock time by default, \`webhook.timeout_seconds\`) and a refused connection. A failed attempt is retried on the
merchant's clock after ${schedule} (\`webhook.retry_schedule_seconds\`). After the last retry the event is \`failed\`.
Every attempt is a new delivery, with a new \`nonce\` and \`sent_at\` and the same \`transaction_id\`.

API responses never wait for a webhook, in either clock mode. An event's first attempt starts as soon as the change
that caused it is saved (at once in memory; with \`--data\`, once the write has landed). \`POST /sandbox/v1/clock/advance\`
waits for the attempts already in flight and for those it triggers, so with a manual clock \`{ "seconds": 0 }\` means
"wait for the webhooks in flight". Attempts due at the same instant go out side by side, so a receiver may get them
in any order; the delivery log keeps them in the order they started.

## Event statuses and logs

${table(
  ["Event `status`", "Meaning"],
  EVENT_STATUSES.map((s) => [code(s), STATUS_MEANING[s]]),
)}

- \`GET /sandbox/v1/events?type=&since=\`: each event with its \`status\`, \`attempts\` and \`next_attempt_at\`.
- \`GET /sandbox/v1/webhook-deliveries?event_id=\`: every attempt, with URL, request headers and body, \`status_code\` or
  \`error\`, \`latency_ms\`, response excerpt, \`outcome\`, \`fault\` and \`next_retry_at\`.
- \`POST /sandbox/v1/events/{id}/redeliver\`: sends the event again now and returns the delivery. A success stops
  pending retries.

## Faults

Outcome rules with \`target: "webhook"\`, optionally matching \`{ "event": "payout.failed" }\` and limited by \`times\`,
break deliveries on purpose. They apply to the attempts the sandbox makes by itself (first attempts and retries),
not to redeliveries.

${table(
  ["Fault", "Effect, and how it is logged"],
  OUTCOMES.webhook.map((f) => [code(f), FAULTS[f]]),
)}
`,
  };
}
