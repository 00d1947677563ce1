/**
 * Integration checks: rules evaluated over what the merchant's code did (its request log, the
 * webhook deliveries and its receiver's answers, the events, and the credits it reports), each with
 * a stable id, a severity, a one-line rationale and the requests or deliveries that fired it.
 * GET /sandbox/v1/checks, the dashboard and `merchant-sandbox check` all show this one report.
 *
 * One evaluation reads each request, then each delivery, once, handing it to every rule (the rules
 * live in checks-requests.ts and checks-webhooks.ts); what it reads is bounded (the log holds at most
 * 10,000 requests, the delivery log 1,000 attempts, a credit report MAX_REPORTED_CREDITS ids).
 */
import { Findings, SeenRequest, type CheckInput, type CheckRule, type CreditReport, type Severity } from "./check-rule.js";
import { REQUEST_RULES } from "./checks-requests.js";
import { WEBHOOK_RULES } from "./checks-webhooks.js";
import { iso } from "./context.js";
import { z } from "./zod.js";

export type { CheckInput, CreditReport, Severity } from "./check-rule.js";
export { SEVERITIES } from "./check-rule.js";

/** Every rule, in the order the report lists them. */
export const CHECK_RULES: readonly CheckRule[] = [...REQUEST_RULES, ...WEBHOOK_RULES];

export const CHECK_STATUSES = ["fired", "passed", "not_applicable"] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** Most transaction ids one credit report may hold. */
export const MAX_REPORTED_CREDITS = 10_000;

/** PUT /sandbox/v1/checks/credits: the merchant's credits, one entry per credit, replacing the last report. */
export const CreditReportInput = z.object({
  transaction_ids: z
    .array(z.string().min(1).max(100))
    .max(MAX_REPORTED_CREDITS, { message: `At most ${MAX_REPORTED_CREDITS} credits.` }),
});

export function creditReport(transactionIds: string[], now: number): CreditReport {
  return { transaction_ids: transactionIds, reported_at: now };
}

/** What PUT /sandbox/v1/checks/credits answers: the report as kept. */
export function creditReportView(report: CreditReport) {
  return { credits: report.transaction_ids.length, transactions: new Set(report.transaction_ids).size, reported_at: iso(report.reported_at) };
}

const rank: Record<CheckStatus, number> = { fired: 0, passed: 1, not_applicable: 2 };
const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Runs every rule over the input: the report GET /sandbox/v1/checks returns (times as ISO 8601). */
export function evaluateChecks(input: CheckInput) {
  const runs = CHECK_RULES.map((rule) => {
    const found = new Findings();
    return { rule, found, inspector: rule.start(input, found) };
  });
  for (const entry of input.requests) {
    const seen = new SeenRequest(entry);
    for (const run of runs) run.inspector.request?.(seen);
  }
  for (const delivery of input.deliveries) for (const run of runs) run.inspector.delivery?.(delivery);
  for (const run of runs) run.inspector.finish?.();

  const rules = runs.map(({ rule, found }) => {
    const status: CheckStatus = found.occurrences > 0 ? "fired" : found.applicable ? "passed" : "not_applicable";
    return {
      id: rule.id,
      title: rule.title,
      severity: rule.severity,
      rationale: rule.rationale,
      status,
      occurrences: found.occurrences,
      evidence: {
        requests: found.requests.map((r) => ({ ...r, at: iso(r.at) })),
        deliveries: found.deliveries.map((d) => ({ ...d, sent_at: iso(d.sent_at) })),
        transactions: found.transactions,
      },
    };
  });
  // Fired first, the most severe first; the catalogue's order within a group.
  rules.sort((a, b) => rank[a.status] - rank[b.status] || (a.status === "fired" ? severityRank[a.severity] - severityRank[b.severity] : 0));
  const fired = rules.filter((r) => r.status === "fired");
  const firedOf = (severity: Severity) => fired.filter((r) => r.severity === severity).length;
  const errors = firedOf("error");
  return {
    summary: {
      /** `fail` when a rule of severity error fired: what `merchant-sandbox check` exits 1 on. */
      verdict: errors > 0 ? ("fail" as const) : ("pass" as const),
      rules: rules.length,
      fired: fired.length,
      passed: rules.filter((r) => r.status === "passed").length,
      not_applicable: rules.filter((r) => r.status === "not_applicable").length,
      errors,
      warnings: firedOf("warning"),
      infos: firedOf("info"),
    },
    examined: {
      request_log: input.requestLogEnabled,
      requests: input.requests.length,
      first_request_seq: input.requests[0]?.seq ?? null,
      deliveries: input.deliveries.length,
      events: input.events.length,
      credits_reported: input.credits?.transaction_ids.length ?? null,
    },
    rules,
  };
}

export type ChecksReport = ReturnType<typeof evaluateChecks>;
export type CheckResult = ChecksReport["rules"][number];
