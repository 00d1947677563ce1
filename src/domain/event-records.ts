/**
 * The event record and its payload schemas, one per event type: what every delivery's `data` holds.
 * Kept apart from the emitters (events.ts) so the state can name the record without importing rules.
 */
import { MAX_AMOUNT, MAX_NARRATION } from "./bounds.js";
import { PAYOUT_FEE_CAP } from "./limits.js";
import { toMajor } from "./money.js";
import { EVENT_STATUSES, timestamp } from "./records.js";
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

const CheckoutCompletedData = z.object({
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
const PayoutCompletedData = payoutData("completed");
const PayoutFailedData = payoutData("failed");

/**
 * `webhook.test`: sent only when the merchant asks (POST /sandbox/v1/webhooks/test, the dashboard's
 * "Send test event"). It names no amount, account or payer, so a receiver that credits whatever it is
 * sent cannot credit it (README "Sandbox choices").
 */
const WebhookTestData = z.object({
  transaction_id: z.string().describe("TEST_ followed by 16 characters: new for every test event, never a real transaction's"),
  status: z.literal("test"),
  message: text,
});

/** Every event type and the schema of its `data`. */
export const EVENT_PAYLOADS = {
  "payment.received": PaymentReceivedData,
  "checkout.completed": CheckoutCompletedData,
  "payout.completed": PayoutCompletedData,
  "payout.failed": PayoutFailedData,
  "webhook.test": WebhookTestData,
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
