/**
 * Paged lists of a merchant's records, for the control API and dashboards: payouts, VTU purchases,
 * payment links and payments into virtual accounts, newest first (the order they were created, last
 * first), filtered by status, a time range on the merchant's clock and reference. One pass over the
 * records per request, whatever the page: O(n), never O(n^2), and only the page is kept.
 */
import { checkoutStatus } from "./checkout.js";
import { describer } from "./ledger.js";
import type { WebhookEvent } from "./event-records.js";
import type { Card, Cardholder, Checkout, LedgerEntry, OutcomeRule, Payout, VaPayment, VirtualAccount, VtuPurchase, WebhookDelivery } from "./records.js";
import type { TenantState } from "./state.js";

export interface Page<T> {
  items: T[];
  pagination: { current_page: number; per_page: number; total_pages: number; total: number };
}

/** The `pagination` of page `page` (1-based) of `total` records, `perPage` a page. */
export const pageInfo = (total: number, page: number, perPage: number): Page<never>["pagination"] => ({
  current_page: page,
  per_page: perPage,
  total_pages: Math.ceil(total / perPage),
  total,
});

/** 1-based pages; a page past the end is empty but still reports the totals. */
export function paginate<T>(all: T[], page: number, perPage: number): Page<T> {
  return { items: all.slice((page - 1) * perPage, page * perPage), pagination: pageInfo(all.length, page, perPage) };
}

/**
 * Filters every list takes; each given one must hold. Times are ms on the merchant's clock, both ends
 * included. `search`: a case-insensitive part of the record's reference or another text it shows (the
 * dashboard's search box; `reference` is the control API's exact match).
 */
export interface RecordFilter<S extends string = string> {
  status?: S;
  from?: number;
  to?: number;
  reference?: string;
  search?: string;
}

export interface Paging {
  page: number;
  per_page: number;
}

/** The records (oldest first, as the state holds them) that `keep` accepts, newest first, one page of them. */
export function newestFirst<T>(records: Iterable<T>, keep: (r: T) => boolean, { page, per_page }: Paging): Page<T> {
  const all = Array.isArray(records) ? (records as T[]) : [...records];
  const start = (page - 1) * per_page;
  const items: T[] = [];
  let total = 0;
  for (let i = all.length - 1; i >= 0; i--) {
    const record = all[i]!;
    if (!keep(record)) continue;
    if (total >= start && items.length < per_page) items.push(record);
    total++;
  }
  return { items, pagination: pageInfo(total, page, per_page) };
}

/** Whether any of `texts` holds `search` (case ignored); no search holds for every record. */
export function containsText(search: string | undefined, ...texts: Array<string | number | null | undefined>): boolean {
  if (search === undefined) return true;
  const needle = search.toLowerCase();
  return texts.some((t) => t !== null && t !== undefined && String(t).toLowerCase().includes(needle));
}

function matches(f: RecordFilter, status: string, createdAt: number, reference: string, ...texts: Array<string | number | null>): boolean {
  return (
    (f.status === undefined || status === f.status) &&
    (f.from === undefined || createdAt >= f.from) &&
    (f.to === undefined || createdAt <= f.to) &&
    (f.reference === undefined || reference === f.reference) &&
    containsText(f.search, reference, ...texts)
  );
}

/** `pending` is the spec's; the sandbox never holds a payout in it, so it matches none. */
export function listPayouts(state: TenantState, f: RecordFilter<Payout["status"] | "pending">, paging: Paging): Page<Payout> {
  return newestFirst(state.payouts.values(), (p) => matches(f, p.status, p.created_at, p.reference, p.order_no, p.account_number, p.account_name), paging);
}

/** `status` is the stored one (`success`, `processing`, `fail`). */
export function listVtuPurchases(state: TenantState, f: RecordFilter<VtuPurchase["status"]>, paging: Paging): Page<VtuPurchase> {
  return newestFirst(state.vtu.values(), (v) => matches(f, v.status, v.created_at, v.reference, v.description), paging);
}

/** `status` as a reader sees it at `now`: `expired` is derived from the clock. */
export function listCheckouts(state: TenantState, now: number, f: RecordFilter<"pending" | "paid" | "expired">, paging: Paging): Page<Checkout> {
  return newestFirst(state.checkouts.values(), (c) => matches(f, checkoutStatus(c, now), c.created_at, c.reference, c.description), paging);
}

/** `reference` is the narration, compared exactly as sent; the receiving account and the transaction_id filter too. */
export function listVaPayments(
  state: TenantState,
  f: RecordFilter<VaPayment["status"]> & { virtual_account?: string; transaction_id?: string },
  paging: Paging,
): Page<VaPayment> {
  if (f.transaction_id !== undefined) {
    // The key: at most one payment, found without a scan.
    const one = state.vaPayments.get(f.transaction_id);
    return newestFirst(one ? [one] : [], (p) => matchesPayment(f, p), paging);
  }
  return newestFirst(state.vaPayments.values(), (p) => matchesPayment(f, p), paging);
}

function matchesPayment(f: RecordFilter & { virtual_account?: string }, p: VaPayment): boolean {
  return matches(f, p.status, p.created_at, p.reference) && (f.virtual_account === undefined || p.virtual_account === f.virtual_account);
}

// The dashboard's other tables: the same paging and filters over records the control API does not list.

/** Events: `search` in the id, type or transaction_id. */
export function listEvents(state: TenantState, f: RecordFilter<WebhookEvent["status"]>, paging: Paging): Page<WebhookEvent> {
  return newestFirst(state.events.values(), (e) => matches(f, e.status, e.created_at, e.id, e.type, e.transaction_id), paging);
}

/** Delivery attempts: `status` is the outcome; `event_id` keeps one event's. */
export function listDeliveries(state: TenantState, f: RecordFilter<WebhookDelivery["outcome"]> & { event_id?: string }, paging: Paging): Page<WebhookDelivery> {
  return newestFirst(
    state.deliveries,
    (d) => (f.event_id === undefined || d.event_id === f.event_id) && matches(f, d.outcome, d.sent_at, d.event_id, d.event_type, d.trigger, d.fault, d.error),
    paging,
  );
}

/** Ledger entries: `status` is the kind. */
export function listLedger(state: TenantState, f: RecordFilter<LedgerEntry["kind"]>, paging: Paging): Page<LedgerEntry> {
  const describe = describer(state);
  return newestFirst(state.ledger, (e) => matches(f, e.kind, e.at, e.transaction_id, describe(e)), paging);
}

export function listVirtualAccounts(state: TenantState, f: RecordFilter, paging: Paging): Page<VirtualAccount> {
  return newestFirst(state.virtualAccounts.values(), (a) => matches(f, a.status, a.created_at, a.reference, a.account_number, a.account_name, a.customer_email), paging);
}

/** `status` is the KYC status. */
export function listCardholders(state: TenantState, f: RecordFilter<Cardholder["kyc_status"]>, paging: Paging): Page<Cardholder> {
  return newestFirst(state.cardholders.values(), (h) => matches(f, h.kyc_status, h.created_at, String(h.cardholder_id), h.full_name, h.email), paging);
}

export function listCards(state: TenantState, f: RecordFilter<Card["status"]>, paging: Paging): Page<Card> {
  return newestFirst(state.cards.values(), (c) => matches(f, c.status, c.created_at, String(c.card_id), c.masked_pan, c.brand, c.label), paging);
}

/** Outcome rules, newest first (the order they are tried in): `status` is the target. */
export function listOutcomeRules(state: TenantState, f: RecordFilter<OutcomeRule["target"]>, paging: Paging): Page<OutcomeRule> {
  return newestFirst(state.outcomeRules, (r) => matches(f, r.target, r.created_at, r.id, r.outcome, r.match ? JSON.stringify(r.match) : null), paging);
}
