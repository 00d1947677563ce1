/**
 * The request log as the control API, the dashboard and the CLI read it: one page of it (newest first,
 * or oldest first after a seq, for a reader that tails it), each request without its headers and bodies,
 * and one request whole, with links to what it touched and the webhooks it caused. Reads only.
 */
import { iso } from "./context.js";
import { newestFirst, paginate, type Page, type Paging } from "./lists.js";
import type { LoggedRequest, RequestLog, TouchedObject } from "./request-log.js";
import type { TenantState } from "./state.js";
import { cardholderView, cardTransactionView, cardView } from "./cards.js";
import { checkoutView } from "./checkout.js";
import { payoutStatusView } from "./payouts.js";
import { vaPaymentView } from "./va-payments.js";
import { virtualAccountView } from "./virtual-accounts.js";
import { vtuRecordView } from "./vtu.js";

/** Filters of GET /sandbox/v1/requests; each given one must hold. Times are ms on the merchant's clock, both ends included. */
export interface RequestFilter {
  /** Status codes from..to, both included: a class (400..499) or one code. A reset connection has none. */
  status?: readonly [number, number];
  /** A prefix of the path. */
  path?: string;
  error_code?: string;
  operation?: string;
  since?: number;
  until?: number;
  /** Only requests with a higher seq, oldest first (a tailing reader's cursor). */
  after?: number;
}

function matches(f: RequestFilter, e: LoggedRequest): boolean {
  return (
    (f.status === undefined || (e.status !== null && e.status >= f.status[0] && e.status <= f.status[1])) &&
    (f.path === undefined || e.path.startsWith(f.path)) &&
    (f.error_code === undefined || e.error_code === f.error_code) &&
    (f.operation === undefined || e.operation === f.operation) &&
    (f.since === undefined || e.at >= f.since) &&
    (f.until === undefined || e.at <= f.until)
  );
}

/** One page of the log: newest first, or, with `after`, the requests after that seq, oldest first. One pass. */
export function listRequests(log: RequestLog, f: RequestFilter, paging: Paging): Page<LoggedRequest> {
  const all = log.all();
  if (f.after === undefined) return newestFirst(all, (e) => matches(f, e), paging);
  const after = f.after;
  return paginate(
    all.filter((e) => e.seq > after && matches(f, e)),
    paging.page,
    paging.per_page,
  );
}

/**
 * The objects the sandbox's own sample requests touched (`sample`), as `kind:id`: what the dashboard
 * tags "sample". Only while those requests are in the log: it is traffic, and a restart empties it.
 */
export function sampleObjects(log: RequestLog): Set<string> {
  const keys = new Set<string>();
  for (const e of log.all()) if (e.sample) for (const o of e.objects) keys.add(`${o.kind}:${o.id}`);
  return keys;
}

/** What a reader is told about the log itself: whether it is on, its bounds, and where its seqs are. */
export const requestLogView = (log: RequestLog) => ({ enabled: log.enabled, capacity: log.capacity, size: log.size, next_seq: log.next });

/** A request without its headers and bodies (which can be large): what a list shows. */
export const requestSummaryView = (e: LoggedRequest) => ({
  seq: e.seq,
  request_id: e.request_id,
  method: e.method,
  path: e.path,
  query: e.query,
  operation: e.operation,
  status: e.status,
  error_code: e.error_code,
  latency_ms: e.latency_ms,
  client_ip: e.client_ip,
  at: iso(e.at),
  wall_at: iso(e.wall_at),
  delivery: e.delivery,
  objects: e.objects,
  events: e.events,
  sample: e.sample,
});

const q = encodeURIComponent;

/** A touched object found in the state: the URL that shows it, and its record as that URL's view shows it. */
interface Located {
  url: string;
  record: (now: number) => unknown;
}

/** Where a touched object can be read now: the /api/v1 URL that shows it (the control API's where the API has none); undefined once it is gone (a reset). */
function locate(state: TenantState, o: TouchedObject): Located | undefined {
  const n = Number(o.id);
  switch (o.kind) {
    case "payout": {
      const p = state.payouts.get(o.id);
      return p && { url: `/api/v1/payout/status?reference=${q(o.id)}`, record: () => payoutStatusView(p) };
    }
    case "virtual_account": {
      const a = state.virtualAccounts.get(o.id);
      return a && { url: `/api/v1/virtual-account/${q(o.id)}`, record: () => virtualAccountView(a) };
    }
    case "va_payment": {
      // The API looks payments up by narration, which is not unique: the control list finds one by its key.
      const p = state.vaPayments.get(o.id);
      return p && { url: `/sandbox/v1/virtual-accounts/payments?transaction_id=${q(o.id)}`, record: () => vaPaymentView(p) };
    }
    case "checkout": {
      const c = state.checkouts.get(o.id);
      return c && { url: `/api/v1/checkout/status?reference=${q(o.id)}`, record: (now) => checkoutView(c, now) };
    }
    case "vtu": {
      for (const v of state.vtu.values()) {
        if (v.transaction_id === o.id) return { url: `/api/v1/vtu/transaction/status?reference=${q(v.reference)}`, record: () => vtuRecordView(v) };
      }
      return undefined;
    }
    case "cardholder": {
      const h = state.cardholders.get(n);
      return h && { url: `/api/v1/virtual-cards/cardholders/${n}`, record: () => cardholderView(h) };
    }
    case "card": {
      const c = state.cards.get(n);
      return c && { url: `/api/v1/virtual-cards/${n}`, record: () => cardView(c) };
    }
    case "card_transaction": {
      for (const [cardId, txns] of state.cardTransactions) {
        const t = txns.find((x) => x.transaction_id === o.id);
        if (t) return { url: `/api/v1/virtual-cards/${cardId}/transactions`, record: () => cardTransactionView(t) };
      }
      return undefined;
    }
  }
}

/** A touched object's record as it is now (`now`: the merchant's clock), as the view its URL uses shows it; null once it is gone. Reads only. */
export const touchedRecord = (state: TenantState, o: TouchedObject, now: number): unknown => locate(state, o)?.record(now) ?? null;

/** A request whole: its headers and bodies as kept, and links to the objects it touched and the events it caused. */
export const requestView = (e: LoggedRequest, state: TenantState) => {
  const { objects, events, ...rest } = requestSummaryView(e);
  return {
    ...rest,
    request_headers: e.request_headers,
    request_body: e.request_body,
    request_body_truncated: e.request_body_truncated,
    response_body: e.response_body,
    response_body_truncated: e.response_body_truncated,
    objects,
    events,
    links: {
      objects: objects.map((o) => ({ ...o, url: locate(state, o)?.url ?? null })),
      events: events.map((id) => {
        const event = state.events.get(id);
        return { id, type: event?.type ?? null, status: event?.status ?? null, deliveries_url: `/sandbox/v1/webhook-deliveries?event_id=${q(id)}` };
      }),
    },
  };
};
