/** @jsxImportSource hono/jsx */
/**
 * The dashboard's "Integration checks" section: the report of GET /sandbox/v1/checks (the same
 * evaluation), fired rules first with their evidence. Each request is named by its seq in the request
 * log (`data-request-seq`, GET /sandbox/v1/requests/{seq}), with a button that opens it in the Logs
 * view; each delivery by its id.
 */
import type { CheckResult } from "../domain/checks.js";
import { plural, spokenList } from "../domain/prose.js";
import { integrationChecks } from "../engine/integration-checks.js";
import type { Tenant } from "../engine/tenant.js";
import { Table } from "./dashboard-tables.js";
import { Chip } from "./dashboard-ui.js";

/** A severity's chip: errors fail the verdict, warnings do not. */
const SEVERITY_TONE: Record<CheckResult["severity"], string> = { error: "failed", warning: "warn", info: "processing" };

function Evidence({ rule }: { rule: CheckResult }) {
  const { requests, deliveries, transactions } = rule.evidence;
  const more = rule.occurrences - requests.length - deliveries.length - transactions.length;
  return (
    <ul>
      {requests.map((r) => (
        <li data-request-seq={String(r.seq)}>
          <span class="mono">#{r.seq} {r.method} {r.path} → {r.status ?? "reset"}{r.error_code ? ` ${r.error_code}` : ""}</span>: {r.note}{" "}
          {/* Opens the request whole in the Logs view (the dashboard's script handles data-request anywhere). */}
          <button type="button" class="secondary" data-request={String(r.seq)} aria-label={`Open request ${r.seq} in the Logs view`}>Open</button>
        </li>
      ))}
      {deliveries.map((d) => (
        <li data-delivery-id={d.id}>
          <span class="mono">{d.id}</span> {d.event_type} → {d.status_code === null ? "no answer" : `HTTP ${d.status_code}`}: {d.note}
        </li>
      ))}
      {transactions.map((t) => (
        <li>
          <span class="mono">{t.transaction_id}</span>: {t.note}
        </li>
      ))}
      {more > 0 ? <li class="muted">… and {more} more</li> : null}
    </ul>
  );
}

export function Checks({ tenant }: { tenant: Tenant }) {
  const { summary: s, examined: x, rules } = integrationChecks(tenant);
  const fired = rules.filter((r) => r.status === "fired");
  const quiet = rules.filter((r) => r.status !== "fired");
  return (
    <div>
      <p class={s.verdict === "fail" ? "error" : "success"} data-verdict={s.verdict}>
        {s.verdict === "fail" ? "Fails" : "Passes"}: {spokenList([plural(s.errors, "error"), plural(s.warnings, "warning"), `${s.infos} info`])} fired;{" "}
        {s.passed} passed, {s.not_applicable} not applicable.
      </p>
      <p class="muted">
        Judged {x.request_log ? `${plural(x.requests, "request")} of the request log` : "no requests (the request log is off)"},{" "}
        {plural(x.deliveries, "webhook delivery attempt")} and {plural(x.events, "event")};{" "}
        {x.credits_reported === null ? "no credit report (PUT /sandbox/v1/checks/credits)" : `a credit report of ${plural(x.credits_reported, "credited payment")}`}.
        The same report: <span class="mono">merchant-sandbox check</span>, GET /sandbox/v1/checks.
      </p>
      <Table label="Fired rules" caption="Fired rules, the most severe first" head={["Severity", "Rule", "Times", "Evidence"]} empty="No rule fired.">
        {fired.map((r) => (
          <tr data-check={r.id} data-key={r.id}>
            <td data-label="Severity"><Chip status={SEVERITY_TONE[r.severity]} label={r.severity} /></td>
            <td data-label="Rule">
              <strong>{r.title}</strong>
              <br />
              <span class="mono muted">{r.id}</span>
              <p class="muted">{r.rationale}</p>
            </td>
            <td data-label="Times">{r.occurrences}</td>
            <td data-label="Evidence" class="block"><Evidence rule={r} /></td>
          </tr>
        ))}
      </Table>
      <details>
        <summary>Rules that did not fire ({quiet.length})</summary>
        <ul>
          {quiet.map((r) => (
            <li data-check={r.id}>
              {r.status === "passed" ? "passed" : "not applicable"}: <span class="mono">{r.id}</span> ({r.severity}) {r.title}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
