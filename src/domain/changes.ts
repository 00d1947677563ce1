/**
 * Which records of a merchant's keyed collections were added or changed in place since its `--data`
 * store last wrote: the store journals exactly these (store/journal-diff.ts), so a write costs the
 * change, not the merchant. Everything else in the state (the ledger, the bounded lists, the small
 * sections) the store compares itself; only in-place changes to records it cannot see are marked here.
 *
 * The marks exist only while a store tracks the state (`state.changed` is set by the store): without
 * `--data` nothing is recorded, so nothing grows. A missed mark would be a lost change:
 * test/robustness/save-load-roundtrip.property.test.ts replays the journal after random operations and
 * compares it with the whole state.
 */
import type { Timer } from "./records.js";

export const KEYED = ["virtual_accounts", "va_payments", "checkouts", "payouts", "vtu", "cardholders", "cards", "events"] as const;
export type KeyedSection = (typeof KEYED)[number];

/**
 * The lists that grow without bound and change only at their ends (entries appended, or cut from the
 * front), so the store diffs them in O(change) instead of comparing every entry: the ledger (append-only)
 * and the payout volume window. An entry replaced in place must be marked (`listEdited`): the store then
 * compares that list whole, once.
 */
export const END_ONLY = ["ledger", "payout_volume_entries"] as const;
export type EndOnlyList = (typeof END_ONLY)[number];

/**
 * Keys (the collection's Map key) marked since the last write, per collection, in the order first
 * marked; the timers scheduled (seq -> timer) or gone (seq -> null), which a heap of thousands
 * would otherwise have to be compared whole to find; and the end-only lists with an entry replaced.
 */
export type ChangeMarks = Record<KeyedSection, Set<string | number>> & { timers: Map<number, Timer | null>; edited: Set<EndOnlyList> };

export const noMarks = (): ChangeMarks => ({
  ...(Object.fromEntries(KEYED.map((k) => [k, new Set()])) as Record<KeyedSection, Set<string | number>>),
  timers: new Map(),
  edited: new Set(),
});

/** Marks a record added or changed in place (a card also when its transactions grew). */
export function touch(state: { changed?: ChangeMarks }, section: KeyedSection, key: string | number): void {
  state.changed?.[section].add(key);
}

/** Marks a timer scheduled (`timer`) or fired or cancelled (null). */
export function timerChanged(state: { changed?: ChangeMarks }, seq: number, timer: Timer | null): void {
  state.changed?.timers.set(seq, timer);
}

/** Marks an end-only list with an entry replaced in place (not appended or cut from the front). */
export function listEdited(state: { changed?: ChangeMarks }, list: EndOnlyList): void {
  state.changed?.edited.add(list);
}
