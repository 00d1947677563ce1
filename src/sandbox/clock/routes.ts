/** The merchant's clock in the control API: read it, and move it forward firing every timer due. */
import { BACKWARDS, CLOCK_END, MAX_ADVANCE_MS, MAX_ADVANCE_YEARS, TOO_FAR } from "../../domain/clock-advance.js";
import { z } from "@hono/zod-openapi";
import { DURATION_PATTERN } from "../../domain/duration.js";
import { DEFAULTS } from "../../domain/merchant.js";
import { thousands } from "../../domain/money.js";
import { isoTime } from "../../domain/fields.js";
import { AT } from "../../http/demo-examples.js";
import { body, json } from "../../http/openapi.js";
import { routes, Success } from "../../http/route.js";
import { controlErrors, validationError } from "../errors.js";

const route = routes({ tags: ["Sandbox"] });

const ClockState = z
  .object({
    now: isoTime,
    mode: z.enum(["manual", "realtime"]),
    speed: z.number(),
    pending_timers: z.number().int(),
  })
  .openapi("Clock");

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

const TIMERS = "payout settlements, VTU settlements, pending transfers into virtual accounts, KYC approvals, webhook retries and delayed deliveries, and scenario timeline entries";

export const read = route({
  method: "get",
  path: "/clock",
  operationId: "getClock",
  summary: "The merchant's clock",
  description: `
The calling merchant's clock. Every merchant has its own, and every timestamp it writes (\`created_at\`,
\`processed_at\`, a webhook's \`sent_at\`...) is its time, not the wall clock's.

- \`now\`: the merchant's sim time.
- \`mode\`: \`manual\` (the default for merchants made through the control API) moves only with POST
  /sandbox/v1/clock/advance; \`realtime\` (the demo merchant) follows the wall clock, times \`speed\`.
- \`pending_timers\`: how many timers wait to fire: ${TIMERS}.

A realtime clock first fires the timers already due, so the answer never shows a state that should have moved on.
Change the mode or speed with PATCH /sandbox/v1/merchant (\`clock\`).`.trim(),
  responses: {
    200: json(Success({ data: ClockState }), "Current sim time and pending timers", {
      clock: { summary: "The demo merchant's realtime clock (one timer: its pending transfer)", value: { success: true, data: { now: AT, mode: "realtime", speed: 1, pending_timers: 1 } } },
    }),
    ...controlErrors(),
  },
});

const SETTLEMENT = DEFAULTS.delays.payout_settlement_seconds;
/** The demo merchant's clock `seconds` after the examples' time (nothing falls due on the way). */
const demoClockAfter = (seconds: number) => ({
  success: true,
  data: { now: new Date(Date.parse(AT) + seconds * 1000).toISOString(), mode: "realtime", speed: 1, pending_timers: 1, fired: 0 },
});

export const advance = route({
  method: "post",
  path: "/clock/advance",
  operationId: "advanceClock",
  summary: "Move the merchant's clock forward, firing every timer due on the way",
  description: `
Moves the calling merchant's clock forward and fires every timer due on the way, in time order: ${TIMERS}.
Before each timer fires, the clock is set to its due time, so the timestamps it writes are exact however far the
clock jumps, and timers that a firing timer schedules run too when they fall inside the window. Answers with the
new time and \`fired\`, the number of timers fired. This is how a test makes a payout settle, a KYC approve or a
payment link expire without waiting.

Send **exactly one** of (else 422):
- \`seconds\`: a number, 0 to ${thousands(MAX_ADVANCE_MS / 1000)} (${MAX_ADVANCE_YEARS} years);
- \`by\`: a duration: a number and a unit \`s\`, \`m\`, \`h\` or \`d\`, such as \`"15s"\`, \`"30m"\`, \`"2h"\`, \`"1.5d"\`;
- \`to\`: an ISO 8601 time at or after the merchant's current time.

The clock never goes back (a \`to\` in the past gets 422 on \`to\`), moves at most ${MAX_ADVANCE_YEARS} years per call, and never past
${CLOCK_END}. A timer due after that (a delay started near the end) never fires: what it would settle
stays as it is until a lever moves it.

The response waits for the webhook attempts already in flight and for those the fired timers cause, so once it
answers, the deliveries are in GET /sandbox/v1/webhook-deliveries: with a manual clock, \`{ "seconds": 0 }\` means
"wait for the webhooks in flight". Advances of one merchant run one after another, each from where the previous
one left.

A realtime clock (the demo merchant's) can be advanced too: it jumps forward for good and keeps running from the
new time.`.trim(),
  request: body(Advance, {
    thirtySeconds: { summary: `${SETTLEMENT} seconds: a payout's default settlement delay`, value: { seconds: SETTLEMENT } },
    byDuration: { summary: "Two hours, as a duration", value: { by: "2h" } },
    twoGiven: { summary: "More than one of seconds, by and to", value: { seconds: 30, by: "30m" } },
    backwards: { summary: "A time before the merchant's current time", value: { to: "2026-01-01T00:00:00Z" } },
  }),
  responses: {
    200: json(Success({ data: ClockState.extend({ fired: z.number().int() }) }), "The new time and how many timers fired", {
      thirtySeconds: { summary: "The new time; nothing was due on the demo merchant", value: demoClockAfter(SETTLEMENT) },
      byDuration: { summary: "The new time", value: demoClockAfter(2 * 3600) },
    }),
    ...controlErrors({
      422: {
        twoGiven: validationError("Exactly one of seconds, by or to", "body", "Send exactly one of seconds, by or to."),
        backwards: validationError("The clock never goes back", "to", BACKWARDS),
        tooFar: validationError(`More than ${MAX_ADVANCE_YEARS} years in one call`, "by", TOO_FAR),
      },
    }),
  },
});
