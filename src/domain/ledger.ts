/**
 * The wallet: an append-only ledger in kobo. The balance is the running total carried on the last
 * entry (so reading it is O(1)); tests check it always equals the sum of all entries.
 * Posting is synchronous and checks the whole batch before appending anything, so a batch either
 * lands entirely or not at all, and concurrent requests cannot overdraw (no `await` in between).
 */
import { MAX_BALANCE_MINOR } from "./bounds.js";
import { DomainError } from "./errors.js";
import type { Minor } from "./money.js";
import { thousands, toMajor } from "./money.js";
import type { LedgerEntry, LedgerKind } from "./records.js";
import type { TenantState } from "./state.js";

export interface Posting {
  kind: LedgerKind;
  /** Signed kobo: credits positive, debits negative. */
  amount: Minor;
  transaction_id: string;
  description: string;
}

export function balanceOf(state: TenantState): Minor {
  return state.ledger.at(-1)?.balance_after ?? 0;
}

export function lastMovementAt(state: TenantState): number | null {
  return state.ledger.at(-1)?.at ?? null;
}

/**
 * Throws (changing nothing) when the postings would take the balance below zero (INSUFFICIENT_BALANCE)
 * or past the sandbox's ceiling (BALANCE_LIMIT_EXCEEDED: kobo stay exact integers below it).
 */
function assertCanPost(state: TenantState, postings: Posting[]): void {
  const total = postings.reduce((sum, p) => sum + p.amount, 0);
  const balance = balanceOf(state);
  // Every running balance of the batch, not only the last, stays at or above zero.
  let running = balance;
  let lowest = balance;
  for (const p of postings) lowest = Math.min(lowest, (running += p.amount));
  if (lowest < 0) {
    throw new DomainError(
      "INSUFFICIENT_BALANCE",
      `Insufficient wallet balance: NGN ${toMajor(-total).toFixed(2)} needed, NGN ${toMajor(balance).toFixed(2)} available.`,
    );
  }
  if (balance + total > MAX_BALANCE_MINOR) {
    throw new DomainError(
      "BALANCE_LIMIT_EXCEEDED",
      `This credit would take the wallet past the sandbox's ceiling of NGN ${thousands(toMajor(MAX_BALANCE_MINOR))}; nothing was credited.`,
    );
  }
}

export function post(state: TenantState, now: number, postings: Posting[]): LedgerEntry[] {
  assertCanPost(state, postings);
  let balance = balanceOf(state);
  return postings.map((p) => {
    balance += p.amount;
    const entry: LedgerEntry = {
      entry_id: state.ledger.length + 1,
      at: now,
      kind: p.kind,
      amount: p.amount,
      balance_after: balance,
      transaction_id: p.transaction_id,
      description: p.description,
    };
    state.ledger.push(entry);
    return entry;
  });
}

export function ledgerEntryView(entry: LedgerEntry) {
  return {
    entry_id: entry.entry_id,
    kind: entry.kind,
    type: entry.amount >= 0 ? ("credit" as const) : ("debit" as const),
    amount: toMajor(Math.abs(entry.amount)),
    balance_after: toMajor(entry.balance_after),
    transaction_id: entry.transaction_id,
    description: entry.description,
    created_at: new Date(entry.at).toISOString(),
  };
}
