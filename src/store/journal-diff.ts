/**
 * What changed in a merchant since its `--data` store last wrote, as journal operations. Three kinds of
 * data, three ways to find their changes, each costing the change rather than the merchant:
 *
 * - Records of the keyed collections (payouts, events, cards, ...) change in place: the domain marks
 *   them (domain/changes.ts) and the diff writes each marked record whole (an upsert). Timers are
 *   marked too, as scheduled or gone (the heap moves them around).
 * - Lists of records that never change in place (the ledger, the delivery log, the volume window, ...)
 *   are compared with the list as last written by identity: appends, entries cut from the front,
 *   entries replaced. The two that grow with the merchant (domain/changes.ts END_ONLY) only at their
 *   ends, unless the domain marked an entry replaced. Card transactions only grow, per card.
 * - Small sections (settings, clock, sequences, rules, timeline, ...) are compared as JSON text.
 *
 * A merchant whose state object was replaced (reset, snapshot PUT, a reload) is written whole (`doc`).
 */
import { END_ONLY, KEYED, noMarks, type ChangeMarks, type EndOnlyList, type KeyedSection } from "../domain/changes.js";
import type { ClockSettings, MerchantConfig, Timer } from "../domain/records.js";
import { toSnapshot, type Snapshot } from "../domain/snapshot.js";
import type { TenantState } from "../domain/state.js";

/** A merchant as the store reads it: the parts of a tenant a snapshot is made of. */
export interface LiveMerchant {
  config: MerchantConfig;
  clock: ClockSettings;
  state: TenantState;
}

export const WHOLE = ["merchant", "clock", "sequences", "outcome_rules", "timeline", "payout_attempts_by_ip", "payout_volume_sums"] as const;
export type WholeSection = (typeof WHOLE)[number];
export const LISTS = ["ledger", "deliveries", "incidents", "outbox", "held_events", "payout_attempts", "payout_volume_entries"] as const;
export type ListSection = (typeof LISTS)[number];

/** A list's change: `trim` entries cut from the front, then `set` [index, value] pairs, the list cut to `cut`, then `push`. */
export interface ListEdit {
  trim: number;
  set: Array<[number, unknown]>;
  cut: number;
  push: unknown[];
}

/** One journal operation. A journal line is the array of those of one grouped write. */
export type Op =
  | ["doc", Snapshot]
  | ["set", WholeSection, unknown]
  | ["put", KeyedSection, unknown[]]
  | ["timers", Timer[], number[]]
  | ["list", ListSection, ListEdit]
  | ["cardtx", number, number, unknown[]];

/** Each small section of a live merchant, as the snapshot holds it. */
export function wholeOf(m: LiveMerchant, section: WholeSection): unknown {
  const s = m.state;
  switch (section) {
    case "merchant":
      return m.config;
    case "clock":
      return { mode: m.clock.mode, speed: m.clock.speed, now: m.clock.now };
    case "sequences":
      return s.sequences;
    case "outcome_rules":
      return s.outcomeRules;
    case "timeline":
      return s.timeline;
    case "payout_attempts_by_ip":
      return [...s.windows.payoutAttemptsByIp].map(([ip, times]) => ({ ip, times }));
    case "payout_volume_sums": {
      const { dayStart, hourStart, daySum, hourSum } = s.windows.payoutVolume;
      return { dayStart, hourStart, daySum, hourSum };
    }
  }
}

export function listOf(s: TenantState, section: ListSection): readonly unknown[] {
  switch (section) {
    case "ledger":
      return s.ledger;
    case "deliveries":
      return s.deliveries;
    case "incidents":
      return s.incidents;
    case "outbox":
      return s.outbox;
    case "held_events":
      return s.heldEvents;
    case "payout_attempts":
      return s.windows.payoutAttempts;
    case "payout_volume_entries":
      return s.windows.payoutVolume.entries;
  }
}

export function mapOf(s: TenantState, section: KeyedSection): Map<string | number, unknown> {
  const maps: Record<KeyedSection, Map<string | number, unknown>> = {
    virtual_accounts: s.virtualAccounts,
    va_payments: s.vaPayments,
    checkouts: s.checkouts,
    payouts: s.payouts,
    vtu: s.vtu,
    cardholders: s.cardholders,
    cards: s.cards,
    events: s.events,
  };
  return maps[section];
}

/** The edit that turns `written` into `now` (elements compared by identity), applied to `written` too. */
function diffList(written: unknown[], now: readonly unknown[]): ListEdit | null {
  let trim = 0;
  if (written.length > 0 && now.length > 0 && now[0] !== written[0]) {
    // Entries cut from the front (the bounded logs, the volume window): find where `now` starts.
    const k = written.indexOf(now[0]);
    if (k > 0) trim = k;
  }
  if (trim > 0) written.splice(0, trim);
  const before = written.length;
  const set: Array<[number, unknown]> = [];
  const cut = Math.min(before, now.length);
  for (let i = 0; i < cut; i++) {
    if (now[i] !== written[i]) {
      set.push([i, now[i]]);
      written[i] = now[i];
    }
  }
  written.length = cut;
  const push = now.slice(cut);
  for (const v of push) written.push(v);
  return trim === 0 && set.length === 0 && push.length === 0 && cut === before ? null : { trim, set, cut, push };
}

/**
 * diffList for a list that changed only at its ends since `written` (no entry replaced in place):
 * O(entries cut + entries added). Null when nothing changed; undefined when the ends do not line up
 * (the list was not changed that way), for the caller to compare it whole.
 */
function diffEnds(written: unknown[], now: readonly unknown[]): ListEdit | null | undefined {
  let trim = 0;
  if (written.length > 0 && now.length > 0 && now[0] !== written[0]) {
    trim = written.indexOf(now[0]);
    if (trim === -1) return undefined; // not an entry cut from the front: a list replaced, or all of it cut
  }
  const kept = written.length - trim;
  if (kept > now.length || (kept > 0 && now[kept - 1] !== written[written.length - 1])) return undefined;
  if (trim > 0) written.splice(0, trim);
  const push = now.slice(kept);
  for (const v of push) written.push(v);
  return trim === 0 && push.length === 0 ? null : { trim, set: [], cut: kept, push };
}

const END_ONLY_LISTS: ReadonlySet<ListSection> = new Set<ListSection>(END_ONLY);

/** What one merchant's store last wrote, to diff the next write against. */
export class Tracker {
  private state: TenantState | null = null;
  private texts = new Map<WholeSection, string>();
  private lists = new Map<ListSection, unknown[]>();
  private cardTx = new Map<number, number>();
  private marks: ChangeMarks = noMarks();

  /** Takes the merchant as it stands as written (a whole write landed, or it was just loaded from its files). */
  reset(m: LiveMerchant): void {
    this.state = m.state;
    this.marks = noMarks();
    m.state.changed = this.marks;
    this.texts = new Map(WHOLE.map((w) => [w, JSON.stringify(wholeOf(m, w))]));
    this.lists = new Map(LISTS.map((l) => [l, listOf(m.state, l).slice()]));
    this.cardTx = new Map([...m.state.cardTransactions].map(([id, list]) => [id, list.length]));
  }

  /**
   * Makes the next write hold `section` whatever it is then: what the live merchant shows of it was
   * derived here rather than read back (a realtime clock run on from another process's commit by
   * this process's wall clock), so the other processes must be told it.
   */
  unwritten(section: WholeSection): void {
    this.texts.set(section, "");
  }

  /** The operations since the last write (none: nothing changed), taken as written. */
  diff(m: LiveMerchant): Op[] {
    if (m.state !== this.state || m.state.changed !== this.marks) {
      // A new state object (reset, snapshot PUT): written whole, as one operation.
      const doc = toSnapshot(m.config, m.clock, m.state);
      const ops: Op[] = [["doc", doc]];
      this.reset(m);
      return ops;
    }
    const ops: Op[] = [];
    for (const w of WHOLE) {
      const value = wholeOf(m, w);
      const text = JSON.stringify(value);
      if (text !== this.texts.get(w)) {
        this.texts.set(w, text);
        ops.push(["set", w, value]);
      }
    }
    for (const section of KEYED) {
      const marked = this.marks[section];
      if (marked.size === 0) continue;
      const map = mapOf(m.state, section);
      const records = [...marked].map((key) => map.get(key)).filter((r) => r !== undefined);
      if (section === "cards") {
        for (const id of marked) {
          const list = m.state.cardTransactions.get(id as number) ?? [];
          const from = this.cardTx.get(id as number) ?? 0;
          if (list.length > from) ops.push(["cardtx", id as number, from, list.slice(from)]);
          this.cardTx.set(id as number, list.length);
        }
      }
      marked.clear();
      if (records.length > 0) ops.push(["put", section, records]);
    }
    for (const l of LISTS) {
      const written = this.lists.get(l)!;
      const now = listOf(m.state, l);
      const ends = END_ONLY_LISTS.has(l) && !this.marks.edited.has(l as EndOnlyList) ? diffEnds(written, now) : undefined;
      const edit = ends === undefined ? diffList(written, now) : ends;
      if (edit) ops.push(["list", l, edit]);
    }
    this.marks.edited.clear();
    const added: Timer[] = [];
    const removed: number[] = [];
    for (const [seq, timer] of this.marks.timers) {
      if (timer) added.push(timer);
      else removed.push(seq);
    }
    this.marks.timers.clear();
    if (added.length > 0 || removed.length > 0) ops.push(["timers", added, removed]);
    return ops;
  }
}

/**
 * The merchant as it stands, detached from the live state where it could change under a compaction
 * that serialises it over several turns of the event loop: lists and small sections are copied now
 * (exactly as the journal's next line starts from); records of the keyed collections are not (a later
 * change to one is in the journal as the whole record, so serialising it later is harmless).
 */
export function captureDoc(m: LiveMerchant): Snapshot {
  const doc = toSnapshot(m.config, m.clock, m.state);
  const s = doc.state;
  const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
  return {
    ...doc,
    merchant: clone(doc.merchant),
    state: {
      ...s,
      ledger: s.ledger.slice(),
      sequences: { ...s.sequences },
      outcome_rules: clone(s.outcome_rules),
      outbox: s.outbox.slice(),
      held_events: s.held_events.slice(),
      deliveries: s.deliveries.slice(),
      timeline: clone(s.timeline),
      incidents: s.incidents.slice(),
      windows: {
        payout_attempts: s.windows.payout_attempts.slice(),
        payout_attempts_by_ip: clone(s.windows.payout_attempts_by_ip),
        payout_volume: { ...s.windows.payout_volume, entries: s.windows.payout_volume.entries.slice() },
      },
    },
  };
}
