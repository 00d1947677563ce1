/**
 * docs/reference/webhook-doctor.md: the battery (src/doctor/battery.ts CASES) in the order it is sent,
 * the records view, the scorecard's fields, and what the doctor says of the reference receivers.
 */
import { CASES, type Fault } from "../../../src/doctor/battery.js";
import { DOCTOR_RUNS_PER_MINUTE } from "../../../src/doctor/desk.js";
import { MAX_RECORDS_BYTES, RECORDS_QUERY } from "../../../src/doctor/records.js";
import { RECORDS_POLL_MS, type CaseResult, type Scorecard } from "../../../src/doctor/run.js";
import { DEFAULTS } from "../../../src/domain/merchant.js";
import { megabytes } from "../../../src/http/body-limit.js";
import { answer, code, spokenList, spokenSeconds, table, type ReferencePage } from "../markdown.js";

const SCORECARD: Record<keyof Scorecard, string> = {
  endpoint: "where the battery went",
  records_url: "the records view, or null",
  timeout_seconds: "how long each delivery could take",
  started_at: "when the run started, on the wall clock",
  duration_ms: "how long it took",
  ok: "every case passed, and the records view, when given, could be read",
  passed: "cases passed",
  failed: "cases failed",
  total: "cases run",
  records: "`{ read, error }`, or null without a records view",
  cases: "one entry per case, in order (below)",
};

const CASE_RESULT: Record<keyof CaseResult, string> = {
  id: "the case",
  title: "its name",
  sent: "what was sent",
  expected: "what a correct receiver does",
  why: "why",
  faults: "the receiver faults it catches",
  result: "`pass` or `fail`",
  problem: "why it failed, or null",
  observed: "per delivery: `status_code`, `latency_ms`, `error`, `response_excerpt`",
  credits: "`transaction_ids`, `expected`, and `found`: the counts the records view gave",
};

/** The example receivers, and the fault each broken one has (null: a correct one). */
const RECEIVERS: Array<{ file: string; does: string; fault: Fault | null }> = [
  {
    file: "receiver.mjs",
    does:
      "Correct, in Node.js with no dependencies: verifies the signature over the raw body in constant time, refuses stale deliveries and repeated nonces, " +
      "credits each `transaction_id` once, answers 2xx to unknown types and ignores them, answers before slow work. Records view at `/credited`.",
    fault: null,
  },
  { file: "receiver.php", does: "The same in plain PHP, under `php -S`; credits and nonces are kept in a locked JSON file (`RECEIVER_STORE`).", fault: null },
  { file: "broken-no-signature-check.mjs", does: "Never verifies the signature", fault: "no_signature_check" },
  { file: "broken-not-idempotent.mjs", does: "Credits every delivery, duplicates too (only the records view shows it)", fault: "not_idempotent" },
  { file: "broken-slow.mjs", does: "Does its slow work before answering", fault: "slow" },
];

const verdict = (fault: Fault | null) =>
  fault === null ? "Passes every case" : `Fails ${spokenList(CASES.filter((c) => c.faults.includes(fault)).map((c) => code(c.id)))}`;

const fields = (meaning: Record<string, string>) => table(["Field", "Meaning"], Object.entries(meaning).map(([field, what]) => [code(field), what]));

export function webhookDoctorPage(): ReferencePage {
  const timeout = spokenSeconds(DEFAULTS.webhook.timeout_seconds);
  return {
    name: "webhook-doctor.md",
    sources: ["src/doctor/battery.ts", "src/doctor/run.ts", "src/doctor/records.ts", "src/doctor/desk.ts"],
    body: `
# Webhook doctor

The webhook doctor tests your receiver. It sends a battery of deliveries, built and signed exactly as the sandbox's
own (the same envelope, headers and HMAC of the raw body), and grades each answer: what was sent, what a correct
receiver does, why, and what yours did.

- **CLI**: \`merchant-sandbox doctor --endpoint URL --secret S\` grades any receiver, with no sandbox running
  (options: [CLI](cli.md#doctor)).
- **Control API**: \`POST /sandbox/v1/webhooks/doctor\`, with an optional \`{ "records_url": "..." }\`, runs it against the
  calling merchant's \`webhook_url\` with its \`webhook_secret\` and \`webhook\` settings, and answers with the scorecard in
  \`data\`. With no \`webhook_url\` the built-in capture answers (200 to everything, so it fails the refusal cases); with
  neither, ${answer("INVALID_STATE")}. One run at a time per merchant (${answer("INVALID_STATE")} while one is under way), at
  most ${DOCTOR_RUNS_PER_MINUTE} per rolling minute of wall-clock time (${answer("QUOTA_EXCEEDED")} with \`retry_after\`). In shared mode a
  \`records_url\` naming a loopback or private address is refused, and deliveries pass the same address checks as webhooks.
- **Dashboard**: the "Webhook doctor" section runs it for the merchant's \`webhook_url\` and shows the last scorecard.

## The battery

In the order it is sent, one delivery at a time:

${table(
  ["Case", "Sent", "Expected", "Why"],
  CASES.map((c) => [code(c.id), c.sent, c.expected, c.why]),
)}

A refusal is any answer but a 2xx. Each delivery waits at most the timeout (${timeout} by default, as the sandbox's own
deliveries do). Every run uses new transaction ids, so it never meets your earlier records, and \`sent_at\` is the
wall clock's, since your receiver compares it with its own clock whatever the merchant's clock says. The doctor
records nothing in the merchant's state: no event, no delivery, no ledger entry.

## The records view

The answers show what your receiver said, not what it did. To check what it did, expose a read-only view of your
records (for tests only, or behind your own auth) and pass it as \`--records-url\` or \`records_url\`. The doctor calls
\`GET {records_url}?${RECORDS_QUERY}=TXN_a,TXN_b,...\` with the run's transaction ids and expects a 200 with JSON:

\`\`\`json
{ "credited": ["TXN_a", "TXN_b"] }
\`\`\`

\`credited\` has one entry per credit the receiver made, so a transaction credited twice is listed twice. The view may
ignore the filter and list every credit it holds (up to ${megabytes(MAX_RECORDS_BYTES)} is read). Each case then checks its
credits too. A receiver may credit just after answering, so the view is read again, every ${RECORDS_POLL_MS} ms up to the
timeout, while a payment it acknowledged is missing. A view that cannot be read fails the run, and \`records.error\` says why.

## The scorecard

The route's \`data\` and the CLI's \`--json\`:

${fields(SCORECARD)}

Each entry of \`cases\`:

${fields(CASE_RESULT)}

## Reference receivers

\`examples/webhook-receivers/\` has receivers to copy from, and broken ones that show the doctor at work; each file
says how to run it, and \`test/doctor/reference-receivers.test.ts\` holds them to these verdicts.

${table(
  ["File", "What it does", "The doctor's verdict"],
  RECEIVERS.map((r) => [code(`examples/webhook-receivers/${r.file}`), r.does, verdict(r.fault)]),
)}

A receiver that refuses stale deliveries compares \`sent_at\` with its own clock; a merchant on a manual clock sends
\`sent_at\` from that clock, so point such a receiver at a realtime merchant (the demo merchant is one).
`,
  };
}
