/** The integration checks' handlers: the report, and the merchant's credit report it compares against. */
import { creditReport, creditReportView } from "../../domain/checks.js";
import { integrationChecks } from "../../engine/integration-checks.js";
import type { Deps } from "../../http/deps.js";
import { tenantOf, ok, okFields } from "../../http/route.js";
import { router } from "../../http/validation.js";
import * as op from "./routes.js";

export function checkRoutes(_deps: Deps) {
  return router()
    .openapi(op.getChecks, (c) => c.json(ok(integrationChecks(tenantOf(c).tenant)), 200))
    .openapi(op.reportCredits, (c) => {
      const { tenant, ctx } = tenantOf(c);
      tenant.creditReport = creditReport(c.req.valid("json").transaction_ids, ctx.now);
      return c.json(ok(creditReportView(tenant.creditReport)), 200);
    })
    .openapi(op.clearCredits, (c) => {
      tenantOf(c).tenant.creditReport = null;
      return c.json(okFields({ message: op.WITHDRAWN }), 200);
    });
}
