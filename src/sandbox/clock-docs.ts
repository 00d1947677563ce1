/**
 * What the OpenAPI document says about the merchant's clock and reset: descriptions and examples
 * (real bodies; see control-docs.ts for the contract they keep).
 */
import type { Examples } from "../http/openapi.js";
import { AT } from "../http/demo-examples.js";
import { validationError } from "./errors.js";
import { DEMO_MERCHANT } from "./merchants-docs.js";

const TIMERS = "payout settlements, VTU settlements, pending transfers into virtual accounts, KYC approvals, webhook retries and delayed deliveries, and scenario timeline entries";

// ---- GET /sandbox/v1/clock -----------------------------------------------------------------------

export const READ_DESCRIPTION = `
The calling merchant's clock. Every merchant has its own, and every timestamp it writes (\`created_at\`,
\`processed_at\`, a webhook's \`sent_at\`...) is its time, not the wall clock's.

- \`now\`: the merchant's sim time.
- \`mode\`: \`manual\` (the default for merchants made through the control API) moves only with POST
  /sandbox/v1/clock/advance; \`realtime\` (the demo merchant) follows the wall clock, times \`speed\`.
- \`pending_timers\`: how many timers wait to fire: ${TIMERS}.

A realtime clock first fires the timers already due, so the answer never shows a state that should have moved on.
Change the mode or speed with PATCH /sandbox/v1/merchant (\`clock\`).`.trim();

export const READ_RESPONSE_EXAMPLES: Examples = {
  clock: { summary: "The demo merchant's realtime clock (one timer: its pending transfer)", value: { success: true, data: { now: AT, mode: "realtime", speed: 1, pending_timers: 1 } } },
};

// ---- POST /sandbox/v1/clock/advance --------------------------------------------------------------

export const ADVANCE_DESCRIPTION = `
Moves the calling merchant's clock forward and fires every timer due on the way, in time order: ${TIMERS}.
Before each timer fires, the clock is set to its due time, so the timestamps it writes are exact however far the
clock jumps, and timers that a firing timer schedules run too when they fall inside the window. Answers with the
new time and \`fired\`, the number of timers fired. This is how a test makes a payout settle, a KYC approve or a
payment link expire without waiting.

Send **exactly one** of (else 422):
- \`seconds\`: a number, 0 to 315,360,000 (10 years);
- \`by\`: a duration: a number and a unit \`s\`, \`m\`, \`h\` or \`d\`, such as \`"15s"\`, \`"30m"\`, \`"2h"\`, \`"1.5d"\`;
- \`to\`: an ISO 8601 time at or after the merchant's current time.

The clock never goes back (a \`to\` in the past gets 422 on \`to\`), moves at most 10 years per call, and never past
9998-12-31T23:59:59.999Z. A timer due after that (a delay started near the end) never fires: what it would settle
stays as it is until a lever moves it.

The response waits for the webhook attempts already in flight and for those the fired timers cause, so once it
answers, the deliveries are in GET /sandbox/v1/webhook-deliveries: with a manual clock, \`{ "seconds": 0 }\` means
"wait for the webhooks in flight". Advances of one merchant run one after another, each from where the previous
one left.

A realtime clock (the demo merchant's) can be advanced too: it jumps forward for good and keeps running from the
new time.`.trim();

export const ADVANCE_BODY_EXAMPLES: Examples = {
  thirtySeconds: { summary: "30 seconds: a payout's default settlement delay", value: { seconds: 30 } },
  byDuration: { summary: "Two hours, as a duration", value: { by: "2h" } },
  twoGiven: { summary: "More than one of seconds, by and to", value: { seconds: 30, by: "30m" } },
  backwards: { summary: "A time before the merchant's current time", value: { to: "2026-01-01T00:00:00Z" } },
};

export const ADVANCE_RESPONSE_EXAMPLES: Examples = {
  thirtySeconds: {
    summary: "The new time; nothing was due on the demo merchant",
    value: { success: true, data: { now: "2026-03-02T09:00:30.000Z", mode: "realtime", speed: 1, pending_timers: 1, fired: 0 } },
  },
  byDuration: {
    summary: "The new time",
    value: { success: true, data: { now: "2026-03-02T11:00:00.000Z", mode: "realtime", speed: 1, pending_timers: 1, fired: 0 } },
  },
};

export const ADVANCE_ERRORS = {
  422: {
    twoGiven: validationError("Exactly one of seconds, by or to", "body", "Send exactly one of seconds, by or to."),
    backwards: validationError("The clock never goes back", "to", "The clock never goes backwards: give a time at or after the current sim time."),
    tooFar: validationError("More than 10 years in one call", "by", "At most 10 years at a time."),
  },
};

// ---- POST /sandbox/v1/reset ----------------------------------------------------------------------

export const RESET_DESCRIPTION = `
Empties the calling merchant and starts it over: a clean slate between tests without new keys. Gone: the ledger,
every object (virtual accounts and their payments, payment links, payouts, VTU purchases, cardholders, cards and
their transactions), the events and webhook deliveries, the outcome rules, the pending timers, the rate-limit windows
and the incidents; the account numbers and link references it held are released, and cardholder and card ids
start from 1 again. Kept: the keys, every setting and the clock (which does not go back). No webhook is sent.

The body is optional. \`wallet_balance\` (Naira, at least 0, at most two decimals) funds the new wallet with one
\`wallet_funding\` ledger entry; without it the wallet starts at 0. Answers with the merchant, as GET
/sandbox/v1/merchant shows it.

**On the demo merchant** (as /docs "try it" calls it) this removes the sample activity: the demo's virtual
account, payment link, payouts, VTU purchase, cardholders, cards and outcome rule no longer exist. They come back
only when the demo merchant is created again: at the next start without \`--data\`; with \`--data\` the demo is
restored from its file as it now is, unless the merchant was deleted (DELETE /sandbox/v1/merchant).`.trim();

export const RESET_BODY_EXAMPLES: Examples = {
  resetFunded: { summary: "Start over with NGN 100,000", value: { wallet_balance: 100000 } },
  resetEmpty: { summary: "Start over with an empty wallet", value: {} },
  tooManyDecimals: { summary: "An opening balance with three decimals", value: { wallet_balance: 100.555 } },
};

export const RESET_RESPONSE_EXAMPLES: Examples = {
  resetFunded: { summary: "The merchant, its wallet at NGN 100,000", value: { success: true, data: { ...DEMO_MERCHANT, wallet_balance: 100000 } } },
  resetEmpty: { summary: "The merchant, its wallet empty", value: { success: true, data: { ...DEMO_MERCHANT, wallet_balance: 0 } } },
};

export const RESET_ERRORS = {
  422: { tooManyDecimals: validationError("Amounts have at most two decimals", "wallet_balance", "Must have at most two decimal places.") },
};
