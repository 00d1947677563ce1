/**
 * Paged lists of a merchant's records, for the control API and dashboards: payouts, VTU purchases,
 * payment links and payments into virtual accounts, newest first (the order they were created, last
 * first), filtered by status, a time range on the merchant's clock and reference. One pass over the
 * records per request, whatever the page: O(n), never O(n^2), and only the page is kept.
 */
import { checkoutStatus } from "./checkout.js";
import type { Checkout, Payout, VaPayment, VtuPurchase } from "./records.js";
import type { TenantState } from "./state.js";

export interface Page<T> {
  items: T[];
  pagination: { current_page: number; per_page: number; total_pages: number; total: number };
}

/** 1-based pages; a page past the end is empty but still reports the totals. */
export function paginate<T>(all: T[], page: number, perPage: number): Page<T> {
  const total = all.length;
  return {
    items: all.slice((page - 1) * perPage, page * perPage),
    pagination: { current_page: page, per_page: perPage, total_pages: Math.ceil(total / perPage), total },
  };
}

/** Filters every list takes; each given one must hold. Times are ms on the merchant's clock, both ends included. */
export interface RecordFilter<S extends string = string> {
  status?: S;
  from?: number;
  to?: number;
  reference?: string;
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
  return { items, pagination: { current_page: page, per_page, total_pages: Math.ceil(total / per_page), total } };
}

function matches(f: RecordFilter, status: string, createdAt: number, reference: string): boolean {
  return (
    (f.status === undefined || status === f.status) &&
    (f.from === undefined || createdAt >= f.from) &&
    (f.to === undefined || createdAt <= f.to) &&
    (f.reference === undefined || reference === f.reference)
  );
}

/** `pending` is the spec's; the sandbox never holds a payout in it, so it matches none. */
export function listPayouts(state: TenantState, f: RecordFilter<Payout["status"] | "pending">, paging: Paging): Page<Payout> {
  return newestFirst(state.payouts.values(), (p) => matches(f, p.status, p.created_at, p.reference), paging);
}

/** `status` is the stored one (`success`, `processing`, `fail`). */
export function listVtuPurchases(state: TenantState, f: RecordFilter<VtuPurchase["status"]>, paging: Paging): Page<VtuPurchase> {
  return newestFirst(state.vtu.values(), (v) => matches(f, v.status, v.created_at, v.reference), paging);
}

/** `status` as a reader sees it at `now`: `expired` is derived from the clock. */
export function listCheckouts(state: TenantState, now: number, f: RecordFilter<"pending" | "paid" | "expired">, paging: Paging): Page<Checkout> {
  return newestFirst(state.checkouts.values(), (c) => matches(f, checkoutStatus(c, now), c.created_at, c.reference), paging);
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
