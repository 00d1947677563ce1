/**
 * Integration checks (domain/checks.ts): the report over the merchant's request log, webhook answers
 * and reported credits, and the merchant's own view of the payments it credited.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { CHECK_STATUSES, creditReport, creditReportView, CreditReportInput, MAX_REPORTED_CREDITS, SEVERITIES } from "../domain/checks.js";
import { isoTime } from "../domain/fields.js";
import { integrationChecks } from "../engine/integration-checks.js";
import { body, json, security } from "../http/openapi.js";
import { router } from "../http/validation.js";
import { controlErrors } from "./errors.js";
import * as docs from "./checks-docs.js";

const tags = ["Sandbox"];

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
    occurrences: z.number().int().openapi({ description: "How many times it fired; the evidence lists the first 20 of each kind" }),
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

const getChecks = createRoute({
  method: "get",
  path: "/checks",
  tags,
  security,
  operationId: "getIntegrationChecks",
  summary: "Grade the merchant's integration: rules over its requests, its webhook answers and its credits",
  description: docs.CHECKS_DESCRIPTION,
  responses: {
    200: json(z.object({ success: z.literal(true), data: Report }), "The report", docs.CHECKS_RESPONSE_EXAMPLES),
    ...controlErrors(),
  },
});

const CreditReportView = z.object({
  credits: z.number().int().openapi({ description: "Entries reported (one per credit)" }),
  transactions: z.number().int().openapi({ description: "Distinct transaction ids among them" }),
  reported_at: isoTime.openapi({ description: "The merchant's clock when it was reported" }),
});

const reportCredits = createRoute({
  method: "put",
  path: "/checks/credits",
  tags,
  security,
  operationId: "reportCreditedTransactions",
  summary: "Report the payments the merchant credited, so the checks can find double and missing credits",
  description: docs.CREDITS_DESCRIPTION,
  request: body(
    CreditReportInput.openapi("CreditReport", {
      description: `The transaction_id of every payment credited to a customer, once per credit (at most ${MAX_REPORTED_CREDITS})`,
    }),
    docs.CREDITS_BODY_EXAMPLES,
  ),
  responses: {
    200: json(z.object({ success: z.literal(true), data: CreditReportView }), "The report as kept", docs.CREDITS_RESPONSE_EXAMPLES),
    ...controlErrors(docs.CREDITS_ERRORS),
  },
});

const clearCredits = createRoute({
  method: "delete",
  path: "/checks/credits",
  tags,
  security,
  operationId: "clearCreditedTransactions",
  summary: "Withdraw the credit report (the credit rules become not applicable)",
  description: docs.CLEAR_CREDITS_DESCRIPTION,
  responses: {
    200: json(z.object({ success: z.literal(true), message: z.string() }), "Withdrawn", docs.CLEAR_CREDITS_RESPONSE_EXAMPLES),
    ...controlErrors(),
  },
});

export function checkRoutes() {
  return router()
    .openapi(getChecks, (c) => c.json({ success: true as const, data: integrationChecks(c.var.tenant) }, 200))
    .openapi(reportCredits, (c) => {
      const tenant = c.var.tenant;
      tenant.creditReport = creditReport(c.req.valid("json").transaction_ids, tenant.clock.now());
      return c.json({ success: true as const, data: creditReportView(tenant.creditReport) }, 200);
    })
    .openapi(clearCredits, (c) => {
      c.var.tenant.creditReport = null;
      return c.json({ success: true as const, message: "Credit report withdrawn" }, 200);
    });
}
