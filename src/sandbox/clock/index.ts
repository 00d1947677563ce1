/** The clock's handlers: its view, and an advance to the target the request names. */
import { advanceTarget } from "../../domain/clock-advance.js";
import type { Tenant } from "../../engine/tenant.js";
import type { Deps } from "../../http/deps.js";
import { tenantOf, ok } from "../../http/route.js";
import { router } from "../../http/validation.js";
import * as op from "./routes.js";

function clockView(tenant: Tenant) {
  const { mode, speed } = tenant.clock.settings();
  return { now: new Date(tenant.clock.now()).toISOString(), mode, speed, pending_timers: tenant.state.timers.length };
}

export function clockRoutes({ driver }: Deps) {
  return router()
    .openapi(op.read, (c) => c.json(ok(clockView(tenantOf(c).tenant)), 200))
    .openapi(op.advance, async (c) => {
      const { tenant } = tenantOf(c);
      const request = c.req.valid("json");
      const { fired } = await driver.advance(tenant, (now) => advanceTarget(now, request));
      return c.json(ok({ ...clockView(tenant), fired }), 200);
    });
}
