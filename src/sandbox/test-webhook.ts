/** POST /sandbox/v1/webhooks/test: one signed `webhook.test` event to the merchant's receiver, now. */
import { createRoute, z } from "@hono/zod-openapi";
import { deliveryView, testEvent } from "../domain/events.js";
import { assertDeliveryTarget } from "../domain/webhook-policy.js";
import { PerMerchantRate } from "../doctor/desk.js";
import { contextOf } from "../engine/tenant.js";
import type { WebhookDispatcher } from "../webhooks/dispatcher.js";
import { ApiError } from "../http/errors.js";
import { errors, json, security } from "../http/openapi.js";
import { router } from "../http/validation.js";
import { controlErrors } from "./errors.js";
import { Delivery } from "./webhooks.js";
import * as docs from "./test-webhook-docs.js";

const sendTestWebhook = createRoute({
  method: "post",
  path: "/webhooks/test",
  tags: ["Sandbox"],
  security,
  operationId: "sendTestWebhook",
  summary: "Send one signed webhook.test event to the merchant's webhook_url now and return the delivery",
  description: docs.TEST_DESCRIPTION,
  responses: {
    200: json(z.object({ success: z.literal(true), data: Delivery }), "The delivery attempt", docs.TEST_RESPONSE_EXAMPLES),
    ...controlErrors(docs.TEST_ERRORS),
    429: errors(docs.TEST_QUOTA_ERRORS)[429]!,
  },
});

/** `wall`: the registry's wall clock, so tests move the rate's minute by hand. */
export function testWebhookRoutes(opts: { dispatcher: WebhookDispatcher; wall: () => number }) {
  const rate = new PerMerchantRate(docs.TEST_EVENTS_PER_MINUTE, opts.wall);
  return router().openapi(sendTestWebhook, async (c) => {
    const tenant = c.var.tenant;
    assertDeliveryTarget(tenant.config);
    const retryAfter = rate.take(tenant);
    if (retryAfter !== null) {
      throw new ApiError("QUOTA_EXCEEDED", `At most ${rate.perMinute} test events per minute for one merchant; retry in ${retryAfter} s.`, { retry_after: retryAfter });
    }
    const delivery = await opts.dispatcher.sendTest(tenant, testEvent(contextOf(tenant), tenant.state));
    // No delivery: the sandbox itself failed to attempt it (recorded on the event and as an incident).
    if (!delivery) throw new ApiError("INTERNAL_ERROR", "The test event could not be attempted: see GET /sandbox/v1/incidents.");
    return c.json({ success: true as const, data: deliveryView(delivery) }, 200);
  });
}
