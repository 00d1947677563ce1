/** @jsxImportSource hono/jsx */
/**
 * The dashboard's webhook doctor: a "Run webhook doctor" button for the merchant's own webhook_url
 * (POST /sandbox/v1/webhooks/doctor, through the dashboard's generic form sending), and the
 * scorecard of its last run, kept by the doctor desk (nothing of it is merchant state).
 */
import type { Scorecard } from "../doctor/run.js";
import { plural } from "../domain/prose.js";
import type { Tenant } from "../engine/tenant.js";
import { Table } from "./dashboard-tables.js";
import { Chip } from "./dashboard-ui.js";

const answers = (card: Scorecard["cases"][number]) =>
  card.observed.map((o) => (o.error !== null ? o.error : `${o.status_code} in ${o.latency_ms} ms`)).join(", ");

function LastRun({ card }: { card: Scorecard }) {
  return (
    <div data-testid="doctor-scorecard">
      <p class={card.ok ? "success" : "error"} data-testid="doctor-summary">
        {card.passed} of {plural(card.total, "case")} passed{card.ok ? "" : `, ${card.failed} failed`}
        {card.records && !card.records.read ? `; the records view could not be read (${card.records.error})` : ""}
      </p>
      <p class="muted">
        Last run {card.started_at.replace("T", " ").replace(/\.\d+Z$/, "Z")} against <span class="mono">{card.endpoint}</span>, in {card.duration_ms} ms
        {card.records_url ? <>; credits checked against <span class="mono">{card.records_url}</span></> : "; credits not checked (no records URL)"}
      </p>
      <Table label="Webhook doctor cases" caption="Each case: what was sent, what a correct receiver does, and why" head={["Result", "Case", "Answers", "Expected", "Details"]} empty="No cases.">
        {card.cases.map((c) => (
          <tr data-case={c.id} data-key={c.id}>
            <td data-label="Result"><Chip status={c.result} /></td>
            <td data-label="Case">{c.title} <span class="muted mono">{c.id}</span></td>
            <td data-label="Answers">{answers(c)}</td>
            <td data-label="Expected">{c.expected}</td>
            <td data-label="Details" class="block">
              {c.problem ? <p class="error">{c.problem}</p> : null}
              <details>
                <summary>What was sent, and why</summary>
                <p>{c.sent}</p>
                <p class="muted">{c.why}</p>
              </details>
            </td>
          </tr>
        ))}
      </Table>
    </div>
  );
}

export function WebhookDoctor(props: { tenant: Tenant; card: Scorecard | undefined; running: boolean }) {
  const { webhook_url, webhook_capture } = props.tenant.config;
  if (!webhook_url && !webhook_capture) {
    return (
      <p class="muted">
        No webhook URL is set. Set one in <a href="/dashboard/webhook-settings">Webhook settings</a> to grade your receiver here, or run{" "}
        <code>merchant-sandbox doctor --endpoint URL --secret S</code> against any receiver.
      </p>
    );
  }
  return (
    <div>
      <p class="muted">
        Sends a battery of signed deliveries (a valid event, a duplicate, bad signatures, a stale one, an unknown type, events out
        of order, a large payload) to{" "}
        {webhook_url ? <span class="mono">{webhook_url}</span> : "the built-in capture (no webhook URL set), which accepts everything"} and
        grades the answers. Nothing is recorded in the merchant's state.
      </p>
      <form data-post="/sandbox/v1/webhooks/doctor" class="row">
        <div>
          <label for="doctor-records-url">Records URL (optional)</label>
          <input id="doctor-records-url" name="records_url" type="url" placeholder="https://shop.example.com/credited" class="w-xl" />
        </div>
        <button type="submit" disabled={props.running}>{props.running ? "Running…" : "Run webhook doctor"}</button>
      </form>
      {props.card ? <LastRun card={props.card} /> : <p class="muted gap-top">No run yet.</p>}
    </div>
  );
}
