/**
 * A merchant as one JSON document: config, clock and state. Maps become arrays and derived indexes
 * are rebuilt on load, so a document is plain data (the `--data` file format and the snapshot API).
 * It is composed from the domain's record schemas, with their bounds, plus the checks that tie
 * records together (a ledger whose running balance adds up, keys that are unique, sequences ahead of
 * the ids they hand out): a damaged file or a hostile PUT is refused with the path named, and
 * whatever loads is a state the rules could have produced, which saves and loads back the same.
 */
import { MAX_CLOCK, MAX_DELIVERIES, MAX_INCIDENTS, MAX_OUTCOME_RULES, MAX_PAYOUT_ADDRESSES } from "./bounds.js";
import { WebhookEventRecord } from "./events.js";
import { describedEntries, keptEntries, undescribed } from "./ledger.js";
import {
  CardRecord,
  CardTransactionRecord,
  CardholderRecord,
  CheckoutRecord,
  ClockSettingsRecord,
  IncidentRecord,
  LedgerEntryRecord,
  MerchantConfigRecord,
  OutcomeRuleRecord,
  PayoutRecord,
  TimelineEntryRecord,
  TimerRecord,
  VaPaymentRecord,
  VirtualAccountRecord,
  VolumeWindowRecord,
  VtuPurchaseRecord,
  WebhookDeliveryRecord,
  timestamp,
  type ClockSettings,
  type MerchantConfig,
} from "./records.js";
import type { TenantState } from "./state.js";
import { z } from "./zod.js";

export const SNAPSHOT_FORMAT = "merchant-sandbox/v1";

const seq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const ms = timestamp;

const StateDocument = z.object({
  ledger: z.array(LedgerEntryRecord),
  virtual_accounts: z.array(VirtualAccountRecord),
  va_payments: z.array(VaPaymentRecord),
  checkouts: z.array(CheckoutRecord),
  payouts: z.array(PayoutRecord),
  vtu: z.array(VtuPurchaseRecord),
  cardholders: z.array(CardholderRecord),
  cards: z.array(CardRecord),
  card_transactions: z.array(CardTransactionRecord),
  sequences: z.object({ cardholder: seq, card: seq, timer: seq, rule: seq, captured: seq.default(0) }),
  timers: z.array(TimerRecord),
  outcome_rules: z.array(OutcomeRuleRecord).max(MAX_OUTCOME_RULES),
  events: z.array(WebhookEventRecord),
  outbox: z.array(z.string().max(100)),
  held_events: z.array(z.string().max(100)),
  deliveries: z.array(WebhookDeliveryRecord).max(MAX_DELIVERIES),
  timeline: z.array(TimelineEntryRecord).default([]),
  incidents: z.array(IncidentRecord).max(MAX_INCIDENTS).default([]),
  // Files written before the request cap moved to the wall clock also hold `minute` (sim times of
  // requests): it is dropped on load, as any unknown key, since those times mean nothing on the wall.
  windows: z.object({
    payout_attempts: z.array(ms),
    // { ip, times } per address (files written before also used [ip, times] pairs: still read).
    payout_attempts_by_ip: z.array(
      z.preprocess((v) => (Array.isArray(v) ? { ip: v[0], times: v[1] } : v), z.object({ ip: z.string().max(64), times: z.array(ms) })),
    ),
    payout_volume: VolumeWindowRecord,
  }),
});
type StateDocument = z.infer<typeof StateDocument>;

/**
 * Each record valid, without the checks that tie records together: the base a `--data` journal is
 * replayed over (store/journal-replay.ts), which may be fuzzy until the journal is applied; the result
 * then goes through SnapshotSchema.
 */
export const SnapshotShape = z.object({
  format: z.literal(SNAPSHOT_FORMAT),
  merchant: MerchantConfigRecord,
  clock: ClockSettingsRecord.extend({ now: ms.max(MAX_CLOCK) }),
  state: StateDocument,
});

export const SnapshotSchema = SnapshotShape.superRefine((doc, ctx) => checkIntegrity(doc.state, (path, message) => ctx.addIssue({ code: "custom", path: ["state", ...path], message })));
export type Snapshot = z.infer<typeof SnapshotSchema>;

/** The cross-record rules a state must keep (each record's own bounds are in its schema). */
function checkIntegrity(s: StateDocument, fail: (path: Array<string | number>, message: string) => void): void {
  let running = 0;
  s.ledger.forEach((e, i) => {
    if (e.entry_id !== i + 1) fail(["ledger", i, "entry_id"], `must be ${i + 1} (entries are numbered in order from 1)`);
    running += e.amount;
    if (e.balance_after !== running) fail(["ledger", i, "balance_after"], `must be ${running}, the running total of the amounts`);
  });
  // An entry without a description has it made from its record when read: that record must be there.
  const sources = { payouts: new Map(s.payouts.map((p) => [p.reference, p])), vaPayments: new Map(s.va_payments.map((p) => [p.transaction_id, p])) };
  for (const i of undescribed(s.ledger, sources)) {
    const e = s.ledger[i]!;
    const needs = e.kind === "va_payment" ? "no payment of va_payments has" : e.kind === "payout" || e.kind === "payout_fee" ? "no payout has order_no" : "";
    fail(["ledger", i, "description"], needs ? `is needed: ${needs} ${e.transaction_id}` : `is needed for an entry of kind ${e.kind}`);
  }

  const unique = <T>(list: T[], key: (item: T) => unknown, where: string, field: string) => {
    const seen = new Set<unknown>();
    list.forEach((item, i) => {
      const k = key(item);
      if (seen.has(k)) fail([where, i, field], `duplicate ${field} ${String(k)}`);
      seen.add(k);
    });
    return seen;
  };
  const vaNumbers = unique(s.virtual_accounts, (a) => a.account_number, "virtual_accounts", "account_number");
  unique(s.virtual_accounts, (a) => a.reference, "virtual_accounts", "reference");
  unique(s.checkouts, (c) => c.reference, "checkouts", "reference");
  s.checkouts.forEach((c, i) => vaNumbers.has(c.account_number) && fail(["checkouts", i, "account_number"], "is already a virtual account's number"));
  unique(s.checkouts, (c) => c.account_number, "checkouts", "account_number");
  unique(s.payouts, (p) => p.reference, "payouts", "reference");
  unique(s.payouts, (p) => p.order_no, "payouts", "order_no");
  unique(s.vtu, (v) => v.reference, "vtu", "reference");
  const holders = unique(s.cardholders, (h) => h.cardholder_id, "cardholders", "cardholder_id");
  unique(s.cardholders, (h) => h.email.toLowerCase(), "cardholders", "email");
  const cards = unique(s.cards, (c) => c.card_id, "cards", "card_id");
  const events = unique(s.events, (e) => e.id, "events", "id");
  unique(s.outcome_rules, (r) => r.id, "outcome_rules", "id");
  unique(s.va_payments, (p) => p.transaction_id, "va_payments", "transaction_id");
  s.va_payments.forEach((p, i) => !vaNumbers.has(p.virtual_account) && fail(["va_payments", i, "virtual_account"], "names no virtual account"));
  s.va_payments.forEach((p, i) => {
    const open = p.status === "pending" || p.status === "processing";
    if (open && p.plan === null) fail(["va_payments", i, "plan"], `is needed: a ${p.status} payment must say how it ends`);
  });
  s.cards.forEach((c, i) => !holders.has(c.cardholder_id) && fail(["cards", i, "cardholder_id"], "names no cardholder"));
  s.card_transactions.forEach((t, i) => !cards.has(t.card_id) && fail(["card_transactions", i, "card_id"], "names no card"));
  s.outbox.forEach((id, i) => !events.has(id) && fail(["outbox", i], "names no event"));
  s.held_events.forEach((id, i) => !events.has(id) && fail(["held_events", i], "names no event"));
  s.timeline.forEach((t, i) => t.index !== i && fail(["timeline", i, "index"], `must be ${i}`));

  // Sequences hand out the next ids: behind an id in use, they would hand it out again.
  const ahead = (name: keyof StateDocument["sequences"], used: number[]) => {
    const max = Math.max(0, ...used);
    if (s.sequences[name] < max) fail(["sequences", name], `must be at least ${max}, the highest ${name} number in use`);
  };
  ahead("cardholder", s.cardholders.map((h) => h.cardholder_id));
  ahead("card", s.cards.map((c) => c.card_id));
  ahead("timer", s.timers.map((t) => t.seq));
  ahead("rule", s.outcome_rules.map((r) => Number(r.id.slice("rule_".length))));

  // The windows count from their oldest entry: out of time order, they would count wrongly.
  const inOrder = (times: number[], path: Array<string | number>) => {
    const i = times.findIndex((t, n) => n > 0 && t < times[n - 1]!);
    if (i > 0) fail([...path, i], "is earlier than the entry before it (windows are in time order)");
  };
  inOrder(s.windows.payout_attempts, ["windows", "payout_attempts"]);
  s.windows.payout_attempts_by_ip.forEach(({ times }, i) => inOrder(times, ["windows", "payout_attempts_by_ip", i, "times"]));
  inOrder(s.windows.payout_volume.entries.map((e) => e.at), ["windows", "payout_volume", "entries"]);

  const v = s.windows.payout_volume;
  if (v.dayStart > v.entries.length || v.hourStart > v.entries.length || v.hourStart < v.dayStart) {
    fail(["windows", "payout_volume"], "window starts must satisfy dayStart <= hourStart <= the number of entries");
  } else {
    const sum = (from: number) => v.entries.slice(from).reduce((t, e) => t + (e.counted ? e.amount : 0), 0);
    if (v.daySum !== sum(v.dayStart)) fail(["windows", "payout_volume", "daySum"], "must be the sum of the counted entries in the day window");
    if (v.hourSum !== sum(v.hourStart)) fail(["windows", "payout_volume", "hourSum"], "must be the sum of the counted entries in the hour window");
  }
}

const byDueTime = (a: { at: number; seq: number }, b: { at: number; seq: number }) => a.at - b.at || a.seq - b.seq;

export function toSnapshot(config: MerchantConfig, clock: ClockSettings, s: TenantState): Snapshot {
  return {
    format: SNAPSHOT_FORMAT,
    merchant: config,
    clock: { mode: clock.mode, speed: clock.speed, now: clock.now! },
    state: {
      ledger: s.ledger,
      virtual_accounts: [...s.virtualAccounts.values()],
      va_payments: [...s.vaPayments.values()],
      checkouts: [...s.checkouts.values()],
      payouts: [...s.payouts.values()],
      vtu: [...s.vtu.values()],
      cardholders: [...s.cardholders.values()],
      cards: [...s.cards.values()],
      card_transactions: [...s.cardTransactions.values()].flat(),
      sequences: s.sequences,
      // In (at, seq) order: one canonical document for one state, and a valid heap as it stands.
      timers: [...s.timers].sort(byDueTime),
      outcome_rules: s.outcomeRules,
      events: [...s.events.values()],
      outbox: s.outbox,
      held_events: s.heldEvents,
      deliveries: s.deliveries,
      timeline: s.timeline,
      incidents: s.incidents,
      windows: {
        payout_attempts: s.windows.payoutAttempts,
        payout_attempts_by_ip: [...s.windows.payoutAttemptsByIp].map(([ip, times]) => ({ ip, times })),
        payout_volume: s.windows.payoutVolume,
      },
    },
  };
}

/** The document the snapshot API shows: as `toSnapshot`, with every ledger entry's description written out. */
export function shownSnapshot(config: MerchantConfig, clock: ClockSettings, s: TenantState): Snapshot {
  const doc = toSnapshot(config, clock, s);
  return { ...doc, state: { ...doc.state, ledger: describedEntries(s.ledger, s) } };
}

/** Rebuilds a live state (Maps and derived indexes) from a validated snapshot. */
export function fromSnapshot(snapshot: Snapshot): { config: MerchantConfig; clock: ClockSettings; state: TenantState } {
  const s = snapshot.state;
  const group = <K, T>(items: T[], key: (t: T) => K) => {
    const map = new Map<K, T[]>();
    for (const item of items) {
      const list = map.get(key(item));
      if (list) list.push(item);
      else map.set(key(item), [item]);
    }
    return map;
  };
  // In the order they arrived (files written before kept them grouped by narration): a stable sort by
  // arrival time, which leaves the order of a file written since as it is.
  const vaPayments = [...s.va_payments].sort((a, b) => a.created_at - b.created_at);
  const cards = new Map(s.cards.map((c) => [c.card_id, c]));
  const cardTransactions = group(s.card_transactions, (t) => t.card_id);
  for (const id of cards.keys()) if (!cardTransactions.has(id)) cardTransactions.set(id, []);
  const merchantId = snapshot.merchant.merchant_id;
  const state: TenantState = {
    ledger: s.ledger,
    virtualAccounts: new Map(s.virtual_accounts.map((a) => [a.account_number, a])),
    virtualAccountsByReference: new Map(s.virtual_accounts.map((a) => [a.reference, a.account_number])),
    vaPayments: new Map(vaPayments.map((p) => [p.transaction_id, p])),
    vaPaymentsByReference: group(vaPayments, (p) => p.reference),
    checkouts: new Map(s.checkouts.map((c) => [c.reference, c])),
    checkoutsByAccount: new Map(s.checkouts.map((c) => [c.account_number, c.reference])),
    payouts: new Map(s.payouts.map((p) => [p.reference, p])),
    vtu: new Map(s.vtu.map((v) => [v.reference, v])),
    cardholders: new Map(s.cardholders.map((h) => [h.cardholder_id, h])),
    cardholdersByEmail: new Map(s.cardholders.map((h) => [h.email.toLowerCase(), h.cardholder_id])),
    cards,
    cardTransactions,
    sequences: s.sequences,
    // Timers carry their merchant's id (a snapshot of another merchant brings its own), and the list
    // becomes a heap again whatever order the document gave: sorted by (at, seq) is one.
    timers: s.timers.map((t) => ({ ...t, merchantId })).sort(byDueTime),
    outcomeRules: s.outcome_rules,
    events: new Map(s.events.map((e) => [e.id, e])),
    outbox: s.outbox,
    heldEvents: s.held_events,
    deliveries: s.deliveries,
    timeline: s.timeline,
    incidents: s.incidents,
    windows: {
      payoutAttempts: s.windows.payout_attempts,
      // The most recently admitted addresses are last; a document from before the cap may hold more.
      payoutAttemptsByIp: new Map(s.windows.payout_attempts_by_ip.slice(-MAX_PAYOUT_ADDRESSES).map(({ ip, times }) => [ip, times])),
      payoutVolume: s.windows.payout_volume,
    },
  };
  // Descriptions a record gives again are not kept (a document has them all).
  state.ledger = keptEntries(s.ledger, state);
  return { config: snapshot.merchant, clock: snapshot.clock, state };
}

/** Parses and validates a snapshot; the error names the first bad path. */
export function parseSnapshot(raw: unknown): { snapshot: Snapshot } | { error: string; path: string } {
  const result = SnapshotSchema.safeParse(raw);
  if (result.success) return { snapshot: result.data };
  const issue = result.error.issues[0]!;
  return { error: issue.message, path: issue.path.join(".") || "(root)" };
}
