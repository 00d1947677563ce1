/**
 * Payouts in the control API: the levers an admin or the bank would pull (approve or reject a held
 * payout, complete or fail a processing one; any other state is 409 INVALID_STATE), and the paged list.
 * Defaults, thresholds and magic endings the text states are read from the domain; examples are real bodies.
 */
import { z } from "@hono/zod-openapi";
import { text } from "../../domain/fields.js";
import { DEFAULT_LIMITS } from "../../domain/limits.js";
import { DEFAULTS } from "../../domain/merchant.js";
import { thousands } from "../../domain/money.js";
import { PAYOUT_MAGIC } from "../../domain/outcomes.js";
import { PayoutStatusSchema } from "../../domain/payouts.js";
import { AT, DEMO, DEMO_HELD_PAYOUT, DEMO_PROCESSING_PAYOUT } from "../../http/demo-examples.js";
import { errorExample, examples, invalidExample, json, type Examples } from "../../http/openapi.js";
import { routes, Success } from "../../http/route.js";
import { MAX_PER_PAGE } from "../../http/paging.js";
import { controlErrors, validationError } from "../errors.js";
import { badStatus, codes, fromAfterTo, listDescription, listFields, listQuery, listRoute, pageOf, timeRange } from "../lists.js";

const route = routes({ tags: ["Sandbox"] });

const UNKNOWN_PAYOUT = "no-such-payout";
const REASON_MAX = 200;
const Reason = z.object({ reason: text(REASON_MAX).optional() }).openapi("TransitionReason");

/** Magic account endings (domain/outcomes.ts), highest first: those that fail at settlement, and the one held processing until forced. */
const endings = (keep: (m: (typeof PAYOUT_MAGIC)[string]) => boolean) => codes(Object.keys(PAYOUT_MAGIC).filter((e) => keep(PAYOUT_MAGIC[e]!)).reverse());
const FAILING_ENDINGS = endings((m) => m.outcome === "failed" && m.delay_ms === undefined && m.queries === undefined);
const HELD_ENDINGS = endings((m) => m.outcome === "hold");

// ---- The pieces every payout lever shares ----------------------------------------------------------

const COMMON = `
- \`reference\`: the payout's reference (the one sent to POST /api/v1/payout/transfer, or generated), of the
  calling merchant; else 404 \`NOT_FOUND\`.
- A payout in any other state gets 409 \`INVALID_STATE\`, and the message names its state.
- Answers with the payout's full record, as GET /api/v1/payout/status shows it.`.trim();

/**
 * What a lever takes: approve and reject a payout held for review, complete and fail a processing one. Each
 * documents the demo payout it moves, and the other demo payout as the one in the wrong state.
 */
interface Takes {
  state: string;
  payout: string;
  summary: string;
  other: string;
  otherPayout: string;
  otherSummary: string;
}
const ON_HELD: Takes = {
  state: "pending_approval",
  payout: DEMO.heldPayout,
  summary: "The demo's payout held for review",
  other: "processing",
  otherPayout: DEMO.processingPayout,
  otherSummary: "A payout already processing",
};
const ON_PROCESSING: Takes = {
  state: "processing",
  payout: DEMO.processingPayout,
  summary: "The demo's payout held processing",
  other: "pending_approval",
  otherPayout: DEMO.heldPayout,
  otherSummary: "A payout still pending_approval",
};

/** The path's reference (the lever's success under `name`, an unknown one, one in the wrong state) and the optional reason. */
const leverRequest = (on: Takes, name: string, reason: Examples) => ({
  params: z.object({
    reference: examples(z.string().min(1).max(100), {
      [name]: { summary: on.summary, value: on.payout },
      notFound: { summary: "No payout with this reference", value: UNKNOWN_PAYOUT },
      invalidState: { summary: on.otherSummary, value: on.otherPayout },
    }),
  }),
  body: { required: false, content: { "application/json": { schema: Reason, examples: reason } } },
});
const NO_BODY = { summary: "No body needed", value: {} };
const noReason = (name: string): Examples => ({ [name]: NO_BODY, notFound: NO_BODY, invalidState: NO_BODY });

/** The answer of a lever: the payout's full record, or its refusals. */
const leverResponses = (on: Takes, action: string, named: Examples) => ({
  200: json(Success({ data: PayoutStatusSchema }), "The payout's full record (as GET /api/v1/payout/status)", named),
  ...controlErrors({
    404: { notFound: errorExample("No payout with this reference", "NOT_FOUND", `No payout with reference ${UNKNOWN_PAYOUT}.`) },
    409: {
      invalidState: errorExample(
        `Only a ${on.state} payout can be ${action}`,
        "INVALID_STATE",
        `Payout ${on.otherPayout} is ${on.other}; only a ${on.state} payout can be ${action}.`,
      ),
    },
    422: { validationError: validationError("A reason that is not a string", "reason", "Invalid input: expected string, received number") },
  }),
});

/** A demo payout's full status record: the held one or the processing one, in `status`. */
const payoutRecord = (held: boolean, status: string, processed: boolean, error: string | null) => ({
  success: true,
  data: { ...(held ? DEMO_HELD_PAYOUT : DEMO_PROCESSING_PAYOUT), status, processed_at: processed ? AT : null, source: "api", error },
});

// ---- The levers ------------------------------------------------------------------------------------

export const approve = route({
  method: "post",
  path: "/payouts/{reference}/approve",
  operationId: "approvePayout",
  summary: "Approve a payout held for review (pending_approval -> processing)",
  description: `
Approves a payout held for review, as an admin of the service would: \`pending_approval\` -> \`processing\`. A payout
is held when its amount is at or above \`limits.payout_review_threshold\` (NGN ${thousands(DEFAULT_LIMITS.payout_review_threshold)} by default). The wallet was
debited (\`total_deducted\`) when the payout was created, so approval moves no money.

From approval the payout settles like any other, after \`delays.payout_settlement_seconds\` of sim time (${DEFAULTS.delays.payout_settlement_seconds} by
default): \`completed\` with a \`payout.completed\` webhook, or \`failed\` with its funds returned and a
\`payout.failed\` webhook, as decided when it was created (outcome rules first, then the sandbox's magic account
numbers: ending ${FAILING_ENDINGS} fails, ending ${HELD_ENDINGS} stays \`processing\` until forced). With a manual clock,
move time with POST /sandbox/v1/clock/advance; or settle it now with the complete or fail lever.

${COMMON}
- The optional body's \`reason\` is not used here: only reject and fail record one.

Demo merchant: \`${DEMO.heldPayout}\` (NGN 1,500,000) is \`pending_approval\`.`.trim(),
  request: leverRequest(ON_HELD, "approveHeld", noReason("approveHeld")),
  responses: leverResponses(ON_HELD, "approved", {
    approveHeld: { summary: "Approved: processing, settles after the settlement delay", value: payoutRecord(true, "processing", false, null) },
  }),
});

export const reject = route({
  method: "post",
  path: "/payouts/{reference}/reject",
  operationId: "rejectPayout",
  summary: "Reject a held payout (pending_approval -> failed, funds returned)",
  description: `
Rejects a payout held for review, as an admin of the service would: \`pending_approval\` -> \`failed\`, at once.
\`total_deducted\` (amount + fee) goes back to the wallet as one \`payout_reversal\` ledger entry, \`error\` is set
to \`reason\` (default \`Rejected by an administrator\`), \`processed_at\` is the merchant's current time, the amount
stops counting toward the hourly and daily payout limits (the attempt still counts), and a \`payout.failed\`
webhook is sent.

${COMMON}
- \`reason\` (optional, 1 to ${REASON_MAX} characters): recorded as the payout's \`error\`.

Demo merchant: \`${DEMO.heldPayout}\` is \`pending_approval\`.`.trim(),
  request: leverRequest(ON_HELD, "rejectHeld", {
    rejectHeld: { summary: "Reject with a reason", value: { reason: "Beneficiary details do not match the invoice" } },
    notFound: NO_BODY,
    invalidState: NO_BODY,
  }),
  responses: leverResponses(ON_HELD, "rejected", {
    rejectHeld: { summary: "Failed, with the reason as error; funds returned", value: payoutRecord(true, "failed", true, "Beneficiary details do not match the invoice") },
  }),
});

export const complete = route({
  method: "post",
  path: "/payouts/{reference}/complete",
  operationId: "completePayout",
  summary: "Bank confirms delivery now (processing -> completed)",
  description: `
The bank confirms delivery now: \`processing\` -> \`completed\`, whatever outcome was planned for it. \`processed_at\`
is the merchant's current time, the settlement timer is cancelled and a \`payout.completed\` webhook is sent. No
money moves: the wallet was debited when the payout was created.

Use it to settle a payout without moving the clock, or to complete one that stays \`processing\` until forced (in
the sandbox: an account number ending ${HELD_ENDINGS}, or a \`payout\` outcome rule \`processing\`).

${COMMON}
- The optional body's \`reason\` is not used here.

Demo merchant: \`${DEMO.processingPayout}\` is \`processing\` until forced.`.trim(),
  request: leverRequest(ON_PROCESSING, "completeProcessing", noReason("completeProcessing")),
  responses: leverResponses(ON_PROCESSING, "completed", { completeProcessing: { summary: "Completed now", value: payoutRecord(false, "completed", true, null) } }),
});

export const fail = route({
  method: "post",
  path: "/payouts/{reference}/fail",
  operationId: "failPayout",
  summary: "Bank reports failure now (processing -> failed, funds returned)",
  description: `
The bank reports failure now: \`processing\` -> \`failed\`, whatever outcome was planned for it. \`total_deducted\`
(amount + fee) goes back to the wallet as one \`payout_reversal\` ledger entry, \`error\` is set to \`reason\` (default:
the planned failure's message, else \`Transfer failed at the beneficiary bank\`), \`processed_at\` is the merchant's
current time, the settlement timer is cancelled, the amount stops counting toward the hourly and daily payout
limits (the attempt still counts), and a \`payout.failed\` webhook is sent.

${COMMON}
- \`reason\` (optional, 1 to ${REASON_MAX} characters): recorded as the payout's \`error\`.

Demo merchant: \`${DEMO.processingPayout}\` is \`processing\` until forced.`.trim(),
  request: leverRequest(ON_PROCESSING, "failProcessing", {
    failProcessing: { summary: "Fail with the bank's reason", value: { reason: "Beneficiary account is dormant" } },
    notFound: NO_BODY,
    invalidState: NO_BODY,
  }),
  responses: leverResponses(ON_PROCESSING, "failed", {
    failProcessing: { summary: "Failed now, with the reason as error; funds returned", value: payoutRecord(false, "failed", true, "Beneficiary account is dormant") },
  }),
});

// ---- The list --------------------------------------------------------------------------------------

/** The spec's payout states; `pending` is never held by the sandbox, so it lists none. */
const STATUSES = PayoutStatusSchema.shape.status.options;
const processing = payoutRecord(false, "processing", false, null).data;
const held = payoutRecord(true, "pending_approval", false, null).data;

export const list = listRoute({
  path: "/payouts",
  operationId: "listPayouts",
  summary: "List the merchant's payouts, newest first (paged; filter by status, time, reference)",
  description:
    listDescription(
      "payouts",
      "GET /api/v1/payout/status",
      `one of the payout states, ${codes(STATUSES, ", ")} (\`pending\` is the spec's; the sandbox never holds a payout in it, so it lists none).`,
    ) + `\n\nDemo merchant: \`${DEMO.processingPayout}\` (\`processing\`) and, before it, \`${DEMO.heldPayout}\` (\`pending_approval\`).`,
  query: listQuery(
    listFields(STATUSES, "Payouts", {
      page: { newest: { summary: "The first page", value: 1 }, pageTwo: { summary: "The second page", value: 2 } },
      per_page: { pageTwo: { summary: "One payout per page", value: 1 } },
      status: { processing: { summary: "Payouts still processing", value: "processing" } },
      ...timeRange("today", "Payouts created on 2 March 2026 (the demo's day)"),
      reference: { byReference: { summary: "The payout with this reference", value: DEMO.heldPayout } },
    }),
  ),
  item: PayoutStatusSchema,
  responses: {
    newest: { summary: "Every payout, newest first", value: pageOf([processing, held]) },
    pageTwo: { summary: "The second of two pages of one", value: pageOf([held], 2, 2, 1) },
    processing: { summary: "The one processing payout", value: pageOf([processing]) },
    today: { summary: "The payouts of that day", value: pageOf([processing, held]) },
    byReference: { summary: "The payout held for review", value: pageOf([held]) },
  },
  errors: {
    422: {
      badStatus: badStatus(STATUSES),
      fromAfterTo,
      tooManyPerPage: invalidExample(`A page larger than ${MAX_PER_PAGE}`, { per_page: [`Must be a whole number from 1 to ${MAX_PER_PAGE}.`] }),
    },
  },
});
