/** The snapshot's handlers: export the caller's merchant, or replace it with a snapshot (its keys kept). */
import { shownSnapshot } from "../../domain/snapshot.js";
import type { Deps } from "../../http/deps.js";
import { tenantOf, ok, okFields } from "../../http/route.js";
import { router } from "../../http/validation.js";
import { assertWebhookTarget } from "../webhook-target.js";
import * as op from "./routes.js";

export function snapshotRoutes({ registry, driver, shared }: Deps) {
  return router()
    .openapi(op.read, (c) => {
      const { tenant, state } = tenantOf(c);
      return c.json(ok(shownSnapshot(tenant.config, tenant.clock.settings(), state)), 200);
    })
    .openapi(op.restore, (c) => {
      const { tenant } = tenantOf(c);
      const snapshot = c.req.valid("json");
      assertWebhookTarget(snapshot.merchant.webhook_url, shared, "merchant.webhook_url");
      registry.replace(tenant, snapshot);
      driver.stop(tenant);
      return c.json(okFields({ message: "Snapshot restored" }), 200);
    });
}
