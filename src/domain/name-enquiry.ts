/** Payout bank list and account verification (name enquiry). */
import type { DomainContext } from "./context.js";
import { DomainError, fieldError } from "./errors.js";
import { accountHolderName } from "./names.js";
import { isPlausibleNuban } from "./nuban.js";
import { accountResolves, isMagicAccount } from "./outcomes.js";
import type { TenantState } from "./state.js";

export function bankList(ctx: DomainContext) {
  return ctx.catalog.banks.map((b) => ({ bank_code: b.bank_code, bank_name: b.bank_name }));
}

/**
 * The destination checks name enquiry and a transfer share, so one bad input gets one error code
 * whichever endpoint sees it: an unknown bank code is a VALIDATION_ERROR on bank_code; an account
 * number failing the bank's NUBAN check digit is INVALID_ACCOUNT (magic test accounts skip the check).
 */
export function assertKnownAccount(ctx: DomainContext, bankCode: string, accountNumber: string): void {
  if (!ctx.catalog.bankByCode.has(bankCode)) throw fieldError("bank_code", "Unknown bank_code: use a code from GET /api/v1/payout/banks.");
  if (!isPlausibleNuban(bankCode, accountNumber) && !isMagicAccount(accountNumber)) throw unresolved(bankCode, accountNumber);
}

const unresolved = (bankCode: string, accountNumber: string) =>
  new DomainError("INVALID_ACCOUNT", `Account ${accountNumber} could not be resolved at bank ${bankCode}.`);

export function verifyAccount(ctx: DomainContext, state: TenantState, bankCode: string, accountNumber: string) {
  assertKnownAccount(ctx, bankCode, accountNumber);
  if (!accountResolves(state, { bank_code: bankCode, account_number: accountNumber })) throw unresolved(bankCode, accountNumber);
  return { account_number: accountNumber, account_name: accountHolderName(bankCode, accountNumber), bank_code: bankCode };
}
