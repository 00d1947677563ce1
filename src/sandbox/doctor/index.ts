/**
 * The webhook doctor's handler: the battery against the merchant's own receiver (or its built-in
 * capture), one run at a time and a few a minute per merchant (the desk). Nothing in the merchant's
 * state changes.
 */
import { DomainError } from "../../domain/errors.js";
import { CAPTURE_URL, CAPTURED, deliveryTarget } from "../../domain/webhook-policy.js";
import { doctorQuotaMessage } from "../../doctor/desk.js";
import { runDoctor, type Scorecard } from "../../doctor/run.js";
import { createIds } from "../../engine/ids.js";
import type { Deps } from "../../http/deps.js";
import { ApiError } from "../../http/errors.js";
import { tenantOf, ok } from "../../http/route.js";
import { router } from "../../http/validation.js";
import { assertWebhookTarget } from "../webhook-target.js";
import * as op from "./routes.js";

/** The built-in capture checks nothing (its `fail_first` is for the sandbox's own deliveries, not the doctor's). */
const captureDeliver = () => Promise.resolve({ ...CAPTURED });

export function doctorRoutes({ doctor, dispatcher, shared }: Deps) {
  const transport = dispatcher.transport;
  // The doctor's transactions are its own: drawing them from the merchant's seeded ids would shift every later id.
  const ids = createIds();
  return router().openapi(op.run, async (c) => {
    const { tenant } = tenantOf(c);
    // The body is optional: without one, validation hands over {}.
    const { records_url } = c.req.valid("json");
    assertWebhookTarget(records_url, shared, "records_url");
    const { webhook_secret, webhook } = tenant.config;
    const target = deliveryTarget(tenant.config);
    if (!target) {
      throw new DomainError("INVALID_STATE", "No webhook_url is set for this merchant: set one with PATCH /sandbox/v1/merchant, or run `merchant-sandbox doctor --endpoint URL --secret S` against any receiver.");
    }
    const admission = doctor.admit(tenant);
    if (!admission.admitted) {
      if (admission.busy) throw new DomainError("INVALID_STATE", "A webhook doctor run is already under way for this merchant: wait for its answer.");
      throw new ApiError("QUOTA_EXCEEDED", doctorQuotaMessage(admission.retryAfter), {
        retry_after: admission.retryAfter,
      });
    }
    let card: Scorecard | null = null;
    try {
      card = await runDoctor({
        endpoint: target,
        deliver: target === CAPTURE_URL ? captureDeliver : (d, timeoutMs) => transport.post(target, d.headers, d.body, timeoutMs),
        secret: webhook_secret,
        signature: { algorithm: webhook.signature_algorithm, encoding: webhook.signature_encoding },
        timeoutSeconds: webhook.timeout_seconds,
        recordsUrl: records_url,
        transport,
        ids,
      });
    } finally {
      // Kept (with a shared store, in the database) before the answer goes, so any node shows it next.
      await admission.done(card);
    }
    return c.json(ok(card), 200);
  });
}
