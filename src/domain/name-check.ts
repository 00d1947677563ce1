/**
 * A transfer names its destination twice, and the real service checks both against its own records
 * before it moves money: `account_name` against what name enquiry returns for that bank and account,
 * `bank_name` against the bank list. Names are compared the way merchants' records differ from NIP's
 * harmlessly (README "Sandbox choices"): case, accents, spacing and punctuation never matter, and the
 * holder's names may come in any order, or only some of them (at least two: a merchant that knows
 * "Segun Eze" pays EZE SEGUN FOLAKE). A word the holder's name lacks is a mismatch.
 */
import type { DomainContext } from "./context.js";
import { DomainError } from "./errors.js";
import { accountHolderName } from "./names.js";
import { enquiryGivesName } from "./outcomes.js";

/** Words of ASCII letters and digits, one space apart: what most names are, already normal but for case. */
const PLAIN = /^[A-Za-z0-9]+(?: [A-Za-z0-9]+)*$/;

/** Upper case, accents dropped, every run of characters other than letters and digits one space. */
export function normaliseName(text: string): string {
  // Four names per transfer: NFKD and two Unicode-aware replaces cost more than the rest of the check.
  if (PLAIN.test(text)) return text.toUpperCase();
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

const wordsOf = (text: string) => normaliseName(text).split(" ").filter((w) => w.length > 0);

/** Whether `given` names the holder `enquired`: each of its words one of the holder's, at least two of them (all, for a shorter name). */
export function namesHolder(given: string, enquired: string): boolean {
  return remembered(HOLDERS, enquired, given, comparedNames);
}

/** Whether `given` is the bank list's name, whatever its case, spacing and punctuation. */
export const sameBankName = (given: string, listed: string): boolean => remembered(BANKS, listed, given, comparedBankNames);

// A merchant pays the destinations it verified, again and again: the comparison of the same two names
// is remembered (a pure function of them), by the name enquiry or bank list gives, then the one sent.
// Bounded: past MEMO_ENTRIES pairs it starts again empty.
export const MEMO_ENTRIES = 4096;
type Memo = { size: number; byKnown: Map<string, Map<string, boolean>> };
const HOLDERS: Memo = { size: 0, byKnown: new Map() };
const BANKS: Memo = { size: 0, byKnown: new Map() };

function remembered(memo: Memo, known: string, given: string, compare: (given: string, known: string) => boolean): boolean {
  let answers = memo.byKnown.get(known);
  const kept = answers?.get(given);
  if (kept !== undefined) return kept;
  const answer = compare(given, known);
  if (memo.size >= MEMO_ENTRIES) {
    memo.byKnown.clear();
    memo.size = 0;
    answers = undefined;
  }
  if (!answers) memo.byKnown.set(known, (answers = new Map()));
  answers.set(given, answer);
  memo.size++;
  return answer;
}

/** namesHolder's comparison itself. */
export function comparedNames(given: string, enquired: string): boolean {
  const left = wordsOf(enquired);
  const words = wordsOf(given);
  if (words.length < Math.min(2, left.length)) return false;
  for (const word of words) {
    const at = left.indexOf(word);
    if (at < 0) return false;
    left.splice(at, 1);
  }
  return true;
}

/** sameBankName's comparison itself. */
export const comparedBankNames = (given: string, listed: string): boolean => normaliseName(given) === normaliseName(listed);

/**
 * Refuses a transfer whose `bank_name` is not the bank's, or whose `account_name` does not name the
 * account's holder, naming what the bank list and name enquiry say so the developer can fix it. Runs
 * after the bank code and account number checks (name-enquiry.ts `assertKnownAccount`). An account
 * name enquiry never names has no name to match: a test account ending 0000 is accepted and fails at
 * settlement, and one ending 0010 is refused later, when the transfer's own enquiry times out.
 */
export function assertDestinationNames(
  ctx: DomainContext,
  dest: { bank_code: string; account_number: string; account_name: string; bank_name: string },
): void {
  const bank = ctx.catalog.bankByCode.get(dest.bank_code);
  if (!bank) return; // assertKnownAccount refuses unknown codes first
  if (!sameBankName(dest.bank_name, bank.bank_name)) {
    throw new DomainError(
      "BANK_NAME_MISMATCH",
      `bank_name "${dest.bank_name}" is not the name of bank ${dest.bank_code}: the bank list (GET /api/v1/payout/banks) names it "${bank.bank_name}".`,
    );
  }
  if (!enquiryGivesName(dest.account_number)) return;
  const holder = accountHolderName(dest.bank_code, dest.account_number);
  if (!namesHolder(dest.account_name, holder)) {
    throw new DomainError(
      "ACCOUNT_NAME_MISMATCH",
      `account_name "${dest.account_name}" does not match the holder of account ${dest.account_number} at ${bank.bank_name}: ` +
        `name enquiry (POST /api/v1/payout/verify-account) returns "${holder}".`,
    );
  }
}
