/** @jsxImportSource hono/jsx */
/**
 * The dashboard's events and webhook deliveries, linked both ways: a delivery names its event (the link
 * narrows the events table to it), an event counts its deliveries (the link narrows the deliveries table
 * to them). Links carry `data-query-set` (the query fields they set, under `data-query-prefix`) and
 * `data-focus` (what takes the focus once the section has reloaded); the dashboard's script follows them.
 * Payloads are pretty-printed and wrap inside their panel, each with a Copy button, and so is the signature.
 * Each delivery says where it went (a URL, or the built-in capture); the line above them, where new ones go.
 */
import type { Child } from "hono/jsx";
import { deliveryView, eventView } from "../domain/events.js";
import { listDeliveries, listEvents } from "../domain/lists.js";
import { plural } from "../domain/prose.js";
import { DeliveryOutcomes, EVENT_STATUSES } from "../domain/records.js";
import { CAPTURE_URL, deliveryTarget } from "../domain/webhook-policy.js";
import type { Tenant } from "../engine/tenant.js";
import { Action } from "./dashboard-controls.js";
import { EmptyList, SCENARIO_FILES } from "./dashboard-first-steps.js";
import { choices, ListTable, pageOf, Payload, tableQuery, when } from "./dashboard-tables.js";
import { Chip } from "./dashboard-ui.js";

const DELIVERIES = "deliveries.";

/** A link that narrows a table of this section through its query; `set` empty clears the table's query. */
function QueryLink(props: { prefix: string; set: Record<string, string>; focus: string; href: string; label?: string; children: Child }) {
  return (
    <a href={props.href} data-query-prefix={props.prefix} data-query-set={new URLSearchParams(props.set).toString()} data-focus={props.focus} aria-label={props.label}>
      {props.children}
    </a>
  );
}

/** Where a delivery went, as a reader names it: the built-in capture, or the URL. */
export const deliveryDestination = (url: string): Child => (url === CAPTURE_URL ? "the built-in capture" : <span class="mono wrap-anywhere">{url}</span>);

/** Where the merchant's new deliveries go (each delivery below says where it went). */
function NewDeliveries({ target }: { target: string | null }) {
  if (target === CAPTURE_URL) {
    return <p class="muted">No webhook URL set: new deliveries go to the sandbox's built-in capture (<span class="mono">{CAPTURE_URL}</span>), which answers them itself.</p>;
  }
  if (target) return <p class="muted">New deliveries go to <span class="mono">{target}</span>.</p>;
  return <p class="muted">No webhook URL set: events are logged but not delivered. Set one in <a href="/dashboard/webhook-settings">Webhook settings</a>.</p>;
}

export function Events({ tenant, query }: { tenant: Tenant; query: URLSearchParams }) {
  const state = tenant.state;
  const eq = tableQuery(query, "", EVENT_STATUSES);
  const events = pageOf(eq, (paging) => listEvents(state, { search: eq.search, status: eq.status as (typeof EVENT_STATUSES)[number] | undefined }, paging));
  const dq = tableQuery(query, DELIVERIES, DeliveryOutcomes);
  const rawEvent = query.get(`${DELIVERIES}event`)?.slice(0, 100) || undefined;
  const ofEvent = rawEvent !== undefined && state.events.has(rawEvent) ? rawEvent : undefined;
  if (rawEvent !== undefined && ofEvent === undefined) dq.notes.push("That event is not among this merchant's: showing every delivery.");
  if (ofEvent) dq.filtered = true;
  const deliveries = pageOf(dq, (paging) =>
    listDeliveries(state, { search: dq.search, status: dq.status as (typeof DeliveryOutcomes)[number] | undefined, event_id: ofEvent }, paging),
  );
  // Counted once for the page's events, in one pass over the deliveries.
  const shown = new Set(events.items.map((e) => e.id));
  const target = deliveryTarget(tenant.config);
  const counts = new Map<string, number>();
  for (const d of state.deliveries) if (shown.has(d.event_id)) counts.set(d.event_id, (counts.get(d.event_id) ?? 0) + 1);
  const noEvents = (
    <EmptyList id="events-empty" title="No events yet" scenario={SCENARIO_FILES.webhooks}>
      <p>
        An event is written whenever something changes for good: a payout settles, a transfer arrives, a link is paid. Make a{" "}
        <a href="/dashboard/payouts">payout</a> and advance the clock, or send a test event from <a href="/dashboard/webhook-settings">Webhook settings</a>.
      </p>
    </EmptyList>
  );
  const noDeliveries = (
    <EmptyList id="deliveries-empty" title="No deliveries yet">
      <p>Each attempt to deliver an event is listed here with its answer. {target ? "The next event is delivered as it is written." : "Set a webhook URL first."}</p>
    </EmptyList>
  );
  return (
    <div>
      <h3>Events</h3>
      <ListTable id="events-list" label="Events" caption="Newest first" head={["Event", "Type", "Transaction", "Status", "Attempts", "Deliveries", "Created", ""]} empty={noEvents}
        query={eq} page={events} size={state.events.size} statuses={choices(EVENT_STATUSES)} searchLabel="Search event id, type or transaction">
        {events.items.map((e) => {
          const v = eventView(e);
          const n = counts.get(v.id) ?? 0;
          return (
            <tr id={`event-${v.id}`} tabindex={-1} data-event-row={v.id}>
              <td data-label="Event" class="mono">{v.id}</td>
              <td data-label="Type">{v.type}</td>
              <td data-label="Transaction" class="mono">{v.transaction_id}</td>
              <td data-label="Status"><Chip status={v.status} /></td>
              <td data-label="Attempts">{v.attempts}</td>
              <td data-label="Deliveries">
                {n === 0 ? (
                  "0"
                ) : (
                  <QueryLink prefix={DELIVERIES} set={{ event: v.id }} focus="deliveries-heading" href="#deliveries-heading" label={`${plural(n, "delivery", "deliveries")} of ${v.id}`}>
                    {String(n)}
                  </QueryLink>
                )}
              </td>
              <td data-label="Created">{when(v.created_at)}</td>
              <td data-label="" class="actions-cell">{target ? <Action post={`/sandbox/v1/events/${v.id}/redeliver`} label="Redeliver" secondary /> : null}</td>
            </tr>
          );
        })}
      </ListTable>
      <h3 id="deliveries-heading" tabindex={-1}>Webhook deliveries{ofEvent ? <> of <span class="mono">{ofEvent}</span></> : null}</h3>
      <NewDeliveries target={target} />
      {ofEvent ? (
        <p>
          <QueryLink prefix={DELIVERIES} set={{}} focus="deliveries-heading" href="#deliveries-heading">Show every event's deliveries</QueryLink>
        </p>
      ) : null}
      <ListTable id="deliveries-list" label="Webhook deliveries" caption="Newest first" head={["Sent", "Event", "Sent to", "Trigger", "Result", "Latency", "Fault", "Next retry", "Details"]} empty={noDeliveries}
        query={dq} page={deliveries} size={state.deliveries.length} statuses={choices(DeliveryOutcomes)} statusLabel="Outcome" searchLabel="Search event, type, trigger or error"
        keep={ofEvent ? { event: ofEvent } : {}}>
        {deliveries.items.map((d) => {
          const v = deliveryView(d);
          return (
            <tr data-delivery={v.event_type} data-delivery-id={v.id} data-key={v.id}>
              <td data-label="Sent">{when(v.sent_at)}</td>
              <td data-label="Event">
                <QueryLink prefix="" set={{ q: v.event_id }} focus={`event-${v.event_id}`} href={`#event-${v.event_id}`} label={`Event ${v.event_id}`}>
                  <span class="mono">{v.event_id}</span>
                </QueryLink>
                <div>{v.event_type}</div>
              </td>
              <td data-label="Sent to" data-testid="delivery-destination">{deliveryDestination(v.url)}</td>
              <td data-label="Trigger">{v.trigger}</td>
              <td data-label="Result">
                <Chip status={v.outcome} /> {v.status_code !== null ? `HTTP ${v.status_code}` : (v.error ?? "")}
              </td>
              <td data-label="Latency">{v.latency_ms === null ? "—" : `${v.latency_ms} ms`}</td>
              <td data-label="Fault">{v.fault ?? ""}</td>
              <td data-label="Next retry">{when(v.next_retry_at)}</td>
              <td data-label="" class="details-cell block">
                <details>
                  <summary>Request and response</summary>
                  <Payload id={`delivery-${v.id}-signature`} text={v.request_headers["x-webhook-signature"] ?? null} label="Signature" what={`signature of delivery ${v.id}`} />
                  <Payload id={`delivery-${v.id}-body`} text={v.request_body} label="Body" what={`payload of delivery ${v.id}`} />
                  <Payload id={`delivery-${v.id}-response`} text={v.response_excerpt ?? v.error} label="Response" what={`response to delivery ${v.id}`} />
                </details>
              </td>
            </tr>
          );
        })}
      </ListTable>
    </div>
  );
}
