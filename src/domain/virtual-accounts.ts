/**
 * Virtual accounts: dedicated NUBANs at the partner bank and the spec's identity rules. Transfers
 * into them are in va-payments.ts.
 */
import { touch } from "./changes.js";
import type { Identity, VirtualAccount } from "./records.js";
import type { TenantState } from "./state.js";
import { PARTNER_BANK } from "./catalog.js";
import { iso, type DomainContext } from "./context.js";
import { DomainError } from "./errors.js";
import { makeNuban } from "./nuban.js";

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
  touch(state, "virtual_accounts", account.account_number);
  state.virtualAccountsByReference.set(account.reference, account.account_number);
  return { account, created: true };
}

export function findVirtualAccount(state: TenantState, accountNumber: string): VirtualAccount {
  const account = state.virtualAccounts.get(accountNumber);
  if (!account) throw new DomainError("NOT_FOUND", `No virtual account ${accountNumber}.`);
  return account;
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
