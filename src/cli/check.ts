/**
 * `merchant-sandbox check`: the integration checks of a running sandbox's merchant (GET
 * /sandbox/v1/checks) as a scorecard, or as the API's JSON with `--json`. Exits 1 when a rule of
 * severity error fired (a CI step fails on it), 0 otherwise, and 2 when it could not check at all.
 */
import { parseArgs } from "node:util";
import type { CheckResult, ChecksReport } from "../domain/checks.js";
import { CONNECTION_OPTIONS, CONNECTION_USAGE, connectionFrom, getJson, type Connection } from "./connection.js";

export const CHECK_USAGE = `Usage: merchant-sandbox check [--url URL] [--key KEY] [--secret SECRET] [--json]

Grades the merchant's integration: rules over its /api/v1 requests (the request log), its webhook
receiver's answers and the credits it reported, as GET /sandbox/v1/checks gives them.
Exits 1 when a rule of severity error fired, 0 otherwise (2 when the sandbox could not be asked).

${CONNECTION_USAGE}
  --json            Print the API's JSON instead of the scorecard
`;

export interface CheckOptions {
  connection: Connection;
  json: boolean;
}

export function parseCheckArgs(argv: string[], env: NodeJS.ProcessEnv): { options: CheckOptions } | { error: string } {
  try {
    const { values } = parseArgs({ args: argv, strict: true, options: { ...CONNECTION_OPTIONS, json: { type: "boolean", default: false } } });
    const connection = connectionFrom(values, env);
    if ("error" in connection) return connection;
    return { options: { connection, json: values.json === true } };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** Runs the command: writes the scorecard (or the JSON) to `out`, a failure to `err`; resolves to the exit code. */
export async function check(options: CheckOptions, out: (text: string) => void, err: (text: string) => void): Promise<number> {
  const answer = await getJson(options.connection, "/sandbox/v1/checks");
  if ("error" in answer) {
    err(`merchant-sandbox check: ${answer.error}\n`);
    return 2;
  }
  const report = answer.body.data as ChecksReport;
  out(options.json ? `${JSON.stringify(answer.body, null, 2)}\n` : scorecard(report, options.connection.url));
  return report.summary.verdict === "fail" ? 1 : 0;
}

const MARK: Record<string, string> = { error: "✗ error  ", warning: "! warning", info: "i info   " };
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function evidenceLines(rule: CheckResult): string[] {
  const { requests, deliveries, transactions } = rule.evidence;
  const lines = [
    ...requests.map((r) => `#${r.seq} ${r.method} ${r.path} → ${r.status ?? "reset"}${r.error_code ? ` ${r.error_code}` : ""}  ${r.note}`),
    ...deliveries.map((d) => `delivery ${d.id} ${d.event_type} → ${d.status_code === null ? "no answer" : `HTTP ${d.status_code}`}  ${d.note}`),
    ...transactions.map((t) => `${t.transaction_id}  ${t.note}`),
  ];
  const more = rule.occurrences - lines.length;
  return more > 0 ? [...lines, `… and ${more} more`] : lines;
}

/** The report as a person reads it: the verdict, what was judged, each fired rule with its evidence, then the rest. */
export function scorecard(report: ChecksReport, url: string): string {
  const { summary: s, examined: x } = report;
  const lines = [
    `Integration checks of ${url}: ${s.verdict === "fail" ? "FAIL" : "PASS"}`,
    `${s.fired} fired (${plural(s.errors, "error")}, ${plural(s.warnings, "warning")}, ${s.infos} info), ${s.passed} passed, ${s.not_applicable} not applicable`,
    `Judged ${x.request_log ? `${plural(x.requests, "request")}${x.first_request_seq === null ? "" : ` (from #${x.first_request_seq})`}` : "no requests (the request log is off)"}, ` +
      `${x.deliveries} webhook ${x.deliveries === 1 ? "delivery" : "deliveries"}, ${plural(x.events, "event")}, ` +
      `${x.credits_reported === null ? "no credit report" : `a credit report of ${x.credits_reported}`}`,
    "",
  ];
  for (const rule of report.rules) {
    if (rule.status === "fired") {
      lines.push(`${MARK[rule.severity]}  ${rule.id}  ${rule.title} (${rule.occurrences})`);
      lines.push(`             why: ${rule.rationale}`);
      for (const line of evidenceLines(rule)) lines.push(`             ${line}`);
    } else {
      lines.push(`${rule.status === "passed" ? "✓ passed " : "- n/a    "}  ${rule.id}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
