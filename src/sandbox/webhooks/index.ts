/**
 * The webhooks' handlers: the event and delivery logs, redelivery, incidents, and the test event. A
 * delivery someone asks for is awaited and returned; the dispatcher signs, sends and logs it.
 */
import { iso } from "../../domain/context.js";
import { deliveryView, eventView, testEvent } from "../../domain/events.js";
import { assertDeliveryTarget, eventToRedeliver } from "../../domain/webhook-policy.js";
import type { Deps } from "../../http/deps.js";
import { ApiError } from "../../http/errors.js";
import { tenantOf, ok } from "../../http/route.js";
import { router } from "../../http/validation.js";
import * as op from "./routes.js";
import { testEventRate, testQuotaMessage } from "./test-quota.js";

export function webhookRoutes({ dispatcher, registry }: Deps) {
  const rate = testEventRate(registry.wall);
  return router()
    .openapi(op.listIncidents, (c) => c.json(ok(tenantOf(c).state.incidents.map((i) => ({ ...i, at: iso(i.at) }))), 200))
    .openapi(op.listEvents, (c) => {
      const { type, since } = c.req.valid("query");
      const from = since === undefined ? -Infinity : Date.parse(since);
      const data = [...tenantOf(c).state.events.values()].filter((e) => (!type || e.type === type) && e.created_at >= from).map(eventView);
      return c.json(ok(data), 200);
    })
    .openapi(op.listDeliveries, (c) => {
      const { event_id } = c.req.valid("query");
      const data = tenantOf(c).state.deliveries.filter((d) => !event_id || d.event_id === event_id).map(deliveryView);
      return c.json(ok(data), 200);
    })
    .openapi(op.redeliver, async (c) => {
      const { tenant, state } = tenantOf(c);
      const event = eventToRedeliver(state, tenant.config, c.req.valid("param").id);
      const delivery = await dispatcher.redeliver(tenant, event);
      // No delivery: the sandbox itself failed to attempt it (recorded on the event and as an incident).
      if (!delivery) throw new ApiError("INTERNAL_ERROR", `The delivery could not be attempted: ${event.error ?? "see GET /sandbox/v1/incidents"}.`);
      return c.json(ok(deliveryView(delivery)), 200);
    })
    .openapi(op.sendTest, async (c) => {
      const { tenant, ctx, state } = tenantOf(c);
      assertDeliveryTarget(tenant.config);
      const retryAfter = rate.take(tenant);
      if (retryAfter !== null) throw new ApiError("QUOTA_EXCEEDED", testQuotaMessage(retryAfter), { retry_after: retryAfter });
      const delivery = await dispatcher.sendTest(tenant, testEvent(ctx, state));
      // No delivery: the sandbox itself failed to attempt it (recorded on the event and as an incident).
      if (!delivery) throw new ApiError("INTERNAL_ERROR", "The test event could not be attempted: see GET /sandbox/v1/incidents.");
      return c.json(ok(deliveryView(delivery)), 200);
    });
}
