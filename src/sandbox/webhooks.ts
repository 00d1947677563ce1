/** The merchant's event log, its webhook delivery log, and redelivery. */
import { createRoute, z } from "@hono/zod-openapi";
import { iso } from "../domain/context.js";
import { deliveryView, EVENT_TYPES, eventView } from "../domain/events.js";
import { eventToRedeliver } from "../domain/webhook-policy.js";
import type { WebhookDispatcher } from "../webhooks/dispatcher.js";
import { ApiError } from "../http/errors.js";
import { example, examples, json, security } from "../http/openapi.js";
import { router } from "../http/validation.js";
import { isoTime } from "../domain/fields.js";
import { DeliveryTriggers } from "../domain/records.js";
import { controlErrors } from "./errors.js";
import { DEMO } from "../http/demo-examples.js";
import * as docs from "./webhooks-docs.js";

const tags = ["Sandbox"];

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

export const Delivery = z
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

const listEvents = createRoute({
  method: "get",
  path: "/events",
  tags,
  security,
  operationId: "listEvents",
  summary: "The merchant's events, oldest first (stored even when no webhook URL is set)",
  description: docs.EVENTS_DESCRIPTION,
  request: {
    query: z.object({
      type: examples(z.enum(EVENT_TYPES).optional(), docs.EVENTS_TYPE_EXAMPLES),
      since: examples(z.iso.datetime({ offset: true }).optional(), docs.EVENTS_SINCE_EXAMPLES).openapi({ description: "Only events created at or after this time" }),
    }),
  },
  responses: {
    200: json(z.object({ success: z.literal(true), data: z.array(Event) }), "Events", docs.EVENTS_RESPONSE_EXAMPLES),
    ...controlErrors(docs.EVENTS_ERRORS),
  },
});

const listDeliveries = createRoute({
  method: "get",
  path: "/webhook-deliveries",
  tags,
  security,
  operationId: "listWebhookDeliveries",
  summary: "Every delivery attempt, oldest first, with request, response and next retry",
  description: docs.DELIVERIES_DESCRIPTION,
  request: { query: z.object({ event_id: example(z.string().max(40).optional(), DEMO.event) }) },
  responses: {
    200: json(z.object({ success: z.literal(true), data: z.array(Delivery) }), "Delivery attempts", docs.DELIVERIES_RESPONSE_EXAMPLES),
    ...controlErrors(),
  },
});

const redeliver = createRoute({
  method: "post",
  path: "/events/{id}/redeliver",
  tags,
  security,
  operationId: "redeliverEvent",
  summary: "Send an event again now (a new delivery: new nonce and sent_at, same transaction_id)",
  description: docs.REDELIVER_DESCRIPTION,
  request: { params: z.object({ id: examples(z.string().max(40), docs.REDELIVER_PARAM_EXAMPLES) }) },
  responses: {
    200: json(z.object({ success: z.literal(true), data: Delivery }), "The delivery attempt", docs.REDELIVER_RESPONSE_EXAMPLES),
    ...controlErrors(docs.REDELIVER_ERRORS),
  },
});

const Incident = z
  .object({ at: z.string(), where: z.string(), error: z.string() })
  .openapi("Incident", { description: "Background work (a timer, a webhook attempt) that the sandbox itself could not carry out" });

const listIncidents = createRoute({
  method: "get",
  path: "/incidents",
  tags,
  security,
  operationId: "listIncidents",
  summary: "Background failures of the sandbox's own for this merchant, oldest first (the newest 100 are kept)",
  description: docs.INCIDENTS_DESCRIPTION,
  responses: { 200: json(z.object({ success: z.literal(true), data: z.array(Incident) }), "Incidents", docs.INCIDENTS_RESPONSE_EXAMPLES), ...controlErrors() },
});

export function webhookRoutes(dispatcher: WebhookDispatcher) {
  return router()
    .openapi(listIncidents, (c) => c.json({ success: true as const, data: c.var.tenant.state.incidents.map((i) => ({ ...i, at: iso(i.at) })) }, 200))
    .openapi(listEvents, (c) => {
      const { type, since } = c.req.valid("query");
      const from = since === undefined ? -Infinity : Date.parse(since);
      const data = [...c.var.tenant.state.events.values()].filter((e) => (!type || e.type === type) && e.created_at >= from).map(eventView);
      return c.json({ success: true as const, data }, 200);
    })
    .openapi(listDeliveries, (c) => {
      const { event_id } = c.req.valid("query");
      const data = c.var.tenant.state.deliveries.filter((d) => !event_id || d.event_id === event_id).map(deliveryView);
      return c.json({ success: true as const, data }, 200);
    })
    .openapi(redeliver, async (c) => {
      const tenant = c.var.tenant;
      const event = eventToRedeliver(tenant.state, tenant.config, c.req.valid("param").id);
      const delivery = await dispatcher.redeliver(tenant, event);
      // No delivery: the sandbox itself failed to attempt it (recorded on the event and as an incident).
      if (!delivery) throw new ApiError("INTERNAL_ERROR", `The delivery could not be attempted: ${event.error ?? "see GET /sandbox/v1/incidents"}.`);
      return c.json({ success: true as const, data: deliveryView(delivery) }, 200);
    });
}
