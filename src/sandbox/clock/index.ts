/** The clock's handlers: its view, and an advance to the target the request names. */
import type { z } from "@hono/zod-openapi";
import { MAX_CLOCK } from "../../domain/bounds.js";
import { durationMs } from "../../domain/duration.js";
import { fieldError } from "../../domain/errors.js";
import type { Tenant } from "../../engine/tenant.js";
import type { Deps } from "../../http/deps.js";
import { merchantOf, ok } from "../../http/route.js";
import { router } from "../../http/validation.js";
import * as op from "./routes.js";

function clockView(tenant: Tenant) {
  const { mode, speed } = tenant.clock.settings();
  return { now: new Date(tenant.clock.now()).toISOString(), mode, speed, pending_timers: tenant.state.timers.length };
}

const pastTheEnd = (field: string) => fieldError(field, `The clock cannot go past ${op.CLOCK_END}.`);

/** Target time of an advance request, in ms since epoch: never back, never past the end of the clock. */
function targetOf(now: number, req: z.infer<typeof op.Advance>): number {
  if (req.to !== undefined) {
    const to = Date.parse(req.to);
    if (to < now) throw fieldError("to", op.BACKWARDS);
    if (to > MAX_CLOCK) throw pastTheEnd("to");
    return to;
  }
  const field = req.by !== undefined ? "by" : "seconds";
  const ms = req.by !== undefined ? durationMs(req.by) : (req.seconds ?? 0) * 1000;
  if (ms > op.MAX_ADVANCE_MS) throw fieldError(field, op.TOO_FAR);
  if (now + ms > MAX_CLOCK) throw pastTheEnd(field);
  return now + Math.round(ms);
}

export function clockRoutes({ driver }: Deps) {
  return router()
    .openapi(op.read, (c) => c.json(ok(clockView(merchantOf(c).tenant)), 200))
    .openapi(op.advance, async (c) => {
      const { tenant } = merchantOf(c);
      const request = c.req.valid("json");
      const { fired } = await driver.advance(tenant, (now) => targetOf(now, request));
      return c.json(ok({ ...clockView(tenant), fired }), 200);
    });
}
