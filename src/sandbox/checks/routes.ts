/**
 * The integration checks' contract (domain/checks.ts): the report over the merchant's request log,
 * webhook answers and reported credits, and the merchant's own view of the payments it credited. Rule
 * names, counts and thresholds are read from the rule catalogue; the example is the demo merchant's report.
 */
import { inWords } from "../../domain/prose.js";
import { z } from "@hono/zod-openapi";
import { MAX_DELIVERIES } from "../../domain/bounds.js";
import { MAX_EVIDENCE } from "../../domain/check-rule.js";
import { CHECK_RULES, CHECK_STATUSES, CreditReportInput, MAX_REPORTED_CREDITS, SEVERITIES, type CheckStatus } from "../../domain/checks.js";
import { POLL_PACE_SECONDS } from "../../domain/checks-requests.js";
import { WEBHOOK_ANSWER_SECONDS } from "../../domain/checks-webhooks.js";
import { isoTime } from "../../domain/fields.js";
import { thousands } from "../../domain/money.js";
import { AT, DEMO_LOG } from "../../http/demo-examples.js";
import { body, json } from "../../http/openapi.js";
import { routes, Success } from "../../http/route.js";
import { controlErrors, validationError } from "../errors.js";

const route = routes({ tags: ["Sandbox"] });

/** A rule's id, checked against the catalogue: a rule renamed or removed fails at load, not in the text. */
function known(id: string): string {
  if (!CHECK_RULES.some((r) => r.id === id)) throw new Error(`No integration check ${id}.`);
  return id;
}
const ruleId = (id: string) => `\`${known(id)}\``;

/** The rules that judge the credit report: not applicable until one is made. */
const CREDIT_RULES = ["transaction-credited-twice", "delivered-payment-not-credited", "credit-without-payment"].map(known);

const RequestEvidence = z.object({
  seq: z.number().int().openapi({ description: "The request's seq in the request log (GET /sandbox/v1/requests/{seq})" }),
  method: z.string(),
  path: z.string(),
  status: z.number().int().nullable().openapi({ description: "null: the connection was reset, no answer" }),
  error_code: z.string().nullable(),
  at: isoTime.openapi({ description: "When it arrived, on the merchant's clock" }),
  note: z.string().openapi({ description: "What this request did wrong, in one line" }),
});

const DeliveryEvidence = z.object({
  id: z.string().openapi({ description: "The delivery's id (GET /sandbox/v1/webhook-deliveries)" }),
  event_id: z.string(),
  event_type: z.string(),
  status_code: z.number().int().nullable(),
  sent_at: isoTime,
  note: z.string(),
});

const CheckResult = z
  .object({
    id: z.string().openapi({ description: "Stable, kebab-case" }),
    title: z.string(),
    severity: z.enum(SEVERITIES),
    rationale: z.string().openapi({ description: "Why it matters: the spec's rule, or how Nigerian integrations fail" }),
    status: z.enum(CHECK_STATUSES).openapi({ description: "fired, passed (there was something to judge and nothing was wrong) or not_applicable (nothing to judge yet)" }),
    occurrences: z.number().int().openapi({ description: `How many times it fired; the evidence lists the first ${MAX_EVIDENCE} of each kind` }),
    evidence: z.object({
      requests: z.array(RequestEvidence),
      deliveries: z.array(DeliveryEvidence),
      transactions: z.array(z.object({ transaction_id: z.string(), note: z.string() })),
    }),
  })
  .openapi("IntegrationCheck");

const Report = z
  .object({
    summary: z.object({
      verdict: z.enum(["pass", "fail"]).openapi({ description: "fail when a rule of severity error fired" }),
      rules: z.number().int(),
      fired: z.number().int(),
      passed: z.number().int(),
      not_applicable: z.number().int(),
      errors: z.number().int().openapi({ description: "Fired rules of severity error" }),
      warnings: z.number().int(),
      infos: z.number().int(),
    }),
    examined: z.object({
      request_log: z.boolean().openapi({ description: "false when the request log is off (--request-log 0): the request rules are then not_applicable" }),
      requests: z.number().int(),
      first_request_seq: z.number().int().nullable().openapi({ description: "The oldest request the log still holds: older ones were dropped and are not judged" }),
      deliveries: z.number().int(),
      events: z.number().int(),
      credits_reported: z.number().int().nullable().openapi({ description: "Entries of the last credit report, or null when none was made" }),
    }),
    rules: z.array(CheckResult).openapi({ description: "Fired rules first (errors, then warnings, then infos), then passed, then not applicable" }),
  })
  .openapi("IntegrationChecks");

// ---- GET /sandbox/v1/checks ----------------------------------------------------------------------

/**
 * What the demo's sample activity (fixtures/demo-activity.json), a model integration, gave the rules
 * to judge: each passes; every other rule is not applicable.
 */
const DEMO_PASSED = new Set([
  "transfer-to-unverified-account",
  "amount-with-more-than-two-decimals",
  "secret-key-in-browser",
  "request-from-ip-not-allowlisted",
  "transfer-names-not-from-lookups",
  "transfer-without-own-reference",
  "webhook-receiver-missing",
]);

const demoRule = ({ id, title, severity, rationale }: (typeof CHECK_RULES)[number]) => {
  const status: CheckStatus = DEMO_PASSED.has(id) ? "passed" : "not_applicable";
  return { id, title, severity, rationale, status, occurrences: 0, evidence: { requests: [], deliveries: [], transactions: [] } };
};

/** GET /sandbox/v1/checks for the demo merchant as `npm start` makes it (test/sandbox/checks.test.ts compares them). */
export const DEMO_CHECKS_REPORT = {
  success: true,
  data: {
    summary: { verdict: "pass", rules: CHECK_RULES.length, fired: 0, passed: DEMO_PASSED.size, not_applicable: CHECK_RULES.length - DEMO_PASSED.size, errors: 0, warnings: 0, infos: 0 },
    examined: { request_log: true, requests: DEMO_LOG.length, first_request_seq: 1, deliveries: 1, events: 1, credits_reported: null },
    rules: CHECK_RULES.map(demoRule).sort((a, b) => CHECK_STATUSES.indexOf(a.status) - CHECK_STATUSES.indexOf(b.status)),
  },
};

export const getChecks = route({
  method: "get",
  path: "/checks",
  operationId: "getIntegrationChecks",
  summary: "Grade the merchant's integration: rules over its requests, its webhook answers and its credits",
  description: `
Grades the calling merchant's integration: each rule judges what its code did, as the sandbox saw it. The rules
read the request log (every \`/api/v1\` request and its answer, GET /sandbox/v1/requests), the webhook deliveries
with the receiver's answers, the events, and the credits the merchant reported (PUT /sandbox/v1/checks/credits).

Each rule has a stable \`id\`, a \`severity\` (\`error\`: money or security at stake; \`warning\`: it will fail in
production; \`info\`: wasted work), a one-line \`rationale\`, and a \`status\`: \`fired\` (with \`occurrences\` and the
evidence: the requests by \`seq\`, the deliveries by \`id\`, the transaction ids), \`passed\` (there was something to
judge and nothing was wrong) or \`not_applicable\` (nothing to judge yet: no payout made, no delivery to a
\`webhook_url\`, no credit report). \`summary.verdict\` is \`fail\` when a rule of severity \`error\` fired:
\`merchant-sandbox check\` exits 1 then.

Some of the rules:

- ${ruleId("transfer-to-unverified-account")}: a transfer with no successful verify-account for its bank and account before it.
- ${ruleId("payout-retried-with-new-reference")}: after a lost answer, a 5xx or a held-back one, the same amount to the same account
  sent again with another reference (or none) before the first was looked up: the double-pay pattern.
- ${ruleId("status-polled-too-fast")}: a status read of one reference less than ${POLL_PACE_SECONDS} s after the previous one, on the wall
  clock and on the merchant's (advance a manual clock between reads).
- ${ruleId("webhook-answered-error")}, ${ruleId("webhook-answered-slowly")} (over ${WEBHOOK_ANSWER_SECONDS} s), ${ruleId("webhook-unreachable")},
  ${ruleId("webhook-accepted-bad-signature")} (2xx to a \`bad_signature\` fault): the receiver's answers.
- ${CREDIT_RULES.map(ruleId).join(", ")}: once credits are reported.
- ${ruleId("secret-key-in-browser")}: a request with an \`Origin\` header.

The README's "Integration checks" lists every rule with what fires it. The checks judge only what the request log
still holds (\`examined.first_request_seq\`: raise \`--request-log\` for a long run) and the newest ${thousands(MAX_DELIVERIES)} deliveries.
Reading the report changes nothing.`.trim(),
  responses: {
    200: json(Success({ data: Report }), "The report", {
      demo: { summary: "The demo merchant: its sample activity passes every rule it gives something to judge", value: DEMO_CHECKS_REPORT },
    }),
    ...controlErrors(),
  },
});

// ---- PUT /sandbox/v1/checks/credits --------------------------------------------------------------

const CreditReportView = z.object({
  credits: z.number().int().openapi({ description: "Entries reported (one per credit)" }),
  transactions: z.number().int().openapi({ description: "Distinct transaction ids among them" }),
  reported_at: isoTime.openapi({ description: "The merchant's clock when it was reported" }),
});

const CREDIT_ID = CreditReportInput.shape.transaction_ids.element;
const PAID = "TXN_1TFI4AI7WX9S54YS";
const [creditedTwice, notCredited, withoutPayment] = CREDIT_RULES.map(ruleId);
/** What the report refuses an empty id with. */
const EMPTY_ID = CreditReportInput.safeParse({ transaction_ids: [PAID, ""] }).error!.issues[0]!;

export const reportCredits = route({
  method: "put",
  path: "/checks/credits",
  operationId: "reportCreditedTransactions",
  summary: "Report the payments the merchant credited, so the checks can find double and missing credits",
  description: `
Tells the sandbox which payments the merchant's own records credited to its customers, so the integration checks
can compare them with what was sent: ${creditedTwice} (an id listed twice: two credits for one
payment), ${notCredited} (a \`payment.received\` or \`checkout.completed\` the receiver answered 2xx
but never credited) and ${withoutPayment} (an id no payment event carries).

- \`transaction_ids\`: the \`data.transaction_id\` of every credit the merchant made, **once per credit**, in any order,
  at most ${thousands(MAX_REPORTED_CREDITS)} (each ${CREDIT_ID.minLength} to ${CREDIT_ID.maxLength} characters). A test typically reads them from the merchant's own
  ledger table after a run.
- Each report replaces the last. It is kept in memory like the request log: not in snapshots, kept across
  POST /sandbox/v1/reset, gone after a restart. DELETE /sandbox/v1/checks/credits withdraws it.

Answers the report as kept: \`credits\` (entries), \`transactions\` (distinct ids) and \`reported_at\` (the merchant's
clock).`.trim(),
  request: body(
    CreditReportInput.openapi("CreditReport", {
      description: `The transaction_id of every payment credited to a customer, once per credit (at most ${MAX_REPORTED_CREDITS})`,
    }),
    {
      credits: { summary: "The demo's payment, credited once", value: { transaction_ids: [PAID] } },
      creditedTwice: { summary: `The same payment credited twice (the checks then fire ${CREDIT_RULES[0]})`, value: { transaction_ids: [PAID, PAID] } },
    },
  ),
  responses: {
    200: json(Success({ data: CreditReportView }), "The report as kept", {
      credits: { summary: "One credit of one transaction", value: { success: true, data: { credits: 1, transactions: 1, reported_at: AT } } },
      creditedTwice: { summary: "Two credits of one transaction", value: { success: true, data: { credits: 2, transactions: 1, reported_at: AT } } },
    }),
    ...controlErrors({ 422: { emptyId: validationError("An empty transaction id among them", EMPTY_ID.path.join("."), EMPTY_ID.message) } }),
  },
});

// ---- DELETE /sandbox/v1/checks/credits -----------------------------------------------------------

export const WITHDRAWN = "Credit report withdrawn";

export const clearCredits = route({
  method: "delete",
  path: "/checks/credits",
  operationId: "clearCreditedTransactions",
  summary: "Withdraw the credit report (the credit rules become not applicable)",
  description: `
Withdraws the merchant's credit report (PUT /sandbox/v1/checks/credits): the ${inWords(CREDIT_RULES.length)} credit rules go back to
\`not_applicable\`. Withdrawing when there is none is not an error.`.trim(),
  responses: {
    200: json(Success({ message: z.string() }), "Withdrawn", { cleared: { summary: "The report is withdrawn", value: { success: true, message: WITHDRAWN } } }),
    ...controlErrors(),
  },
});
