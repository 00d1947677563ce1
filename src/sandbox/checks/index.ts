/** The integration checks' handlers: the report, and the merchant's credit report it compares against. */
import { creditReport, creditReportView, type CreditReport } from "../../domain/checks.js";
import { integrationChecks } from "../../engine/integration-checks.js";
import type { Tenant } from "../../engine/tenant.js";
import type { Deps } from "../../http/deps.js";
import { tenantOf, ok, okFields } from "../../http/route.js";
import { router } from "../../http/validation.js";
import * as op from "./routes.js";

export function checkRoutes({ store }: Deps) {
  // The report is kept on the tenant; a shared store also keeps it where every process reads it back.
  const keep = async (tenant: Tenant, report: CreditReport | null) => {
    tenant.creditReport = report;
    const keeping = store.keepSideRecord(tenant, "credit_report", report);
    if (keeping) await keeping;
  };
  return router()
    .openapi(op.getChecks, (c) => c.json(ok(integrationChecks(tenantOf(c).tenant)), 200))
    .openapi(op.reportCredits, async (c) => {
      const { tenant, ctx } = tenantOf(c);
      const report = creditReport(c.req.valid("json").transaction_ids, ctx.now);
      await keep(tenant, report);
      return c.json(ok(creditReportView(report)), 200);
    })
    .openapi(op.clearCredits, async (c) => {
      await keep(tenantOf(c).tenant, null);
      return c.json(okFields({ message: op.WITHDRAWN }), 200);
    });
}
