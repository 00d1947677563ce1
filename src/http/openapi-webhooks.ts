/**
 * The `webhooks` section of the OpenAPI document: every event the sandbox sends, with its payload
 * (the domain's payload schemas, the same ones every event is validated against) and its signature
 * header, so merchants generate the types of their most security-sensitive input instead of typing it.
 */
import { spokenList, spokenSeconds } from "../domain/prose.js";
import { DEFAULTS } from "../domain/merchant.js";
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { EVENT_PAYLOADS, EVENT_TYPES, type EventType } from "../domain/event-records.js";
import { EVENT_EXAMPLES } from "../domain/event-examples.js";
import { body } from "./openapi.js";

const WHEN: Record<EventType, string> = {
  "payment.received": "A transfer into a virtual account clears (the spec's own event and payload).",
  "checkout.completed": "A payment link is paid with its exact amount.",
  "payout.completed": "A payout settles: the funds reached the beneficiary.",
  "payout.failed": "A payout fails or is rejected: amount + fee are back in the wallet.",
  "webhook.test": "The merchant asks for a test (POST /sandbox/v1/webhooks/test, the dashboard's \"Send test event\"). No money moved: answer 2xx and credit nothing.",
};

const name = (type: EventType) => type.split(".").map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");

export function registerWebhooks(app: OpenAPIHono<any>): void {
  for (const type of EVENT_TYPES) {
    const Delivery = z
      .object({
        event: z.literal(type),
        nonce: z.string().regex(/^[0-9a-f]{32}$/).openapi({ description: "32 lowercase hex characters, new for every delivery (replay protection)" }),
        sent_at: z.iso.datetime().openapi({ description: "The merchant's clock when this attempt was made" }),
        data: EVENT_PAYLOADS[type],
      })
      .openapi(`${name(type)}Event`);
    app.openAPIRegistry.registerWebhook({
      method: "post",
      path: type,
      operationId: `${name(type)[0]!.toLowerCase()}${name(type).slice(1)}Webhook`,
      tags: ["Webhooks"],
      security: [{ WebhookSignature: [] }],
      summary: `${type}: ${WHEN[type]}`,
      description:
        `${WHEN[type]} Sent to the merchant's webhook_url as a signed POST. Verify X-Webhook-Signature against the exact raw body ` +
        "before trusting the payload, then deduplicate on data.transaction_id: it is the same on every delivery of the event " +
        "(retries, redeliveries, duplicates), while nonce and sent_at change each time.",
      request: {
        headers: z.object({
          "x-webhook-signature": z.string().openapi({
            description: "HMAC of the exact raw body with the merchant's webhook secret: SHA-256, lowercase hex by default (per merchant: sha512, base64)",
            example: "5f2b8c0e9d1a7c3b4e6f8a0b2c4d6e8f0a1b3c5d7e9f1a3b5c7d9e1f3a5b7c9d",
          }),
        }),
        ...body(Delivery, { [name(type)]: { summary: `A ${type} delivery`, value: EVENT_EXAMPLES[type] } }),
      },
      responses: {
        200: {
          description: `Any 2xx: delivered. Anything else, no answer within the time-out (${spokenSeconds(DEFAULTS.webhook.timeout_seconds)}) or a refused connection: retried after ${spokenList(DEFAULTS.webhook.retry_schedule_seconds.map(spokenSeconds))}.`,
        },
      },
    });
  }
}
