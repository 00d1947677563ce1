/**
 * What the OpenAPI document says about outcome rules: descriptions and examples (real bodies; see
 * control-docs.ts for the contract they keep).
 */
import { errorExample, type Examples } from "../http/openapi.js";
import { AT, DEMO } from "../http/demo-examples.js";
import { validationError } from "./errors.js";

// ---- POST /sandbox/v1/outcomes -------------------------------------------------------------------

export const CREATE_DESCRIPTION = `
Adds an outcome rule: how the next matching objects of the calling merchant end, in place of the sandbox's
defaults and magic values. A rule is looked up when an object is created (a payout, a VTU purchase, a cardholder,
an account verification, a card funding), when a bank is asked (name enquiry, transfer), when a money-moving
operation has been made and is about to answer, or when a webhook attempt is made, so it never changes objects that
already exist. The newest matching rule wins. Answers 201 with the rule and its \`id\` (\`rule_N\`).

| \`target\` | \`outcome\` | \`delay_seconds\` | Fields \`match\` can use |
|---|---|---|---|
| \`payout\` | \`completed\`, \`failed\` (funds returned), \`processing\` (held until forced) | Settlement delay (sim time) | \`reference\`, \`amount\`, \`bank_code\`, \`account_number\`, \`account_name\`, \`bank_name\`, \`narration\` |
| \`vtu\` | \`success\`, \`fail\` (at once, refunded), \`processing_success\`, \`processing_fail\`, \`processing\` (held until forced) | When processing settles (sim time) | \`service\`, \`amount\`, \`phone\`, \`network\`, \`airtime_type\`, \`data_plan_id\`, \`provider_name\`, \`cable_plan_id\`, \`smart_card_number\`, \`disco_id\`, \`meter_number\`, \`meter_type\`, \`exam_type_id\`, \`quantity\` |
| \`kyc\` | \`approved\`, \`pending\` (never approves by itself) | KYC delay (sim time) | \`email\`, \`first_name\`, \`last_name\`, \`phone\` |
| \`verify_account\` | \`not_found\` (422 \`INVALID_ACCOUNT\`), \`timeout\` (504 \`GATEWAY_TIMEOUT\`, no name): for an enquiry, and for the enquiry a transfer makes before any debit | For \`timeout\`: wall-clock seconds before the 504 (default 0, at most 120) | \`bank_code\`, \`account_number\` |
| \`bank\` | \`down\`: name enquiries and transfers to the bank get 503 \`BANK_UNAVAILABLE\`, nothing debited; \`retry_after\` is the rest of \`window_seconds\` | (none) | \`bank_code\` |
| \`response\` | After the change is made and saved: \`connection_reset\` (no answer), \`slow_response\` (the answer, late), \`server_error\` (500 \`INTERNAL_ERROR\`), \`gateway_timeout\` (504 \`GATEWAY_TIMEOUT\`) | Wall-clock seconds before it happens (default 45 for \`slow_response\`, else 0; at most 120) | \`operation\` (\`createPayout\`, \`buyAirtime\`, \`buyData\`, \`payCable\`, \`buyElectricity\`, \`buyExamPins\`, \`fundVirtualCard\`, \`unloadVirtualCard\`), the request's body fields and path parameters (\`id\`) |
| \`card_fund\` | \`failed\` (422 \`CARD_FUNDING_FAILED\`, nothing charged) | (none) | \`card_id\`, \`amount\` (USD) |
| \`webhook\` | \`duplicate\`, \`delay\`, \`out_of_order\`, \`bad_signature\`, \`drop\` | The wait of \`delay\` (default 60, sim time) | \`event\` |

- \`match\` (optional, at most 20 fields): values the request must have, compared as text and case-insensitively
  (\`{ "amount": 5000 }\` matches 5000, \`{ "network": "MTN" }\` matches \`mtn\`). A field the target does not have
  never matches. Without \`match\`, the rule applies to every object of its target.
- \`outcome\`: one of its target's (else 422 on \`outcome\`).
- \`delay_seconds\` (optional, 0 to 31,536,000): replaces the merchant's delay for the matching object.
- \`times\` (optional, 1 to 1,000,000): uses before the rule removes itself. Without it the rule lasts until deleted.
- \`window_seconds\` (optional, 1 to 31,536,000): the rule applies only for this long from its creation, on the merchant's
  clock (\`active_until\` in the answer); after that it never matches again. Without it the rule lasts until deleted.
- \`queries\` (optional, 1 to 1,000; payout \`completed\` or \`failed\`, vtu \`processing_success\` or \`processing_fail\`):
  the object stays \`processing\` until its status is read that many times (\`GET /api/v1/payout/status\`,
  \`GET /api/v1/vtu/transaction/status\`); that read settles it, with the same ledger entries and webhook as a settlement by
  time. Not with \`delay_seconds\`.
- A merchant holds at most 100 rules: beyond, 422 (delete some with DELETE /sandbox/v1/outcomes).

**The merchant's side of an ambiguous outcome.** After a lost, late or 5xx answer to a payout, query its status by the
reference it was sent with, and never send it again with a new reference (the same reference gets 409). A \`processing\`
payout may still fail hours later (its \`payout.failed\` webhook returns the funds). A name enquiry that times out is
retried before any transfer; a bank that is down is retried after \`retry_after\`.

Webhook faults apply to the attempts the sandbox makes by itself (first attempts and retries), not to
redeliveries. Rules belong to one merchant, and POST /sandbox/v1/reset clears them.`.trim();

export const CREATE_BODY_EXAMPLES: Examples = {
  failOnePayout: {
    summary: "The next payout to account 0123456789 fails at settlement",
    value: { target: "payout", match: { account_number: "0123456789" }, outcome: "failed", times: 1 },
  },
  slowAirtime: {
    summary: "Airtime purchases stay processing for 2 minutes, then fail (refunded)",
    value: { target: "vtu", match: { service: "airtime" }, outcome: "processing_fail", delay_seconds: 120 },
  },
  duplicateWebhook: {
    summary: "The next payout.completed webhook is delivered twice",
    value: { target: "webhook", match: { event: "payout.completed" }, outcome: "duplicate", times: 1 },
  },
  lostAnswer: {
    summary: "The next transfer is made, then its connection is reset with no answer",
    value: { target: "response", match: { operation: "createPayout" }, outcome: "connection_reset", times: 1 },
  },
  bankDown: {
    summary: "Guaranty Trust Bank (058) is down for 10 minutes of the merchant's clock",
    value: { target: "bank", match: { bank_code: "058" }, outcome: "down", window_seconds: 600 },
  },
  settleOnStatusRead: {
    summary: "The next payout stays processing until its status is read 3 times, then completes",
    value: { target: "payout", outcome: "completed", queries: 3, times: 1 },
  },
  invalidOutcome: {
    summary: "An outcome the target does not have",
    value: { target: "payout", outcome: "exploded" },
  },
};

const rule = (
  id: string,
  target: string,
  match: Record<string, unknown> | null,
  outcome: string,
  delay_seconds: number | null,
  times: number | null,
  more: { window_seconds?: number; queries?: number; active_until?: string } = {},
) => ({
  success: true,
  data: { id, target, match, outcome, delay_seconds, times, window_seconds: more.window_seconds ?? null, queries: more.queries ?? null, created_at: AT, active_until: more.active_until ?? null },
});

export const CREATE_RESPONSE_EXAMPLES: Examples = {
  failOnePayout: { summary: "The rule, used once", value: rule("rule_2", "payout", { account_number: "0123456789" }, "failed", null, 1) },
  slowAirtime: { summary: "The rule, until deleted", value: rule("rule_2", "vtu", { service: "airtime" }, "processing_fail", 120, null) },
  duplicateWebhook: { summary: "The webhook fault, used once", value: rule("rule_2", "webhook", { event: "payout.completed" }, "duplicate", null, 1) },
  lostAnswer: { summary: "The answer fault, used once", value: rule("rule_2", "response", { operation: "createPayout" }, "connection_reset", null, 1) },
  bankDown: {
    summary: "The outage, with the end of its window",
    value: rule("rule_2", "bank", { bank_code: "058" }, "down", null, null, { window_seconds: 600, active_until: "2026-03-02T09:10:00.000Z" }),
  },
  settleOnStatusRead: { summary: "The rule, used once", value: rule("rule_2", "payout", null, "completed", null, 1, { queries: 3 }) },
};

export const CREATE_ERRORS = {
  422: {
    invalidOutcome: validationError("Not an outcome of the target", "outcome", "For target payout the outcome must be one of: completed, failed, processing."),
    queriesWithDelay: validationError(
      "queries and delay_seconds together",
      "queries",
      "Give queries or delay_seconds, not both: the object settles on its Nth status read, or after the delay.",
    ),
    responseDelayTooLong: validationError(
      "A response held back longer than 120 s",
      "delay_seconds",
      "For target response, delay_seconds is wall-clock time the reply is held back: at most 120.",
    ),
    tooManyRules: validationError(
      "The merchant already holds 100 rules",
      "target",
      "A merchant holds at most 100 outcome rules: delete some first (DELETE /sandbox/v1/outcomes).",
    ),
  },
};

// ---- GET /sandbox/v1/outcomes --------------------------------------------------------------------

export const LIST_DESCRIPTION = `
The calling merchant's outcome rules, oldest first (the newest matching one wins). \`times\` shows the uses left
(null: until deleted); a rule whose uses are spent is gone from the list. \`match\` is null for a rule that applies
to every object of its target.`.trim();

export const LIST_RESPONSE_EXAMPLES: Examples = {
  rules: {
    summary: "The demo merchant's rule: payouts with reference will-fail fail at settlement",
    value: { success: true, data: [rule(DEMO.rule, "payout", { reference: "will-fail" }, "failed", null, null).data] },
  },
};

// ---- DELETE /sandbox/v1/outcomes -----------------------------------------------------------------

export const CLEAR_DESCRIPTION = `
Deletes every outcome rule of the calling merchant, so objects created from now on end by the sandbox's defaults
and magic values again. Objects that already exist keep the outcome decided when they were created. The message
says how many rules were deleted (0 is not an error).`.trim();

export const CLEAR_RESPONSE_EXAMPLES: Examples = {
  cleared: { summary: "The demo merchant's one rule deleted", value: { success: true, message: "1 outcome rule(s) deleted" } },
};

// ---- DELETE /sandbox/v1/outcomes/{id} ------------------------------------------------------------

export const DELETE_DESCRIPTION = `
Deletes one outcome rule of the calling merchant, by its \`id\` (\`rule_N\`, from POST or GET /sandbox/v1/outcomes).
Objects that already exist keep the outcome decided when they were created. An unknown id gets 404 \`NOT_FOUND\`.`.trim();

export const DELETE_PARAM_EXAMPLES: Examples = {
  deleteRule: { summary: "The demo merchant's rule", value: DEMO.rule },
  notFound: { summary: "No rule with this id", value: "rule_99" },
};

export const DELETE_RESPONSE_EXAMPLES: Examples = {
  deleteRule: { summary: "Deleted", value: { success: true, message: "Outcome rule deleted" } },
};

export const DELETE_ERRORS = {
  404: { notFound: errorExample("No rule with this id", "NOT_FOUND", "No outcome rule rule_99.") },
};
