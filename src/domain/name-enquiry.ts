/** Payout bank list and account verification (name enquiry). */
import type { DomainContext } from "./context.js";
import { DomainError, fieldError } from "./errors.js";
import { accountHolderName } from "./names.js";
import { isPlausibleNuban } from "./nuban.js";
import { iso } from "./context.js";
import { waitAdvice } from "./attempt-caps.js";
import { bankOutage, isMagicAccount, planNameEnquiry } from "./outcomes.js";
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

const unresolved = (bankCode: string, accountNumber: string, more = "") =>
  new DomainError("INVALID_ACCOUNT", `Account ${accountNumber} could not be resolved at bank ${bankCode}.${more}`);

/**
 * A bank that is down (an outcome rule `bank` `down`) refuses name enquiries and transfers alike with
 * 503 BANK_UNAVAILABLE, as NIBSS answers "91: beneficiary bank not available"; `retry_after` is the
 * rest of the outage, told as waitAdvice tells it for the merchant's clock. Checked after every local check, before the bank is asked.
 */
export function assertBankAvailable(ctx: DomainContext, state: TenantState, bankCode: string): void {
  const outage = bankOutage(ctx, state, bankCode);
  if (!outage) return;
  const bank = `${ctx.catalog.bankByCode.get(bankCode)?.bank_name ?? "The bank"} (${bankCode})`;
  if (outage.until === null) {
    throw new DomainError(
      "BANK_UNAVAILABLE",
      `${bank} is not available: it is not answering name enquiries or transfers. Try again later: in the sandbox the outage lasts until its outcome rule is deleted.`,
    );
  }
  // retry_after is true for the merchant's clock the outage runs on: real seconds, or the advance to make on a manual clock.
  const { hint, details } = waitAdvice(outage.until - ctx.now, ctx.clock);
  throw new DomainError(
    "BANK_UNAVAILABLE",
    `${bank} is not available: it is not answering name enquiries or transfers until ${iso(outage.until)} on the merchant's clock. ${hint}`,
    details,
  );
}

export function verifyAccount(ctx: DomainContext, state: TenantState, bankCode: string, accountNumber: string) {
  assertKnownAccount(ctx, bankCode, accountNumber);
  assertBankAvailable(ctx, state, bankCode);
  assertNameResolves(ctx, state, bankCode, accountNumber, "enquiry");
  return { account_number: accountNumber, account_name: accountHolderName(bankCode, accountNumber), bank_code: bankCode };
}

/**
 * The name enquiry an enquiry or a transfer makes at the bank: refused when it finds no account or the
 * bank does not answer. A transfer refused here was never sent: nothing is debited and its reference stays free.
 */
export function assertNameResolves(ctx: DomainContext, state: TenantState, bankCode: string, accountNumber: string, purpose: "enquiry" | "transfer"): void {
  const plan = planNameEnquiry(ctx, state, { bank_code: bankCode, account_number: accountNumber }, purpose);
  const notSent = purpose === "transfer" ? " The transfer was not sent: no payout was made and nothing was debited." : "";
  if (plan.outcome === "not_found") throw unresolved(bankCode, accountNumber, notSent);
  if (plan.outcome === "timeout") {
    const advice =
      purpose === "transfer"
        ? " Retry the transfer with the same reference once an enquiry (POST /api/v1/payout/verify-account) resolves the name."
        : " No name was returned; retry the enquiry, and do not transfer until it resolves.";
    throw new DomainError(
      "GATEWAY_TIMEOUT",
      `Name enquiry for account ${accountNumber} at bank ${bankCode} timed out: the bank did not answer.${notSent}${advice}`,
      { wait_ms: plan.delay_ms },
    );
  }
}
