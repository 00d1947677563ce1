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

export function verifyAccount(ctx: DomainContext, state: TenantState, bankCode: string, accountNumber: string) {
  if (!ctx.catalog.bankByCode.has(bankCode)) throw fieldError("bank_code", "Unknown bank_code: use a code from GET /api/v1/payout/banks.");
  const wellFormed = isPlausibleNuban(bankCode, accountNumber) || isMagicAccount(accountNumber);
  if (!wellFormed || !accountResolves(state, { bank_code: bankCode, account_number: accountNumber })) {
    throw new DomainError("INVALID_ACCOUNT", `Account ${accountNumber} could not be resolved at bank ${bankCode}.`);
  }
  return { account_number: accountNumber, account_name: accountHolderName(bankCode, accountNumber), bank_code: bankCode };
}
