/**
 * What the OpenAPI document says about the integration checks and the credit report: descriptions and
 * examples (real bodies; see control-docs.ts for the contract they keep).
 */
import { CHECK_RULES, MAX_REPORTED_CREDITS } from "../domain/checks.js";
import { POLL_PACE_SECONDS } from "../domain/checks-requests.js";
import { WEBHOOK_ANSWER_SECONDS } from "../domain/checks-webhooks.js";
import { thousands } from "../domain/money.js";
import { type Examples } from "../http/openapi.js";
import { AT } from "../http/demo-examples.js";
import { validationError } from "./errors.js";

// ---- GET /sandbox/v1/checks ----------------------------------------------------------------------

export const CHECKS_DESCRIPTION = `
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

- \`transfer-to-unverified-account\`: a transfer with no successful verify-account for its bank and account before it.
- \`payout-retried-with-new-reference\`: after a lost answer, a 5xx or a held-back one, the same amount to the same account
  sent again with another reference (or none) before the first was looked up: the double-pay pattern.
- \`status-polled-too-fast\`: a status read of one reference less than ${POLL_PACE_SECONDS} s after the previous one, on the wall
  clock and on the merchant's (advance a manual clock between reads).
- \`webhook-answered-error\`, \`webhook-answered-slowly\` (over ${WEBHOOK_ANSWER_SECONDS} s), \`webhook-unreachable\`,
  \`webhook-accepted-bad-signature\` (2xx to a \`bad_signature\` fault): the receiver's answers.
- \`transaction-credited-twice\`, \`delivered-payment-not-credited\`, \`credit-without-payment\`: once credits are reported.
- \`secret-key-in-browser\`: a request with an \`Origin\` header.

The README's "Integration checks" lists every rule with what fires it. The checks judge only what the request log
still holds (\`examined.first_request_seq\`: raise \`--request-log\` for a long run) and the newest 1,000 deliveries.
Reading the report changes nothing.`.trim();

const payoutEvidence = (seq: number, account: string) => ({
  seq,
  method: "POST",
  path: "/api/v1/payout/transfer",
  status: 201,
  error_code: null,
  at: AT,
  note: `Account 058/${account} had no successful verify-account before this transfer.`,
});

/** The demo merchant's sample activity (fixtures/demo-activity.json) sends its two payouts without a name enquiry. */
const DEMO_FIRED: Record<string, { occurrences: number; requests: unknown[] }> = {
  "transfer-to-unverified-account": { occurrences: 2, requests: [payoutEvidence(3, "1002003003"), payoutEvidence(4, "0123450002")] },
};
/** What the rest of its activity gave the rules to judge; every other rule is not applicable. */
const DEMO_PASSED = new Set([
  "amount-with-more-than-two-decimals",
  "secret-key-in-browser",
  "request-from-ip-not-allowlisted",
  "transfer-names-not-from-lookups",
  "transfer-without-own-reference",
  "webhook-receiver-missing",
]);

const demoRule = (rule: (typeof CHECK_RULES)[number]) => {
  const fired = DEMO_FIRED[rule.id];
  return {
    id: rule.id,
    title: rule.title,
    severity: rule.severity,
    rationale: rule.rationale,
    status: fired ? "fired" : DEMO_PASSED.has(rule.id) ? "passed" : "not_applicable",
    occurrences: fired?.occurrences ?? 0,
    evidence: { requests: fired?.requests ?? [], deliveries: [], transactions: [] },
  };
};
const demoRules = CHECK_RULES.map(demoRule);
const order = ["fired", "passed", "not_applicable"];

/** GET /sandbox/v1/checks for the demo merchant as `npm start` makes it (test/sandbox/checks.test.ts compares them). */
export const DEMO_CHECKS_REPORT = {
  success: true,
  data: {
    summary: { verdict: "fail", rules: CHECK_RULES.length, fired: 1, passed: DEMO_PASSED.size, not_applicable: CHECK_RULES.length - 1 - DEMO_PASSED.size, errors: 1, warnings: 0, infos: 0 },
    examined: { request_log: true, requests: 12, first_request_seq: 1, deliveries: 1, events: 1, credits_reported: null },
    rules: [...demoRules].sort((a, b) => order.indexOf(a.status) - order.indexOf(b.status)),
  },
};

export const CHECKS_RESPONSE_EXAMPLES: Examples = {
  demo: { summary: "The demo merchant: its sample payouts were sent without a name enquiry", value: DEMO_CHECKS_REPORT },
};

// ---- PUT /sandbox/v1/checks/credits --------------------------------------------------------------

export const CREDITS_DESCRIPTION = `
Tells the sandbox which payments the merchant's own records credited to its customers, so the integration checks
can compare them with what was sent: \`transaction-credited-twice\` (an id listed twice: two credits for one
payment), \`delivered-payment-not-credited\` (a \`payment.received\` or \`checkout.completed\` the receiver answered 2xx
but never credited) and \`credit-without-payment\` (an id no payment event carries).

- \`transaction_ids\`: the \`data.transaction_id\` of every credit the merchant made, **once per credit**, in any order,
  at most ${thousands(MAX_REPORTED_CREDITS)} (each 1 to 100 characters). A test typically reads them from the merchant's own
  ledger table after a run.
- Each report replaces the last. It is kept in memory like the request log: not in snapshots, kept across
  POST /sandbox/v1/reset, gone after a restart. DELETE /sandbox/v1/checks/credits withdraws it.

Answers the report as kept: \`credits\` (entries), \`transactions\` (distinct ids) and \`reported_at\` (the merchant's
clock).`.trim();

export const CREDITS_BODY_EXAMPLES: Examples = {
  credits: { summary: "The demo's payment, credited once", value: { transaction_ids: ["TXN_1TFI4AI7WX9S54YS"] } },
  creditedTwice: { summary: "The same payment credited twice (the checks then fire transaction-credited-twice)", value: { transaction_ids: ["TXN_1TFI4AI7WX9S54YS", "TXN_1TFI4AI7WX9S54YS"] } },
};

export const CREDITS_RESPONSE_EXAMPLES: Examples = {
  credits: { summary: "One credit of one transaction", value: { success: true, data: { credits: 1, transactions: 1, reported_at: AT } } },
  creditedTwice: { summary: "Two credits of one transaction", value: { success: true, data: { credits: 2, transactions: 1, reported_at: AT } } },
};

export const CREDITS_ERRORS = {
  422: { emptyId: validationError("An empty transaction id among them", "transaction_ids.1", "Too small: expected string to have >=1 characters") },
};

// ---- DELETE /sandbox/v1/checks/credits -----------------------------------------------------------

export const CLEAR_CREDITS_DESCRIPTION = `
Withdraws the merchant's credit report (PUT /sandbox/v1/checks/credits): the three credit rules go back to
\`not_applicable\`. Withdrawing when there is none is not an error.`.trim();

export const CLEAR_CREDITS_RESPONSE_EXAMPLES: Examples = {
  cleared: { summary: "The report is withdrawn", value: { success: true, message: "Credit report withdrawn" } },
};
