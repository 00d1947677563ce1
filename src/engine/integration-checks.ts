/** A merchant's integration checks (domain/checks.ts) over its own request log, deliveries, events and credit report. */
import { evaluateChecks, type ChecksReport } from "../domain/checks.js";
import type { Tenant } from "./tenant.js";

export function integrationChecks(tenant: Tenant): ChecksReport {
  const { requestLog, state } = tenant;
  return evaluateChecks({
    requests: requestLog.all(),
    requestLogEnabled: requestLog.enabled,
    deliveries: state.deliveries,
    events: [...state.events.values()],
    credits: tenant.creditReport,
  });
}
