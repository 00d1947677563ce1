/**
 * Events the merchant's webhook is told about: their payload schemas (one per event type: what every
 * delivery's `data` holds), the event record, and the functions that emit them. Events are stored
 * first, so they are logged even when no URL is set, and queued in the outbox for the dispatcher.
 * Names and payloads of the events the spec leaves "not shown" follow `payment.received`: an `event`
 * name, and a `data` object with the object's fields, its `transaction_id` and a `status`.
 */
import { MAX_AMOUNT, MAX_NARRATION } from "./bounds.js";
import { iso, isoOrNull, type DomainContext } from "./context.js";
import { PAYOUT_FEE_CAP, toMajor } from "./money.js";
import { EVENT_STATUSES, timestamp, type Checkout, type Payout, type VaPayment } from "./records.js";
import type { TenantState } from "./state.js";
import { z } from "./zod.js";

const money = z.number().min(0).max(MAX_AMOUNT);
const text = z.string().max(200);
const isoTime = z.iso.datetime();

/** `payment.received`: exactly the spec's payload table. */
export const PaymentReceivedData = z.object({
  reference: z.string().max(MAX_NARRATION).describe("The payer's transfer narration, as the payer's bank sent it; not unique"),
  amount: money,
  currency: z.literal("NGN"),
  virtual_account: z.string().describe("Receiving account number"),
  payer_name: text,
  payer_bank: text,
  transaction_id: z.string().describe("The service's unique identifier; the same on every delivery of the event"),
  status: z.literal("successful"),
});

export const CheckoutCompletedData = z.object({
  reference: z.string(),
  amount: money,
  currency: z.literal("NGN"),
  description: text.nullable(),
  customer_email: z.string().max(254).nullable(),
  customer_name: text.nullable(),
  account_number: z.string(),
  paid_at: isoTime.nullable(),
  transaction_id: z.string(),
  order_no: z.string(),
  status: z.literal("successful"),
});

const payoutData = <S extends "completed" | "failed">(status: S) =>
  z.object({
    reference: z.string(),
    amount: money,
    fee: money,
    total_deducted: z.number().min(0).max(MAX_AMOUNT + toMajor(PAYOUT_FEE_CAP)),
    net_amount: money,
    currency: z.literal("NGN"),
    account: z.string().describe("**** followed by the last 4 digits"),
    account_name: text,
    bank_name: text,
    narration: z.string().max(MAX_NARRATION).nullable(),
    created_at: isoTime,
    processed_at: isoTime.nullable(),
    error: z.string().max(200).nullable(),
    transaction_id: z.string(),
    order_no: z.string(),
    status: z.literal(status),
  });
export const PayoutCompletedData = payoutData("completed");
export const PayoutFailedData = payoutData("failed");

/** Every event type and the schema of its `data`. */
export const EVENT_PAYLOADS = {
  "payment.received": PaymentReceivedData,
  "checkout.completed": CheckoutCompletedData,
  "payout.completed": PayoutCompletedData,
  "payout.failed": PayoutFailedData,
} as const;
export type EventType = keyof typeof EVENT_PAYLOADS;
export const EVENT_TYPES = Object.keys(EVENT_PAYLOADS) as [EventType, ...EventType[]];

const eventFields = {
  id: z.string().min(1).max(100),
  /** The object's transaction_id (order_no for payouts): the same on every delivery of the event. */
  transaction_id: z.string().min(1).max(100),
  created_at: timestamp,
  status: z.enum(EVENT_STATUSES),
  /** Attempts that reached (or tried to reach) the receiver, redeliveries and duplicates included. */
  attempts: z.number().int().min(0).max(1_000_000),
  /** Scheduled attempts made so far (initial + retries), which drives the retry schedule. */
  scheduled_attempts: z.number().int().min(0).max(1_000_000),
  next_attempt_at: timestamp.nullable(),
  /** Why the sandbox could not deliver it, when the failure was its own (not the receiver's answer). */
  error: z.string().max(1000).nullable().default(null),
};

/** An event of the merchant's, stored before any delivery is attempted: its `data` is typed by its `type`. */
export const WebhookEventRecord = z.discriminatedUnion(
  "type",
  EVENT_TYPES.map((type) => z.object({ ...eventFields, type: z.literal(type), data: EVENT_PAYLOADS[type] })) as unknown as [
    z.ZodObject<typeof eventFields & { type: z.ZodLiteral<EventType>; data: z.ZodType<Record<string, unknown>> }>,
  ],
);
export type WebhookEvent = z.infer<typeof WebhookEventRecord>;

export function emit<T extends EventType>(ctx: DomainContext, state: TenantState, type: T, transaction_id: string, data: z.infer<(typeof EVENT_PAYLOADS)[T]>): WebhookEvent {
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
