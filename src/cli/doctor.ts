/**
 * `merchant-sandbox doctor`: sends the webhook doctor's battery to any receiver (the merchant's own,
 * on a laptop or in CI) and prints a scorecard, or the scorecard as JSON with `--json`. Exit 0 when
 * every case passed, 1 when one failed (or the records view could not be read, or nothing answers at
 * the endpoint: one line says why), 2 on bad usage. Hints go to stderr, so `--json` stays parseable.
 */
import { parseArgs } from "node:util";
import { MAX_WEBHOOK_TIMEOUT_SECONDS } from "../domain/bounds.js";
import { CASES } from "../doctor/battery.js";
import { runDoctor, type CaseResult, type Observed, type Scorecard } from "../doctor/run.js";
import { createIds } from "../engine/ids.js";
import type { SignatureOptions } from "../webhooks/sign.js";
import { createTransport, describeUrlProblem } from "../webhooks/transport.js";
import { whyUnreachable } from "./unreachable.js";

export const DOCTOR_USAGE = `Usage: merchant-sandbox doctor --endpoint URL --secret WEBHOOK_SECRET [--records-url URL]
                              [--algorithm sha256|sha512] [--encoding hex|base64]
                              [--timeout-seconds 10] [--json]

Sends a battery of signed webhook deliveries to your receiver at URL (a valid event, the same event
again, no signature, a bad signature, a tampered body, a stale sent_at, an unknown event type, events
out of order, a large payload) and grades each answer. The secret may also come from
MERCHANT_SANDBOX_WEBHOOK_SECRET.

  --records-url URL     your receiver's read-only records view: GET URL?transaction_ids=TXN_a,TXN_b
                        answers {"credited": ["TXN_a", ...]}, one entry per credit made; the doctor
                        then also checks that duplicates were credited once and refusals not at all
  --timeout-seconds N   how long each delivery may take (default 10, as the sandbox's own; at most 60)
  --json                the scorecard as JSON, for CI

Exit status: 0 when every case passed, 1 when any failed or nothing answers at URL, 2 on bad usage.
`;

export interface DoctorCliOptions {
  endpoint: string;
  secret: string;
  recordsUrl: string | null;
  signature: Required<SignatureOptions>;
  timeoutSeconds: number;
  json: boolean;
}

export function parseDoctorArgs(argv: string[], env: NodeJS.ProcessEnv): { options: DoctorCliOptions } | { error: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        endpoint: { type: "string" },
        secret: { type: "string" },
        "records-url": { type: "string" },
        algorithm: { type: "string", default: "sha256" },
        encoding: { type: "string", default: "hex" },
        "timeout-seconds": { type: "string", default: "10" },
        json: { type: "boolean", default: false },
      },
    }));
  } catch (err) {
    return { error: (err as Error).message };
  }
  if (!values.endpoint) return { error: "--endpoint URL is required: the URL your webhooks are sent to" };
  const endpointProblem = describeUrlProblem(values.endpoint, false);
  if (endpointProblem) return { error: `--endpoint: ${endpointProblem}` };
  const recordsUrl = values["records-url"] ?? null;
  const recordsProblem = recordsUrl === null ? null : describeUrlProblem(recordsUrl, false);
  if (recordsProblem) return { error: `--records-url: ${recordsProblem}` };
  const secret = values.secret ?? env.MERCHANT_SANDBOX_WEBHOOK_SECRET;
  if (!secret) return { error: "--secret is required (or MERCHANT_SANDBOX_WEBHOOK_SECRET): the webhook secret your receiver verifies with" };
  if (values.algorithm !== "sha256" && values.algorithm !== "sha512") return { error: "--algorithm must be sha256 or sha512" };
  if (values.encoding !== "hex" && values.encoding !== "base64") return { error: "--encoding must be hex or base64" };
  const timeoutSeconds = Number(values["timeout-seconds"]);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0 || timeoutSeconds > MAX_WEBHOOK_TIMEOUT_SECONDS) {
    return { error: `--timeout-seconds must be a number of seconds above 0 and at most ${MAX_WEBHOOK_TIMEOUT_SECONDS}` };
  }
  return {
    options: {
      endpoint: values.endpoint,
      secret,
      recordsUrl,
      signature: { algorithm: values.algorithm, encoding: values.encoding },
      timeoutSeconds,
      json: values.json ?? false,
    },
  };
}

/** Runs the battery as the options say; resolves to the scorecard. */
export function doctor(options: DoctorCliOptions): Promise<Scorecard> {
  const transport = createTransport({ blockPrivate: false });
  return runDoctor({
    endpoint: options.endpoint,
    deliver: (d, timeoutMs) => transport.post(options.endpoint, d.headers, d.body, timeoutMs),
    secret: options.secret,
    signature: options.signature,
    timeoutSeconds: options.timeoutSeconds,
    recordsUrl: options.recordsUrl,
    transport,
    ids: createIds(),
  });
}

/** The whole command: parse, run, print; resolves to the exit status. */
export async function doctorCommand(argv: string[], env: NodeJS.ProcessEnv, out: (text: string) => void, err: (text: string) => void): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    out(DOCTOR_USAGE);
    return 0;
  }
  const parsed = parseDoctorArgs(argv, env);
  if ("error" in parsed) {
    err(`merchant-sandbox doctor: ${parsed.error}\n\n${DOCTOR_USAGE}`);
    return 2;
  }
  const { options } = parsed;
  // Checked once before the battery: nine cases failing the same way would bury the one cause.
  const unreachable = await whyUnreachable(options.endpoint, options.timeoutSeconds * 1000, { command: "doctor", expects: "receiver" });
  if (unreachable) {
    err(`merchant-sandbox doctor: ${unreachable}\n`);
    return 1;
  }
  const card = await doctor(options);
  out(options.json ? `${JSON.stringify(card, null, 2)}\n` : formatScorecard(card));
  const hint = hintFor(card);
  if (hint) err(hint);
  return card.ok ? 0 : 1;
}

/** The cases a correct receiver takes: each is signed with --secret. */
const TAKEN = new Set(CASES.filter((c) => c.expect === "accepted").map((c) => c.id));

/** The answers a receiver gives a signature it cannot verify. */
const SIGNATURE_REFUSALS = new Set([400, 401, 403]);

/**
 * One cause behind many failed cases, when the answers point to it: every delivery answered 404 or 405
 * (the path is wrong), or every case a receiver should take refused as a bad signature (it verifies
 * with another secret or scheme). Null otherwise.
 */
export function hintFor(card: Scorecard): string | null {
  const all = card.cases.flatMap((c) => c.observed);
  const statuses = (observed: Observed[]) => [...new Set(observed.map((o) => o.status_code))].join(", ");
  if (all.length > 0 && all.every((o) => o.status_code === 404 || o.status_code === 405)) {
    return `Hint: every delivery was answered ${statuses(all)}: nothing at ${card.endpoint} takes a POST. Check the path in --endpoint.\n`;
  }
  const signed = card.cases.filter((c) => TAKEN.has(c.id));
  const refusals = signed.map((c) => c.observed.find((o) => o.status_code !== null && SIGNATURE_REFUSALS.has(o.status_code)));
  if (signed.length === 0 || !refusals.every((o): o is Observed => o !== undefined)) return null;
  return [
    `Hint: every case signed with --secret that your receiver should take was refused (all ${signed.length}, answered ${statuses(refusals)}):`,
    "      it probably verifies with another webhook secret (or another --algorithm / --encoding). Pass the secret it uses.",
    "      The sandbox's webhook secret is in the `merchant-sandbox start` banner, the dashboard's Webhook Settings",
    "      and GET /sandbox/v1/merchant (webhook_secret).",
    "",
  ].join("\n");
}

const answers = (observed: Observed[]) =>
  observed.map((o) => (o.error !== null ? o.error : `${o.status_code} in ${o.latency_ms} ms`)).join(", ");

function caseLines(c: CaseResult): string[] {
  const head = `  ${c.result === "pass" ? "PASS" : "FAIL"}  ${c.id.padEnd(20)} ${c.title.padEnd(24)} ${answers(c.observed)}`;
  if (c.result === "pass") return [head];
  return [head, `        expected: ${c.expected}`, `        problem:  ${c.problem}`, `        why:      ${c.why}`];
}

/** The scorecard as text: one line a case (a failed one with what was expected, what went wrong and why), then the total. */
function formatScorecard(card: Scorecard): string {
  const lines = [`Webhook doctor: ${card.endpoint} (timeout ${card.timeout_seconds} s)`, ""];
  for (const c of card.cases) lines.push(...caseLines(c));
  lines.push("");
  if (card.records === null) lines.push("Credits not checked: pass --records-url to check what your receiver credited.");
  else if (card.records.read) lines.push(`Credits checked against ${card.records_url}.`);
  else lines.push(`Records view ${card.records_url} could not be read: ${card.records.error}. Credits not checked.`);
  lines.push(`${card.passed} of ${card.total} passed, ${card.failed} failed${card.ok ? "" : ": FAIL"}`);
  return `${lines.join("\n")}\n`;
}
