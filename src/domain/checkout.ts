/**
 * Payment links: a one-time account at the partner bank for one exact amount, valid 30 minutes.
 * Paying it (exact amount, before expiry) credits the wallet; its settlement levers arrive with the
 * clock-driven lifecycles. `expired` is derived from the clock, so no timer is needed to expire a link.
 */
import { touch } from "./changes.js";
import { keptText } from "./kept-text.js";
import { isoTime } from "./fields.js";
import { z } from "./zod.js";
import type { Checkout } from "./records.js";
import type { TenantState } from "./state.js";
import { PARTNER_BANK } from "./catalog.js";
import { iso, isoOrNull, type DomainContext } from "./context.js";
import { DomainError } from "./errors.js";
import { CHECKOUT_VALIDITY_MS } from "./limits.js";
import { checkoutCompleted } from "./events.js";
import { post } from "./ledger.js";
import { toMajor, type Minor } from "./money.js";
import { allocateAccountNumber } from "./virtual-accounts.js";


export interface CheckoutRequest {
  amount: Minor;
  description?: string;
  redirect_url?: string;
  customer_email?: string;
  customer_name?: string;
}

export function createCheckout(ctx: DomainContext, state: TenantState, req: CheckoutRequest): Checkout {
  // Unique across the sandbox: the public payment page finds its merchant by this reference alone.
  let reference: string;
  do reference = ctx.ids.id("CHK");
  while (!ctx.claim("checkout", reference));
  const checkout: Checkout = {
    reference,
    transaction_id: ctx.ids.id("TXN"),
    amount: req.amount,
    description: req.description ?? null,
    redirect_url: req.redirect_url ?? null,
    customer_email: req.customer_email ?? null,
    customer_name: req.customer_name ?? null,
    account_number: allocateAccountNumber(ctx),
    account_name: `${ctx.config.business_name} Checkout`,
    bank_name: PARTNER_BANK.bank_name,
    status: "pending",
    created_at: ctx.now,
    expires_at: ctx.now + CHECKOUT_VALIDITY_MS,
    paid_at: null,
  };
  state.checkouts.set(reference, checkout);
  touch(state, "checkouts", reference);
  state.checkoutsByAccount.set(checkout.account_number, reference);
  return checkout;
}

export function findCheckout(state: TenantState, reference: string): Checkout {
  const checkout = state.checkouts.get(reference);
  if (!checkout) throw new DomainError("NOT_FOUND", `No payment link with reference ${reference}.`);
  return checkout;
}

/**
 * The customer's transfer into the link's one-time account. Accepted only for the exact amount and
 * before expiry; a refused transfer credits nothing and leaves the link as it was (the payer's bank
 * gets the money back).
 */
export function payCheckout(ctx: DomainContext, state: TenantState, reference: string, amount?: Minor): Checkout {
  const checkout = findCheckout(state, reference);
  const status = checkoutStatus(checkout, ctx.now);
  if (status !== "pending") {
    throw new DomainError("INVALID_STATE", `Payment link ${reference} is ${status}; only a pending link can be paid.`);
  }
  const paid = amount ?? checkout.amount;
  if (paid !== checkout.amount) {
    throw new DomainError(
      "AMOUNT_MISMATCH",
      `This link accepts exactly NGN ${toMajor(checkout.amount).toFixed(2)}; a transfer of NGN ${toMajor(paid).toFixed(2)} is refused and returned to the payer.`,
    );
  }
  post(state, ctx.now, [
    { kind: "checkout_payment", amount: paid, transaction_id: checkout.transaction_id, description: keptText`Payment link ${reference} paid` },
  ]);
  checkout.status = "paid";
  checkout.paid_at = ctx.now;
  touch(state, "checkouts", reference);
  checkoutCompleted(ctx, state, checkout);
  return checkout;
}

/** `pending` until paid; `expired` once the clock reaches `expires_at` unpaid. */
export function checkoutStatus(c: Checkout, now: number): "pending" | "paid" | "expired" {
  if (c.status === "paid") return "paid";
  return now >= c.expires_at ? "expired" : "pending";
}

/** The links a checkout answers with; both are pages of this sandbox's own host. */
export function checkoutLinks(baseUrl: string, c: Checkout) {
  return {
    payment_link: `${baseUrl}/pay/${encodeURIComponent(c.reference)}`,
    checkout_url: `${baseUrl}/processor/checkout/${encodeURIComponent(c.reference)}`,
  };
}

/** The status record: the link and both its URLs (GET /api/v1/checkout/status, and the pay lever). */
export const checkoutStatusView = (baseUrl: string, c: Checkout, now: number) => ({ ...checkoutView(c, now), ...checkoutLinks(baseUrl, c) });

/** The create response: the spec's top-level fields and the link's identifiers. */
export function checkoutCreatedView(baseUrl: string, c: Checkout) {
  return {
    success: true as const,
    ...checkoutLinks(baseUrl, c),
    reference: c.reference,
    transaction_id: c.transaction_id,
    order_no: c.transaction_id,
    amount: toMajor(c.amount),
    currency: "NGN" as const,
    status: "pending" as const,
    expires_at: iso(c.expires_at),
    paid_at: null,
  };
}

export function checkoutView(c: Checkout, now: number) {
  return {
    reference: c.reference,
    transaction_id: c.transaction_id,
    order_no: c.transaction_id,
    status: checkoutStatus(c, now),
    amount: toMajor(c.amount),
    currency: "NGN" as const,
    description: c.description,
    customer_email: c.customer_email,
    customer_name: c.customer_name,
    redirect_url: c.redirect_url,
    account_number: c.account_number,
    account_name: c.account_name,
    bank_name: c.bank_name,
    created_at: iso(c.created_at),
    expires_at: iso(c.expires_at),
    paid_at: isoOrNull(c.paid_at),
  };
}

/** A payment link as the status endpoint shows it (checkoutView with its links): the API and the levers answer with it. */
export const CheckoutSchema = z
  .object({
    reference: z.string(),
    transaction_id: z.string(),
    order_no: z.string(),
    status: z.enum(["pending", "paid", "expired"]),
    amount: z.number(),
    currency: z.literal("NGN"),
    description: z.string().nullable(),
    customer_email: z.string().nullable(),
    customer_name: z.string().nullable(),
    redirect_url: z.string().nullable(),
    account_number: z.string(),
    account_name: z.string(),
    bank_name: z.string(),
    created_at: isoTime,
    expires_at: isoTime,
    paid_at: isoTime.nullable(),
    payment_link: z.string(),
    checkout_url: z.string(),
  })
  .openapi("Checkout");
