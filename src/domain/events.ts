/**
 * Events the merchant's webhook is told about: the functions that emit them (their records and
 * payload schemas are in event-records.ts) and the views the control API and dashboard show. Events are stored
 * first, so they are logged even when no URL is set, and queued in the outbox for the dispatcher.
 * Names and payloads of the events the spec leaves "not shown" follow `payment.received`: an `event`
 * name, and a `data` object with the object's fields, its `transaction_id` and a `status`.
 */
import { touch } from "./changes.js";
import { iso, isoOrNull, type DomainContext } from "./context.js";
import { EVENT_PAYLOADS, type EventType, type WebhookEvent } from "./event-records.js";
import { toMajor } from "./money.js";
import type { Checkout, Payout, VaPayment, WebhookDelivery } from "./records.js";
import type { TenantState } from "./state.js";
import type { z } from "./zod.js";

export { EVENT_PAYLOADS, EVENT_TYPES, WebhookEventRecord, type EventType, type WebhookEvent } from "./event-records.js";

export function emit<T extends EventType>(ctx: DomainContext, state: TenantState, type: T, transaction_id: string, data: z.infer<(typeof EVENT_PAYLOADS)[T]>): WebhookEvent {
  const event = record(ctx, state, type, transaction_id, data);
  state.outbox.push(event.id);
  return event;
}

function record<T extends EventType>(ctx: DomainContext, state: TenantState, type: T, transaction_id: string, data: z.infer<(typeof EVENT_PAYLOADS)[T]>): WebhookEvent {
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
    error: null,
  };
  state.events.set(event.id, event);
  touch(state, "events", event.id);
  return event;
}

export const TEST_EVENT_MESSAGE = "A test event sent on request: no money moved. Verify the signature and answer 2xx.";

/**
 * `webhook.test`, stored like any event (so it is listed, and its delivery logged) but not queued:
 * the caller delivers it at once, once (the dispatcher's `sendTest`).
 */
export function testEvent(ctx: DomainContext, state: TenantState): WebhookEvent {
  const transaction_id = ctx.ids.id("TEST");
  return record(ctx, state, "webhook.test", transaction_id, { transaction_id, status: "test", message: TEST_EVENT_MESSAGE });
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
  const data = {
    reference: p.reference,
    amount: toMajor(p.amount),
    fee: toMajor(p.fee),
    total_deducted: toMajor(p.total_deducted),
    net_amount: toMajor(p.amount),
    currency: "NGN" as const,
    account: `****${p.account_number.slice(-4)}`,
    account_name: p.account_name,
    bank_name: p.bank_name,
    narration: p.narration,
    created_at: iso(p.created_at),
    processed_at: isoOrNull(p.processed_at),
    error: p.error,
    transaction_id: p.order_no,
    order_no: p.order_no,
  };
  return p.status === "completed"
    ? emit(ctx, state, "payout.completed", p.order_no, { ...data, status: "completed" })
    : emit(ctx, state, "payout.failed", p.order_no, { ...data, status: "failed" });
}

/** An event and a delivery attempt as the control API and the dashboard show them. */
export const eventView = (e: WebhookEvent) => ({
  id: e.id,
  type: e.type,
  transaction_id: e.transaction_id,
  status: e.status,
  attempts: e.attempts,
  next_attempt_at: isoOrNull(e.next_attempt_at),
  error: e.error,
  created_at: iso(e.created_at),
  data: e.data,
});

export const deliveryView = (d: WebhookDelivery) => ({
  ...d,
  sent_at: iso(d.sent_at),
  next_retry_at: isoOrNull(d.next_retry_at),
});
