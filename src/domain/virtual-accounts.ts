/**
 * Virtual accounts: dedicated NUBANs at the partner bank, the spec's identity rules, and transfers
 * into them (credited to the wallet at once and recorded as transaction status records).
 */
import type { Identity, VaPayment, VirtualAccount } from "./records.js";
import type { TenantState } from "./state.js";
import { PARTNER_BANK } from "./catalog.js";
import { iso, type DomainContext } from "./context.js";
import { DomainError } from "./errors.js";
import { paymentReceived } from "./events.js";
import { post } from "./ledger.js";
import { toMajor, type Minor } from "./money.js";
import { makeNuban } from "./nuban.js";
import { z } from "./zod.js";
import { isoTime } from "./fields.js";

export type VirtualAccountRequest =
  | {
      customer_type: "individual";
      email: string;
      reference: string;
      first_name: string;
      last_name: string;
      bvn?: string;
      nin?: string;
    }
  | { customer_type: "business"; email: string; reference: string; business_name: string; cac_number: string };

/** Individual: bvn, else nin, else the merchant's KYC BVN, else its KYC NIN. Business: the cac_number. */
export function identityFor(ctx: DomainContext, req: VirtualAccountRequest): Identity {
  if (req.customer_type === "business") return { type: "cac", value: req.cac_number, source: "customer" };
  if (req.bvn) return { type: "bvn", value: req.bvn, source: "customer" };
  if (req.nin) return { type: "nin", value: req.nin, source: "customer" };
  const { bvn, nin } = ctx.config.kyc;
  if (bvn) return { type: "bvn", value: bvn, source: "merchant_kyc" };
  if (nin) return { type: "nin", value: nin, source: "merchant_kyc" };
  throw new DomainError(
    "KYC_REQUIRED",
    "No identification for this customer: send bvn or nin, or complete the merchant's own KYC (BVN or NIN).",
  );
}

/**
 * Allocates a NUBAN at the partner bank that no merchant of this sandbox holds (also used for
 * one-time payment-link accounts): a bank's account numbers are unique, whoever opened them.
 */
export function allocateAccountNumber(ctx: DomainContext): string {
  let number: string;
  do number = makeNuban(PARTNER_BANK.cbn_code, ctx.ids.digits(9));
  while (!ctx.claim("account", number));
  return number;
}

/**
 * Creates the account, or returns the existing one when the same reference is sent again with the
 * same customer and identity (safe retries). A reference reused for anything else is refused: the
 * identity behind an account cannot change.
 */
export function createVirtualAccount(
  ctx: DomainContext,
  state: TenantState,
  req: VirtualAccountRequest,
): { account: VirtualAccount; created: boolean } {
  const identity = identityFor(ctx, req);
  const customer_name = req.customer_type === "business" ? req.business_name : `${req.first_name} ${req.last_name}`;
  const existingNumber = state.virtualAccountsByReference.get(req.reference);
  if (existingNumber !== undefined) {
    const existing = state.virtualAccounts.get(existingNumber)!;
    const same =
      existing.customer_type === req.customer_type &&
      existing.customer_email === req.email &&
      existing.customer_name === customer_name &&
      existing.identity.type === identity.type &&
      existing.identity.value === identity.value;
    if (same) return { account: existing, created: false };
    throw new DomainError(
      "DUPLICATE_REFERENCE",
      `A virtual account with reference ${req.reference} already exists for another customer or identity; the identity behind an account cannot be changed.`,
    );
  }
  const account: VirtualAccount = {
    account_number: allocateAccountNumber(ctx),
    account_name: `${ctx.config.business_name}-${customer_name}`,
    bank_name: PARTNER_BANK.bank_name,
    customer_type: req.customer_type,
    customer_name,
    customer_email: req.email,
    reference: req.reference,
    status: "Enabled",
    identity,
    created_at: ctx.now,
  };
  state.virtualAccounts.set(account.account_number, account);
  state.virtualAccountsByReference.set(account.reference, account.account_number);
  return { account, created: true };
}

export function findVirtualAccount(state: TenantState, accountNumber: string): VirtualAccount {
  const account = state.virtualAccounts.get(accountNumber);
  if (!account) throw new DomainError("NOT_FOUND", `No virtual account ${accountNumber}.`);
  return account;
}

export interface IncomingTransfer {
  account_number: string;
  amount: Minor;
  narration?: string;
  payer_name?: string;
  payer_bank?: string;
}

/** A bank transfer into a virtual account: credited to the wallet at once, recorded as `success`. */
export function receiveTransfer(ctx: DomainContext, state: TenantState, t: IncomingTransfer): VaPayment {
  const account = findVirtualAccount(state, t.account_number);
  const transaction_id = ctx.ids.id("TXN");
  const payment: VaPayment = {
    transaction_id,
    reference: t.narration ?? `Transfer to ${account.account_name}`,
    amount: t.amount,
    currency: "NGN",
    status: "success",
    payer_name: t.payer_name ?? "OKAFOR CHINEDU EMMANUEL",
    payer_bank: t.payer_bank ?? "Guaranty Trust Bank",
    virtual_account: account.account_number,
    created_at: ctx.now,
  };
  post(state, ctx.now, [
    { kind: "va_payment", amount: t.amount, transaction_id, description: `Transfer into ${account.account_number} from ${payment.payer_name}` },
  ]);
  const list = state.vaPayments.get(payment.reference);
  if (list) list.push(payment);
  else state.vaPayments.set(payment.reference, [payment]);
  paymentReceived(ctx, state, payment);
  return payment;
}

/** Narrations are not unique: the most recent payment carrying the reference is returned. */
export function findVaPayment(state: TenantState, reference: string): VaPayment {
  const payment = state.vaPayments.get(reference)?.at(-1);
  if (!payment) throw new DomainError("NOT_FOUND", `No transaction with reference ${reference}.`);
  return payment;
}

export function virtualAccountView(a: VirtualAccount) {
  return {
    account_number: a.account_number,
    account_name: a.account_name,
    bank_name: a.bank_name,
    customer_name: a.customer_name,
    customer_email: a.customer_email,
    customer_type: a.customer_type,
    reference: a.reference,
    status: a.status,
    created_at: iso(a.created_at),
  };
}

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

/** The transaction status record as the API and the control API answer with it (vaPaymentView). */
export const TransactionStatus = z
  .object({
    reference: z.string(),
    amount: z.number(),
    currency: z.literal("NGN"),
    status: z.enum(["pending", "processing", "success", "failed"]),
    payer_name: z.string(),
    payer_bank: z.string(),
    virtual_account: z.string(),
    transaction_id: z.string(),
    created_at: isoTime,
  })
  .openapi("TransactionStatus");
