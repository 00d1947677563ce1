/** @jsxImportSource hono/jsx */
/**
 * The dashboard's Logs view: the merchant's request log (newest 50), and one request opened whole, with
 * its headers, its bodies, and links to the objects it touched and the webhooks it caused. Rendered from
 * the same views as GET /sandbox/v1/requests and /requests/{seq} (domain/request-log-views.ts). Each
 * object is shown as it is now from the state, never by calling /api/v1 from the page: a status read
 * there would be one more request of the merchant's (and may settle a payout that settles on its Nth
 * read). Buttons carry `data-request` (open one) and `data-close-request`: the dashboard's script sends them.
 * An object links to its story where it has one, else to the view that lists it.
 */
import { deliveryView } from "../domain/events.js";
import type { TouchedObject } from "../domain/request-log.js";
import { listRequests, requestSummaryView, requestView, touchedRecord } from "../domain/request-log-views.js";
import type { TenantState } from "../domain/state.js";
import type { Tenant } from "../engine/tenant.js";
import { choices, ListTable, pageOf, Payload, Table, tableQuery, when } from "./dashboard-tables.js";
import { SampleTag } from "./dashboard-sample.js";
import { deliveryDestination } from "./dashboard-events.js";
import { Chip, EmptyState, storyHref } from "./dashboard-ui.js";

/** The status filter's classes, as GET /sandbox/v1/requests takes them. */
const CLASSES: Record<string, readonly [number, number]> = { "2xx": [200, 299], "3xx": [300, 399], "4xx": [400, 499], "5xx": [500, 599] };
const CLASS_NAMES = Object.keys(CLASSES);

/** An answer's status as a chip: its class gives the colour, the code (or the reset) is the text. */
function StatusChip({ status, testid }: { status: number | null; testid?: string }) {
  const tone = status === null || status >= 500 ? "failed" : status >= 400 ? "warn" : "ok";
  return <Chip status={tone} label={status === null ? "reset" : String(status)} testid={testid} />;
}

/** Where the dashboard shows a touched object: its story, else the view that lists it. */
function objectHref(state: TenantState, o: TouchedObject): string {
  switch (o.kind) {
    case "payout":
    case "checkout":
    case "va_payment":
      return storyHref(o.kind, o.id);
    case "card":
      return storyHref("card", o.id);
    case "vtu": {
      // Logged by its transaction_id; its story is named by its reference.
      for (const p of state.vtu.values()) if (p.transaction_id === o.id) return storyHref("vtu", p.reference);
      return "/dashboard/vtu";
    }
    case "virtual_account":
      return "/dashboard/virtual-accounts";
    case "cardholder":
    case "card_transaction":
      return "/dashboard/cards";
  }
}

export function RequestLogList({ tenant, query }: { tenant: Tenant; query: URLSearchParams }) {
  const log = tenant.requestLog;
  if (!log.enabled) return <p class="muted">The request log is off on this sandbox (started with <span class="mono">--request-log 0</span>).</p>;
  const q = tableQuery(query, "", CLASS_NAMES);
  const page = pageOf(q, (paging) => listRequests(log, { path: q.search, status: q.status === undefined ? undefined : CLASSES[q.status] }, paging));
  return (
    <div>
      <p class="muted">
        Every <span class="mono">/api/v1</span> request made with this merchant's keys and the answer it got: {log.size} kept of at most{" "}
        {log.capacity}. Times are the merchant's clock. Also: <span class="mono">GET /sandbox/v1/requests</span> and{" "}
        <span class="mono">merchant-sandbox logs --follow</span>.
      </p>
      <ListTable
        id="logs-list"
        label="Requests"
        caption="Newest first"
        head={["#", "Time", "Method", "Path", "Status", "Error code", "Latency", ""]}
        empty={
          <EmptyState id="logs-empty" title="No API requests yet">
            <p>
              Every request to <span class="mono">/api/v1</span> with this merchant's keys appears here with its answer. The first calls to make, ready to
              copy, are on <a href="/dashboard">Home</a>; <span class="mono">merchant-sandbox logs --follow</span> prints them as they come.
            </p>
          </EmptyState>
        }
        query={q}
        page={page}
        size={log.size}
        statuses={choices(CLASS_NAMES)}
        searchLabel="Path starts with"
      >
        {page.items.map((e) => {
          const r = requestSummaryView(e);
          return (
            <tr data-request-row={String(r.seq)} data-key={String(r.seq)}>
              <td data-label="#">{r.seq}</td>
              <td data-label="Time">{when(r.at)}</td>
              <td data-label="Method">{r.method}</td>
              <td data-label="Path" class="mono wrap-anywhere">{r.query ? `${r.path}?${r.query}` : r.path}<SampleTag on={r.sample} /></td>
              <td data-label="Status"><StatusChip status={r.status} testid="request-status" /></td>
              <td data-label="Error code" class="mono">{r.error_code ?? ""}</td>
              <td data-label="Latency">{r.latency_ms} ms</td>
              <td data-label="" class="actions-cell">
                <button type="button" class="secondary" data-request={String(r.seq)} aria-label={`Open request ${r.seq}`}>Open</button>
              </td>
            </tr>
          );
        })}
      </ListTable>
    </div>
  );
}

export function RequestDetail({ tenant, seq }: { tenant: Tenant; seq: number }) {
  const entry = tenant.requestLog.get(seq);
  if (!entry) return <p class="error">Request {seq} is no longer in the log.</p>;
  const r = requestView(entry, tenant.state);
  const deliveries = tenant.state.deliveries;
  return (
    <div data-testid="request-detail" class="gap-top">
      <div class="row">
        <h3 id="request-detail-heading" tabindex={-1}>
          Request {r.seq}: {r.method} <span class="mono">{r.path}</span>
        </h3>
        <button type="button" class="secondary" data-close-request="">Close</button>
      </div>
      {r.sample ? (
        <p class="notice" data-testid="request-sample">
          <span class="tag">sample</span> The sandbox made this request itself when it created the demo merchant (its sample activity), not your code.
        </p>
      ) : null}
      <dl class="details">
        <dt>Status</dt>
        <dd>
          <StatusChip status={r.status} />{r.status === null ? " no answer: connection reset" : ""} {r.error_code ?? ""}
          {r.delivery === "slow_response" ? " (held back)" : ""}
        </dd>
        <dt>Operation</dt>
        <dd class="mono">{r.operation ?? "—"}</dd>
        <dt>Query</dt>
        <dd class="mono">{r.query || "—"}</dd>
        <dt>Merchant time</dt>
        <dd>{when(r.at)}</dd>
        <dt>Wall time</dt>
        <dd>{when(r.wall_at)}</dd>
        <dt>Latency</dt>
        <dd>{r.latency_ms} ms</dd>
        <dt>Client IP</dt>
        <dd class="mono">{r.client_ip}</dd>
        <dt>Request id</dt>
        <dd class="mono">{r.request_id}</dd>
      </dl>
      <h4>Request headers</h4>
      <Table label="Request headers" caption="The secret is never kept; the key is masked" head={["Header", "Value"]} empty="No headers.">
        {Object.entries(r.request_headers).map(([name, value]) => (
          <tr>
            <td data-label="Header" class="mono">{name}</td>
            <td data-label="Value" class="mono wrap-anywhere" data-header={name}>{value}</td>
          </tr>
        ))}
      </Table>
      <Payload id={`request-${r.seq}-body`} text={r.request_body} whole={!r.request_body_truncated} label="Request body" what={`request body of request ${r.seq}`} testid="request-body" />
      <Payload id={`request-${r.seq}-response`} text={r.response_body} whole={!r.response_body_truncated} label="Response body" what={`response body of request ${r.seq}`} testid="response-body" />
      <h4>Objects it touched</h4>
      <Table label="Objects touched" caption="Each as it is now; the link opens it in the dashboard" head={["Kind", "Id", "Read it with", "Now"]} empty="None.">
        {r.links.objects.map((o, i) => {
          const record = touchedRecord(tenant.state, o, tenant.clock.now());
          return (
            <tr data-object={`${o.kind}:${o.id}`}>
              <td data-label="Kind">{o.kind}</td>
              <td data-label="Id" class="mono">
                <a href={objectHref(tenant.state, o)}>{o.id}</a>
              </td>
              <td data-label="Read it with" class="mono wrap-anywhere">{o.url ? `GET ${o.url}` : "—"}</td>
              <td data-label="Now">
                {record === null ? (
                  <span class="muted">gone (the merchant was reset)</span>
                ) : (
                  <details>
                    <summary>Record</summary>
                    <pre class="mono wrap" id={`object-${r.seq}-${i}`}>{JSON.stringify(record, null, 2)}</pre>
                  </details>
                )}
              </td>
            </tr>
          );
        })}
      </Table>
      <h4>Webhooks it caused</h4>
      <Table label="Webhooks caused" caption="Each event and its delivery attempts" head={["Event", "Type", "Status", "Deliveries"]} empty="None.">
        {r.links.events.map((ev) => (
          <tr data-event={ev.id}>
            <td data-label="Event" class="mono">
              <a href="/dashboard/events">{ev.id}</a>
            </td>
            <td data-label="Type">{ev.type ?? "—"}</td>
            <td data-label="Status">{ev.status ? <Chip status={ev.status} /> : "gone"}</td>
            <td data-label="Deliveries">
              {deliveries
                .filter((d) => d.event_id === ev.id)
                .map((d) => {
                  const v = deliveryView(d);
                  return (
                    <div data-testid="event-delivery">
                      {when(v.sent_at)} {v.trigger} to {deliveryDestination(v.url)}: <Chip status={v.outcome} /> {v.status_code !== null ? `HTTP ${v.status_code}` : (v.error ?? "")}
                      {v.latency_ms === null ? "" : `, ${v.latency_ms} ms`}
                      {v.fault ? `, fault ${v.fault}` : ""}
                    </div>
                  );
                })}
              <span class="muted mono">{ev.deliveries_url}</span>
            </td>
          </tr>
        ))}
      </Table>
    </div>
  );
}
