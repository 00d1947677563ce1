/**
 * Transfers into virtual accounts, as the payer's bank sends them, and their transaction status
 * records. A transfer arrives `success` (credited at once, `payment.received`), or `pending` or
 * `processing` (nothing credited yet), which later ends on the merchant's clock:
 *   pending | processing -> success (credited now, payment.received)   after `settle_after_seconds`
 *                        -> failed  (returned to the payer: no credit, no webhook)
 * or at once through the clear and fail levers. The narration is kept exactly as sent.
 */
import { touch } from "./changes.js";
import { MAX_DELAY_SECONDS } from "./bounds.js";
import { iso, type DomainContext } from "./context.js";
import { DomainError } from "./errors.js";
import { paymentReceived } from "./events.js";
import { isoTime } from "./fields.js";
import { post } from "./ledger.js";
import { toMajor, type Minor } from "./money.js";
import { VA_PAYMENT_STATUSES, type VaPayment } from "./records.js";
import type { TenantState } from "./state.js";
import { cancelTimers, schedule } from "./timers.js";
import { findVirtualAccount } from "./virtual-accounts.js";
import { z } from "./zod.js";

/** How long a pending or processing transfer takes to end when `settle_after_seconds` is not given. */
export const DEFAULT_INBOUND_SETTLE_SECONDS = 60;

/** How a transfer arrives and, if not at once, how and when it ends. */
export interface TransferArrival {
  status?: "success" | "pending" | "processing";
  outcome?: "success" | "failed";
  settle_after_seconds?: number;
}

export interface IncomingTransfer extends TransferArrival {
  account_number: string;
  amount: Minor;
  /** Verbatim, up to MAX_NARRATION characters; when absent, `Transfer to {account_name}`. */
  narration?: string;
  payer_name?: string;
  payer_bank?: string;
}

/** The arrival fields as the control API and scenario files take them (checked together by `arrivalErrors`). */
export const TransferArrivalFields = {
  status: z.enum(["success", "pending", "processing"], { message: "Must be success, pending or processing." }).optional().openapi({
    description: "The transaction status at arrival. `success`: credited at once. `pending` or `processing`: nothing credited until it ends. Default: success.",
  }),
  outcome: z.enum(["success", "failed"], { message: "Must be success or failed." }).optional().openapi({
    description: "How a pending or processing transfer ends: `success` (credited, payment.received) or `failed` (returned to the payer: no credit, no webhook). Default: success.",
  }),
  settle_after_seconds: z
    .number({ message: "Must be a whole number of seconds." })
    .int({ message: "Must be a whole number of seconds." })
    .min(0, { message: "Must be at least 0." })
    .max(MAX_DELAY_SECONDS, { message: `Must be at most ${MAX_DELAY_SECONDS} (365 days).` })
    .optional()
    .openapi({ description: `Sim seconds after arrival at which a pending or processing transfer ends. Default: ${DEFAULT_INBOUND_SETTLE_SECONDS}.` }),
};

/** A transfer that arrives `success` has ended already: it takes no outcome and no delay. */
export function arrivalErrors(t: TransferArrival): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if ((t.status ?? "success") !== "success") return errors;
  const why = "Only a transfer that arrives pending or processing ends later: send status pending or processing, or leave this out.";
  if (t.outcome !== undefined) errors.outcome = [why];
  if (t.settle_after_seconds !== undefined) errors.settle_after_seconds = [why];
  return errors;
}

/** `arrivalErrors` as zod issues, for the schemas that take the arrival fields. */
export function refineArrival(t: TransferArrival, ctx: z.RefinementCtx): void {
  for (const [field, [message]] of Object.entries(arrivalErrors(t))) ctx.addIssue({ code: "custom", path: [field], message: message! });
}

/** A bank transfer into a virtual account: credited at once and recorded `success`, or recorded pending or processing to end later. */
export function receiveTransfer(ctx: DomainContext, state: TenantState, t: IncomingTransfer): VaPayment {
  const account = findVirtualAccount(state, t.account_number);
  const errors = arrivalErrors(t);
  if (Object.keys(errors).length > 0) throw new DomainError("VALIDATION_ERROR", "The given data was invalid.", { errors });
  const status = t.status ?? "success";
  const payment: VaPayment = {
    transaction_id: ctx.ids.id("TXN"),
    reference: t.narration ?? `Transfer to ${account.account_name}`,
    amount: t.amount,
    currency: "NGN",
    status,
    payer_name: t.payer_name ?? "OKAFOR CHINEDU EMMANUEL",
    payer_bank: t.payer_bank ?? "Guaranty Trust Bank",
    virtual_account: account.account_number,
    created_at: ctx.now,
    plan: status === "success" ? null : { outcome: t.outcome ?? "success", delay_ms: (t.settle_after_seconds ?? DEFAULT_INBOUND_SETTLE_SECONDS) * 1000 },
  };
  if (status === "success") credit(ctx, state, payment);
  state.vaPayments.set(payment.transaction_id, payment);
  touch(state, "va_payments", payment.transaction_id);
  const list = state.vaPaymentsByReference.get(payment.reference);
  if (list) list.push(payment);
  else state.vaPaymentsByReference.set(payment.reference, [payment]);
  if (status === "success") paymentReceived(ctx, state, payment);
  else schedule(ctx, state, ctx.now + payment.plan!.delay_ms, "va_payment.settle", payment.transaction_id);
  return payment;
}

/** Throws (changing nothing) when the wallet cannot take the credit. */
function credit(ctx: DomainContext, state: TenantState, p: VaPayment): void {
  post(state, ctx.now, [
    // No description: the payment gives it when the ledger is read (ledger.ts: describer).
    { kind: "va_payment", amount: p.amount, transaction_id: p.transaction_id },
  ]);
}

/** Narrations are not unique: the most recent payment carrying the reference is returned. */
export function findVaPayment(state: TenantState, reference: string): VaPayment {
  const payment = state.vaPaymentsByReference.get(reference)?.at(-1);
  if (!payment) throw new DomainError("NOT_FOUND", `No transaction with reference ${reference}.`);
  return payment;
}

export function findVaPaymentById(state: TenantState, transactionId: string): VaPayment {
  const payment = state.vaPayments.get(transactionId);
  if (!payment) throw new DomainError("NOT_FOUND", `No virtual account payment with transaction_id ${transactionId}.`);
  return payment;
}

function expectOpen(p: VaPayment, action: string): void {
  if (p.status !== "pending" && p.status !== "processing") {
    throw new DomainError("INVALID_STATE", `Payment ${p.transaction_id} is ${p.status}; only a pending or processing payment can be ${action}.`);
  }
}

/** The payer's bank confirms, forced: pending | processing -> success, credited now with payment.received. */
export function clearVaPayment(ctx: DomainContext, state: TenantState, transactionId: string): VaPayment {
  const payment = findVaPaymentById(state, transactionId);
  expectOpen(payment, "cleared");
  credit(ctx, state, payment);
  cancelTimers(state, "va_payment.settle", transactionId);
  payment.status = "success";
  touch(state, "va_payments", transactionId);
  paymentReceived(ctx, state, payment);
  return payment;
}

/** The transfer fails, forced: pending | processing -> failed; nothing was credited, and no webhook is sent. */
export function failVaPayment(state: TenantState, transactionId: string): VaPayment {
  const payment = findVaPaymentById(state, transactionId);
  expectOpen(payment, "failed");
  cancelTimers(state, "va_payment.settle", transactionId);
  payment.status = "failed";
  touch(state, "va_payments", transactionId);
  return payment;
}

/**
 * The settlement timer: applies the plan if the payment is still open (a lever may have won). A
 * transfer the wallet cannot take when it clears (the sandbox's balance ceiling) is returned to the
 * payer instead: a timer has no caller to refuse.
 */
export function settleVaPaymentWhenDue(ctx: DomainContext, state: TenantState, transactionId: string): VaPayment | undefined {
  const payment = state.vaPayments.get(transactionId);
  if (!payment || (payment.status !== "pending" && payment.status !== "processing")) return undefined;
  if (payment.plan?.outcome === "success") {
    try {
      return clearVaPayment(ctx, state, transactionId);
    } catch (err) {
      if (!(err instanceof DomainError && err.code === "BALANCE_LIMIT_EXCEEDED")) throw err;
    }
  }
  return failVaPayment(state, transactionId);
}

/** The transaction status record (GET /api/v1/transaction/status), as the API and the control API show it. */
export function vaPaymentView(p: VaPayment) {
  return {
    reference: p.reference,
    amount: toMajor(p.amount),
    currency: p.currency,
    status: p.status,
    payer_name: p.payer_name,
    payer_bank: p.payer_bank,
    virtual_account: p.virtual_account,
    transaction_id: p.transaction_id,
    created_at: iso(p.created_at),
  };
}

export const TransactionStatus = z
  .object({
    reference: z.string().openapi({ description: "The payer's narration exactly as the payer's bank sent it (may be empty); not unique" }),
    amount: z.number(),
    currency: z.literal("NGN"),
    status: z.enum(VA_PAYMENT_STATUSES).openapi({
      description: "`success`: credited. `pending` or `processing`: arrived, not credited yet. `failed`: returned to the payer, never credited.",
    }),
    payer_name: z.string(),
    payer_bank: z.string(),
    virtual_account: z.string(),
    transaction_id: z.string(),
    created_at: isoTime,
  })
  .openapi("TransactionStatus");
