/**
 * Events the merchant's webhook is told about. They are stored first, so they are logged even when
 * no URL is set, and queued in the outbox for the dispatcher to deliver. Names and payloads of the
 * events the spec leaves "not shown" follow `payment.received`: an `event` name, and a `data` object
 * with the object's fields, its `transaction_id` and a `status`.
 */
import type { Checkout, Payout, TenantState, VaPayment, WebhookEvent } from "../store/types.js";
import { iso, isoOrNull, type DomainContext } from "./context.js";
import { toMajor } from "./money.js";

export const EVENT_TYPES = ["payment.received", "checkout.completed", "payout.completed", "payout.failed"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function emit(ctx: DomainContext, state: TenantState, type: EventType, transaction_id: string, data: Record<string, unknown>): WebhookEvent {
  const event: WebhookEvent = {
    id: ctx.ids.id("EVT"),
    type,
    transaction_id,
    data,
    created_at: ctx.now,
    status: "pending",
    attempts: 0,
    scheduled_attempts: 0,
    next_attempt_at: null,
  };
  state.events.set(event.id, event);
  state.outbox.push(event.id);
  return event;
}

/** `payment.received`, exactly as the spec's payload table. */
export function paymentReceived(ctx: DomainContext, state: TenantState, p: VaPayment): WebhookEvent {
  return emit(ctx, state, "payment.received", p.transaction_id, {
    reference: p.reference,
    amount: toMajor(p.amount),
    currency: p.currency,
    virtual_account: p.virtual_account,
    payer_name: p.payer_name,
    payer_bank: p.payer_bank,
    transaction_id: p.transaction_id,
    status: "successful",
  });
}

export function checkoutCompleted(ctx: DomainContext, state: TenantState, c: Checkout): WebhookEvent {
  return emit(ctx, state, "checkout.completed", c.transaction_id, {
    reference: c.reference,
    amount: toMajor(c.amount),
    currency: "NGN",
    description: c.description,
    customer_email: c.customer_email,
    customer_name: c.customer_name,
    account_number: c.account_number,
    paid_at: isoOrNull(c.paid_at),
    transaction_id: c.transaction_id,
    order_no: c.transaction_id,
    status: "successful",
  });
}

/** `payout.completed` or `payout.failed`, carrying the full payout record as the status endpoint shows it. */
export function payoutSettled(ctx: DomainContext, state: TenantState, p: Payout): WebhookEvent {
  return emit(ctx, state, p.status === "completed" ? "payout.completed" : "payout.failed", p.order_no, {
    reference: p.reference,
    amount: toMajor(p.amount),
    fee: toMajor(p.fee),
    total_deducted: toMajor(p.total_deducted),
    net_amount: toMajor(p.amount),
    currency: "NGN",
    account: `****${p.account_number.slice(-4)}`,
    account_name: p.account_name,
    bank_name: p.bank_name,
    narration: p.narration,
    created_at: iso(p.created_at),
    processed_at: isoOrNull(p.processed_at),
    error: p.error,
    transaction_id: p.order_no,
    order_no: p.order_no,
    status: p.status,
  });
}
