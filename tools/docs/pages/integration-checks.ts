/**
 * docs/reference/integration-checks.md: every rule of the catalogue (src/domain/checks.ts CHECK_RULES),
 * in its order, with the title and rationale the API reports, and the report's shape.
 */
import { MAX_EVIDENCE } from "../../../src/domain/check-rule.js";
import { CHECK_RULES, CHECK_STATUSES, evaluateChecks, MAX_REPORTED_CREDITS, SEVERITIES } from "../../../src/domain/checks.js";
import { MAX_DELIVERIES } from "../../../src/domain/bounds.js";
import { DEFAULT_REQUEST_LOG_SIZE } from "../../../src/domain/request-log.js";
import { answer, code, table, thousands, type ReferencePage } from "../markdown.js";

const STATUS_MEANING: Record<(typeof CHECK_STATUSES)[number], string> = {
  fired: `with \`occurrences\` and the evidence: the requests by their \`seq\` in the request log (with method, path, status, \`error_code\`, time and a note), the deliveries by \`id\`, or the transaction ids (the first ${MAX_EVIDENCE} of each)`,
  passed: "there was something to judge and nothing was wrong",
  not_applicable: "nothing to judge yet (no payout made, no delivery to a `webhook_url`, no credit report)",
};

const SEVERITY_MEANING: Record<(typeof SEVERITIES)[number], string> = {
  error: "when money or security is at stake (a payment made or credited twice, a forged webhook trusted, the secret exposed, a payment lost), or the spec's rule is broken",
  warning: "when it fails in production or wastes the caps",
  info: "for wasted work",
};

/** The report's top-level shape, from an evaluation of nothing. */
function reportShape() {
  const empty = evaluateChecks({ requests: [], requestLogEnabled: true, deliveries: [], events: [], credits: null });
  return { summary: Object.keys(empty.summary), examined: Object.keys(empty.examined) };
}

export function integrationChecksPage(): ReferencePage {
  const shape = reportShape();
  return {
    name: "integration-checks.md",
    sources: ["src/domain/checks.ts", "src/domain/checks-requests.ts", "src/domain/checks-webhooks.ts", "src/domain/check-rule.ts"],
    body: `
# Integration checks

The sandbox sees every \`/api/v1\` request your code makes and every answer your webhook receiver gives, so it
can grade them. The rules read the merchant's request log (its last ${thousands(DEFAULT_REQUEST_LOG_SIZE)} requests by
default, \`--request-log\`), its webhook delivery log (the newest ${thousands(MAX_DELIVERIES)} attempts), its events, and the
credits it reports ([Check your integration](../how-to/check-your-integration.md) shows them at work). Each rule has a stable id, a severity, a one-line reason and a status:

${CHECK_STATUSES.map((s) => `- \`${s}\`: ${STATUS_MEANING[s]}.`).join("\n")}

Severities: ${SEVERITIES.map((s) => `\`${s}\` ${SEVERITY_MEANING[s]}`).join("; ")}. An "unclear answer" below is a
reset connection, an answer held back, or a 5xx other than ${answer("BANK_UNAVAILABLE")} and ${answer("STORE_UNAVAILABLE")}
(which say nothing was done).

${table(
  ["Rule", "Severity", "Fires on", "Why"],
  CHECK_RULES.map((r) => [code(r.id), r.severity, r.title, r.rationale]),
)}

The webhook rules judge only the requests the merchant's receiver got: not the built-in capture, not a \`drop\`
fault (nothing was sent), not a \`delay\` or \`out_of_order\` entry (no request yet). Time-outs and pace are
measured on the wall clock, like a real client's.

## Where to read them

The same report, from one evaluation, in three places:

- \`GET /sandbox/v1/checks\`: \`{ summary: { ${shape.summary.join(", ")} }, examined: { ${shape.examined.join(", ")} },
  rules: [...] }\`, fired rules first (errors, warnings, infos), then passed, then not applicable. Reading it
  changes nothing. \`verdict\` is \`fail\` when a rule of severity \`error\` fired.
- \`merchant-sandbox check\` ([CLI](cli.md#check)): the scorecard, or \`--json\`; exit 1 on a fired error.
- The dashboard's "Integration checks" view (\`/dashboard/checks\`), and its verdict on Home.

## Your own view of your credits

The sandbox cannot see your database, so the credit rules need you to tell it what you credited:
\`PUT /sandbox/v1/checks/credits\` with \`{ "transaction_ids": ["TXN_...", ...] }\` (at most ${thousands(MAX_REPORTED_CREDITS)}), the
\`data.transaction_id\` of each payment you credited to a customer, **once per credit** (an id twice is two credits).
Each report replaces the last; \`DELETE /sandbox/v1/checks/credits\` withdraws it. Like the request log, it lives in
memory: it is not in snapshots, is kept across \`POST /sandbox/v1/reset\` and is gone after a restart.

## What the checks judge

Only what the request log still holds (\`examined.first_request_seq\`; raise \`--request-log\` for a long run) and the
newest ${thousands(MAX_DELIVERIES)} deliveries. Requests refused for their credentials are not logged, so not judged.
A log that is off (\`--request-log 0\`) leaves the request rules not applicable. The log is kept across a reset, so a
test suite that wants a clean slate uses a fresh merchant.
`,
  };
}
