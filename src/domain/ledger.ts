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
import type { LedgerEntry, LedgerKind, Payout, VaPayment } from "./records.js";
import type { TenantState } from "./state.js";

export interface Posting {
  kind: LedgerKind;
  /** Signed kobo: credits positive, debits negative. */
  amount: Minor;
  transaction_id: string;
  /** Left out where the entry's source record gives it when read (`describer`). */
  description?: string;
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

/**
 * The records an entry without a description is described by: a payout's and its fee's entries by the
 * payout (`transaction_id` is its order_no), an inbound transfer's by the payment. Kept on every such
 * entry, the text was a fifth of what a payout keeps; made when read, it costs nothing until read.
 */
type LedgerSources = Pick<TenantState, "payouts" | "vaPayments">;

/** The text of a payout's entry of `kind`. */
function payoutEntryDescription(kind: LedgerKind, payout: Pick<Payout, "reference" | "bank_name" | "account_number">): string {
  return kind === "payout_fee" ? `Payout fee ${payout.reference}` : `Payout ${payout.reference} to ${payout.bank_name} ****${payout.account_number.slice(-4)}`;
}

/** The text of an inbound transfer's entry. */
const transferEntryDescription = (p: Pick<VaPayment, "virtual_account" | "payer_name">): string => `Transfer into ${p.virtual_account} from ${p.payer_name}`;

type Describe = (entry: LedgerEntry) => string;

/**
 * An entry's text made from its record, or undefined when that record is not there (or the kind keeps
 * its own). The payouts by order_no are gathered at the first payout entry, once per read: no index is
 * kept for a text only reads ask for.
 */
function madeText(sources: LedgerSources): (entry: Pick<LedgerEntry, "kind" | "transaction_id">) => string | undefined {
  let byOrderNo: Map<string, Payout> | undefined;
  return ({ kind, transaction_id }) => {
    if (kind === "va_payment") {
      const payment = sources.vaPayments.get(transaction_id);
      return payment && transferEntryDescription(payment);
    }
    if (kind !== "payout" && kind !== "payout_fee") return undefined;
    byOrderNo ??= new Map(Array.from(sources.payouts.values(), (p) => [p.order_no, p]));
    const payout = byOrderNo.get(transaction_id);
    return payout && payoutEntryDescription(kind, payout);
  };
}

/** Each entry's description: its own, or made from its record (the snapshot's checks refuse an entry with neither). */
export function describer(sources: LedgerSources): Describe {
  const made = madeText(sources);
  return (entry) => entry.description ?? made(entry) ?? "";
}

/** Entries without a description whose record cannot give one: by index. */
export function undescribed(ledger: readonly LedgerEntry[], sources: LedgerSources): number[] {
  const made = madeText(sources);
  return ledger.flatMap((e, i) => (e.description === undefined && made(e) === undefined ? [i] : []));
}

/** The entries with every description written out: what the snapshot API shows. */
export function describedEntries(ledger: readonly LedgerEntry[], sources: LedgerSources): LedgerEntry[] {
  const made = madeText(sources);
  return ledger.map((e) => (e.description !== undefined ? e : { ...e, description: made(e) ?? "" }));
}

/**
 * The entries as kept: a description dropped where the entry's record gives the same text (a snapshot,
 * or a file written before, has it on the entry).
 */
export function keptEntries(ledger: readonly LedgerEntry[], sources: LedgerSources): LedgerEntry[] {
  const made = madeText(sources);
  return ledger.map((e) => (e.description !== undefined && made(e) === e.description ? { ...e, description: undefined } : e));
}

export function ledgerEntryView(entry: LedgerEntry, describe: Describe) {
  return {
    entry_id: entry.entry_id,
    kind: entry.kind,
    type: entry.amount >= 0 ? ("credit" as const) : ("debit" as const),
    amount: toMajor(Math.abs(entry.amount)),
    balance_after: toMajor(entry.balance_after),
    transaction_id: entry.transaction_id,
    description: describe(entry),
    created_at: new Date(entry.at).toISOString(),
  };
}
