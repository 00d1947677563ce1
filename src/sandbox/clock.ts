/** The merchant's clock through the control API, and reset. */
import { createRoute, z } from "@hono/zod-openapi";
import { MAX_CLOCK } from "../domain/bounds.js";
import { DURATION_PATTERN, durationMs } from "../domain/duration.js";
import { fieldError } from "../domain/errors.js";
import { toMinor } from "../domain/money.js";
import { resetState } from "../domain/merchant.js";
import type { ClockDriver } from "../engine/clock-driver.js";
import { body, json, security } from "../http/openapi.js";
import { amount, isoTime } from "../domain/fields.js";
import { router } from "../http/validation.js";
import type { Registry } from "../engine/registry.js";
import { contextOf, type Tenant } from "../engine/tenant.js";
import { Merchant, merchantResponse } from "./merchants.js";
import { controlErrors } from "./errors.js";
import * as docs from "./clock-docs.js";

const tags = ["Sandbox"];
const MAX_ADVANCE_MS = 10 * 365 * 86_400_000;

const ClockState = z
  .object({
    now: isoTime,
    mode: z.enum(["manual", "realtime"]),
    speed: z.number(),
    pending_timers: z.number().int(),
  })
  .openapi("Clock");

export function clockView(tenant: Tenant) {
  const { mode, speed } = tenant.clock.settings();
  return { now: new Date(tenant.clock.now()).toISOString(), mode, speed, pending_timers: tenant.state.timers.length };
}

const Advance = z
  .object({
    seconds: z.number().min(0).max(MAX_ADVANCE_MS / 1000).optional().openapi({ description: "0 only waits for webhook attempts in flight" }),
    by: z
      .string()
      .regex(DURATION_PATTERN, { message: 'Use a number and a unit s, m, h or d, e.g. "30m", "2h", "1d".' })
      .optional(),
    to: z.iso.datetime({ offset: true }).optional(),
  })
  .superRefine((v, ctx) => {
    const given = (["seconds", "by", "to"] as const).filter((k) => v[k] !== undefined);
    if (given.length !== 1) ctx.addIssue({ code: "custom", path: [], message: "Send exactly one of seconds, by or to." });
  })
  .openapi("ClockAdvance");

/** Target time of an advance request, in ms since epoch. */
function targetOf(now: number, req: z.infer<typeof Advance>): number {
  if (req.to !== undefined) {
    const to = Date.parse(req.to);
    if (to < now) throw fieldError("to", "The clock never goes backwards: give a time at or after the current sim time.");
    if (to > MAX_CLOCK) throw fieldError("to", `The clock cannot go past ${new Date(MAX_CLOCK).toISOString()}.`);
    return to;
  }
  const field = req.by !== undefined ? "by" : "seconds";
  const ms = req.by !== undefined ? durationMs(req.by) : (req.seconds ?? 0) * 1000;
  if (ms > MAX_ADVANCE_MS) throw fieldError(field, "At most 10 years at a time.");
  if (now + ms > MAX_CLOCK) throw fieldError(field, `The clock cannot go past ${new Date(MAX_CLOCK).toISOString()}.`);
  return now + Math.round(ms);
}

const read = createRoute({
  method: "get",
  path: "/clock",
  tags,
  operationId: "getClock",
  summary: "The merchant's clock",
  description: docs.READ_DESCRIPTION,
  security,
  responses: {
    200: json(z.object({ success: z.literal(true), data: ClockState }), "Current sim time and pending timers", docs.READ_RESPONSE_EXAMPLES),
    ...controlErrors(),
  },
});

const advance = createRoute({
  method: "post",
  path: "/clock/advance",
  tags,
  operationId: "advanceClock",
  summary: "Move the merchant's clock forward, firing every timer due on the way",
  description: docs.ADVANCE_DESCRIPTION,
  security,
  request: body(Advance, docs.ADVANCE_BODY_EXAMPLES),
  responses: {
    200: json(
      z.object({ success: z.literal(true), data: ClockState.extend({ fired: z.number().int() }) }),
      "The new time and how many timers fired",
      docs.ADVANCE_RESPONSE_EXAMPLES,
    ),
    ...controlErrors(docs.ADVANCE_ERRORS),
  },
});

const reset = createRoute({
  method: "post",
  path: "/reset",
  tags,
  operationId: "resetMerchant",
  summary: "Empty the merchant's state (keeps keys, settings and clock); optionally fund the new wallet",
  description: docs.RESET_DESCRIPTION,
  security,
  request: {
    body: {
      required: false,
      content: { "application/json": { schema: z.object({ wallet_balance: amount({ min: 0 }).optional() }).openapi("Reset"), examples: docs.RESET_BODY_EXAMPLES } },
    },
  },
  responses: {
    200: json(z.object({ success: z.literal(true), data: Merchant }), "The merchant after reset", docs.RESET_RESPONSE_EXAMPLES),
    ...controlErrors(docs.RESET_ERRORS),
  },
});

export function clockRoutes(registry: Registry, driver: ClockDriver) {
  return router()
    .openapi(read, (c) => c.json({ success: true as const, data: clockView(c.var.tenant) }, 200))
    .openapi(advance, async (c) => {
      const tenant = c.var.tenant;
      const request = c.req.valid("json");
      const { fired } = await driver.advance(tenant, (now) => targetOf(now, request));
      return c.json({ success: true as const, data: { ...clockView(tenant), fired } }, 200);
    })
    .openapi(reset, (c) => {
      const tenant = c.var.tenant;
      // The body is optional: without one, validation hands over {}.
      const opening = toMinor(c.req.valid("json").wallet_balance ?? 0);
      registry.resetState(tenant, resetState(contextOf(tenant), opening));
      driver.stop(tenant);
      return c.json({ success: true as const, data: merchantResponse(tenant) }, 200);
    });
}
