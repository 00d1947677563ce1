/**
 * A scenario's timeline: simulated outside events (an incoming transfer, a customer paying a link)
 * that happen at set times on the merchant's clock. Entries are data with a timer each, so they
 * persist and fire like any other timer; the outcome of each is recorded on the entry, refusals
 * included (paying an expired link is something a scenario may well want to show).
 */
import type { TimelineAction, TimelineEntry } from "./records.js";
import type { TenantState } from "./state.js";
import { payCheckout } from "./checkout.js";
import type { DomainContext } from "./context.js";
import { DomainError } from "./errors.js";
import { schedule } from "./timers.js";
import { receiveTransfer } from "./va-payments.js";

export type { TimelineAction, TimelineEntry } from "./records.js";

export function addTimelineEntry(ctx: DomainContext, state: TenantState, at: number, action: TimelineAction): TimelineEntry {
  const entry: TimelineEntry = { index: state.timeline.length, at, action, result: null };
  state.timeline.push(entry);
  schedule(ctx, state, at, "timeline.run", String(entry.index));
  return entry;
}

export function runTimelineEntryWhenDue(ctx: DomainContext, state: TenantState, index: number): void {
  const entry = state.timeline[index];
  if (!entry || entry.result !== null) return;
  const a = entry.action;
  try {
    if (a.kind === "transfer") receiveTransfer(ctx, state, { ...a });
    else payCheckout(ctx, state, a.reference, a.amount);
    entry.result = "ok";
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    entry.result = `${err.code}: ${err.message}`;
  }
}
