/**
 * A merchant's webhook delivery log (`state.deliveries`, oldest first): the newest MAX_DELIVERIES
 * attempts, and fewer when the sandbox-wide log budget takes its oldest. Cutting it changes the
 * merchant's saved state like any other change: the `--data` store finds entries cut from the front
 * itself (store/journal-diff.ts), once the merchant is saved.
 */
import type { WebhookDelivery } from "./records.js";
import { estimatedBytes, textBytes } from "./logged-request.js";
import type { TenantState } from "./state.js";

/**
 * The bytes a delivery is counted as by the log budget, estimated as a logged request is (entryBytes):
 * its texts as characters (body, headers, URL, error, the receiver's answer) and ENTRY_OVERHEAD_BYTES.
 */
export function deliveryBytes(d: WebhookDelivery): number {
  const texts = d.url.length + (d.request_body?.length ?? 0) + (d.error?.length ?? 0) + (d.response_excerpt?.length ?? 0) + textBytes(d.request_headers);
  return estimatedBytes(texts);
}

/** Cuts the `count` oldest deliveries (none when `count` <= 0); returns them. */
export function dropOldestDeliveries(state: TenantState, count: number): WebhookDelivery[] {
  return count > 0 ? state.deliveries.splice(0, count) : [];
}

/** Cuts the oldest deliveries until their bytes (deliveryBytes) reach `bytes`, or none is left; returns the bytes cut. */
export function shedDeliveries(state: TenantState, bytes: number): number {
  let freed = 0;
  let count = 0;
  while (freed < bytes && count < state.deliveries.length) freed += deliveryBytes(state.deliveries[count++]!);
  dropOldestDeliveries(state, count);
  return freed;
}
