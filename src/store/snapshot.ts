/**
 * A merchant as one JSON document: config, clock and state. Maps become arrays and derived indexes
 * are rebuilt on load, so a document is plain data (the lowdb file format and the snapshot API).
 * Loading validates the whole document with zod: a damaged file or a bad PUT names what is wrong
 * instead of leaving a state that fails later.
 */
import { z } from "@hono/zod-openapi"; // (extended with .openapi(), so routes can name it whatever loads first)
import type { ClockSettings } from "../engine/clock.js";
import type { MerchantConfig, TenantState } from "./types.js";

export const SNAPSHOT_FORMAT = "merchant-sandbox/v1";

const int = z.number().int();
const ms = z.number().int();
const minor = z.number().int();
const str = z.string();
const nstr = z.string().nullable();
const nms = ms.nullable();

const Config = z.object({
  merchant_id: str,
  business_name: str,
  api_key: str,
  api_secret: str,
  webhook_secret: str,
  capabilities: z.object({ payouts: z.boolean(), vtu: z.boolean(), virtual_cards: z.boolean(), checkout: z.boolean() }),
  kyc: z.object({ bvn: nstr, nin: nstr }),
  ip_allowlist: z.array(str),
  webhook_url: nstr,
  webhook_capture: z.object({ fail_first: int }).nullable().default(null),
  limits: z.object({
    payout_min: minor, payout_max: minor, payout_hourly_amount: minor, payout_daily_amount: minor,
    payout_attempts_per_hour: int, payout_attempts_per_ip_per_hour: int, payout_review_threshold: minor, requests_per_minute: int,
  }),
  card_funding_fee: minor,
  usd_ngn_rate: z.number().positive(),
  clock: z.object({ mode: z.enum(["manual", "realtime"]), speed: z.number().positive() }),
  webhook: z.object({
    signature_algorithm: z.enum(["sha256", "sha512"]),
    signature_encoding: z.enum(["hex", "base64"]),
    timeout_seconds: z.number().positive(),
    retry_schedule_seconds: z.array(int),
  }),
  delays: z.object({ payout_settlement_seconds: int, vtu_settlement_seconds: int, kyc_approval_seconds: int }),
  created_at: ms,
  scenario_origin: z.object({ file: str, alias: str, digest: str }).nullable().default(null),
});

const Ledger = z.object({ entry_id: int, at: ms, kind: str, amount: minor, balance_after: minor, transaction_id: str, description: str });
const VirtualAccount = z.object({
  account_number: str, account_name: str, bank_name: str, customer_type: z.enum(["individual", "business"]), customer_name: str,
  customer_email: str, reference: str, status: z.literal("Enabled"),
  identity: z.object({ type: z.enum(["bvn", "nin", "cac"]), value: str, source: z.enum(["customer", "merchant_kyc"]) }), created_at: ms,
});
const VaPayment = z.object({
  transaction_id: str, reference: str, amount: minor, currency: z.literal("NGN"), status: z.enum(["pending", "processing", "success", "failed"]),
  payer_name: str, payer_bank: str, virtual_account: str, created_at: ms,
});
const Checkout = z.object({
  reference: str, transaction_id: str, amount: minor, description: nstr, redirect_url: nstr, customer_email: nstr, customer_name: nstr,
  account_number: str, account_name: str, bank_name: str, status: z.enum(["pending", "paid"]), created_at: ms, expires_at: ms, paid_at: nms,
});
const Payout = z.object({
  reference: str, order_no: str, amount: minor, fee: minor, total_deducted: minor,
  status: z.enum(["pending", "pending_approval", "processing", "completed", "failed"]), bank_code: str, bank_name: str, account_number: str,
  account_name: str, narration: nstr, source: z.enum(["api", "dashboard"]), client_ip: str, created_at: ms, processed_at: nms, error: nstr,
  plan: z.object({ outcome: z.enum(["completed", "failed", "hold"]), delay_ms: int, error: nstr }),
});
const Vtu = z.object({
  reference: str, transaction_id: str, service: z.enum(["airtime", "data", "cable", "electricity", "exam"]), amount: minor,
  status: z.enum(["success", "processing", "fail"]), message: str, description: str, token: nstr,
  pins: z.array(z.object({ pin: str, serial: str })).nullable(), details: z.record(str, z.union([str, z.number(), z.null()])),
  issues: z.enum(["token", "pins"]).nullable(), plan: z.object({ then: z.enum(["success", "fail", "hold"]), delay_ms: int }).nullable(),
  created_at: ms, settled_at: nms,
});
const Cardholder = z.object({
  cardholder_id: int, first_name: str, last_name: str, full_name: str, email: str, phone: nstr, kyc_status: z.enum(["PENDING", "APPROVED"]), created_at: ms,
});
const Card = z.object({
  card_id: int, cardholder_id: int, brand: z.enum(["VISA", "MASTERCARD"]), pan: str, masked_pan: str, expiry_month: int, expiry_year: int,
  currency: z.literal("USD"), balance: minor, status: z.enum(["active", "frozen", "terminated"]), label: nstr, created_at: ms,
});
const CardTxn = z.object({
  transaction_id: str, card_id: int, type: z.enum(["funding", "unload", "spend"]), status: z.enum(["success", "declined"]), amount: minor,
  balance_after: minor, description: str, merchant_name: nstr, decline_reason: nstr, created_at: ms,
});
const Timer = z.object({ at: ms, seq: int, kind: z.enum(["payout.settle", "vtu.settle", "kyc.approve", "timeline.run", "webhook.attempt"]), merchantId: str, ref: str });
const TimelineEntry = z.object({
  index: int,
  at: ms,
  action: z.union([
    z.object({ kind: z.literal("transfer"), account_number: str, amount: minor, narration: str.optional(), payer_name: str.optional(), payer_bank: str.optional() }),
    z.object({ kind: z.literal("pay_link"), reference: str, amount: minor.optional() }),
  ]),
  result: nstr,
});
const Rule = z.object({
  id: str, target: z.enum(["payout", "vtu", "kyc", "verify_account", "card_fund", "webhook"]),
  match: z.record(str, z.union([str, z.number(), z.boolean()])).nullable(), outcome: str, delay_seconds: z.number().nullable(), times: int.nullable(), created_at: ms,
});
const Event = z.object({
  id: str, type: str, transaction_id: str, data: z.record(str, z.unknown()), created_at: ms,
  status: z.enum(["pending", "delivered", "failed", "no_url", "held"]), attempts: int, scheduled_attempts: int, next_attempt_at: nms,
});
const Delivery = z.object({
  id: str, event_id: str, event_type: str, trigger: z.enum(["initial", "retry", "redeliver", "duplicate", "released"]), url: str, sent_at: ms,
  nonce: nstr, request_headers: z.record(str, str), request_body: nstr, status_code: int.nullable(), error: nstr, latency_ms: z.number().nullable(),
  response_excerpt: nstr, outcome: z.enum(["delivered", "failed", "deferred", "held"]), fault: nstr, next_retry_at: nms,
});

export const SnapshotSchema = z.object({
  format: z.literal(SNAPSHOT_FORMAT),
  merchant: Config,
  clock: z.object({ mode: z.enum(["manual", "realtime"]), speed: z.number().positive(), now: ms }),
  state: z.object({
    ledger: z.array(Ledger),
    virtual_accounts: z.array(VirtualAccount),
    va_payments: z.array(VaPayment),
    checkouts: z.array(Checkout),
    payouts: z.array(Payout),
    vtu: z.array(Vtu),
    cardholders: z.array(Cardholder),
    cards: z.array(Card),
    card_transactions: z.array(CardTxn),
    sequences: z.object({ cardholder: int, card: int, timer: int, rule: int, captured: int.default(0) }),
    timers: z.array(Timer),
    outcome_rules: z.array(Rule),
    events: z.array(Event),
    outbox: z.array(str),
    held_events: z.array(str),
    deliveries: z.array(Delivery),
    timeline: z.array(TimelineEntry).default([]),
    windows: z.object({
      minute: z.array(ms),
      payout_attempts: z.array(ms),
      payout_attempts_by_ip: z.array(z.tuple([str, z.array(ms)])),
      payout_volume: z.object({
        entries: z.array(z.object({ at: ms, reference: str, amount: minor, counted: z.boolean() })),
        dayStart: int, hourStart: int, daySum: minor, hourSum: minor,
      }),
    }),
  }),
});
export type Snapshot = z.infer<typeof SnapshotSchema>;

export function toSnapshot(config: MerchantConfig, clock: ClockSettings, s: TenantState): Snapshot {
  return {
    format: SNAPSHOT_FORMAT,
    merchant: config,
    clock: { mode: clock.mode, speed: clock.speed, now: clock.now! },
    state: {
      ledger: s.ledger,
      virtual_accounts: [...s.virtualAccounts.values()],
      va_payments: [...s.vaPayments.values()].flat(),
      checkouts: [...s.checkouts.values()],
      payouts: [...s.payouts.values()],
      vtu: [...s.vtu.values()],
      cardholders: [...s.cardholders.values()],
      cards: [...s.cards.values()],
      card_transactions: [...s.cardTransactions.values()].flat(),
      sequences: s.sequences,
      timers: s.timers,
      outcome_rules: s.outcomeRules,
      events: [...s.events.values()],
      outbox: s.outbox,
      held_events: s.heldEvents,
      deliveries: s.deliveries,
      timeline: s.timeline,
      windows: {
        minute: s.windows.minute,
        payout_attempts: s.windows.payoutAttempts,
        payout_attempts_by_ip: [...s.windows.payoutAttemptsByIp.entries()],
        payout_volume: s.windows.payoutVolume,
      },
    },
  } as Snapshot;
}

/** Rebuilds a live state (Maps and derived indexes) from a validated snapshot's state. */
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
  const cards = new Map(s.cards.map((c) => [c.card_id, c]));
  const cardTransactions = group(s.card_transactions, (t) => t.card_id);
  for (const id of cards.keys()) if (!cardTransactions.has(id)) cardTransactions.set(id, []);
  const state: TenantState = {
    ledger: s.ledger,
    virtualAccounts: new Map(s.virtual_accounts.map((a) => [a.account_number, a])),
    virtualAccountsByReference: new Map(s.virtual_accounts.map((a) => [a.reference, a.account_number])),
    vaPayments: group(s.va_payments, (p) => p.reference),
    checkouts: new Map(s.checkouts.map((c) => [c.reference, c])),
    checkoutsByAccount: new Map(s.checkouts.map((c) => [c.account_number, c.reference])),
    payouts: new Map(s.payouts.map((p) => [p.reference, p])),
    vtu: new Map(s.vtu.map((v) => [v.reference, v])),
    cardholders: new Map(s.cardholders.map((h) => [h.cardholder_id, h])),
    cardholdersByEmail: new Map(s.cardholders.map((h) => [h.email.toLowerCase(), h.cardholder_id])),
    cards,
    cardTransactions,
    sequences: s.sequences,
    timers: s.timers,
    outcomeRules: s.outcome_rules,
    events: new Map(s.events.map((e) => [e.id, e])),
    outbox: s.outbox,
    heldEvents: s.held_events,
    deliveries: s.deliveries,
    timeline: s.timeline,
    windows: {
      minute: s.windows.minute,
      payoutAttempts: s.windows.payout_attempts,
      payoutAttemptsByIp: new Map(s.windows.payout_attempts_by_ip),
      payoutVolume: s.windows.payout_volume,
    },
  } as TenantState;
  return { config: snapshot.merchant as MerchantConfig, clock: snapshot.clock, state };
}

/** Parses and validates a snapshot; the error names the first bad path. */
export function parseSnapshot(raw: unknown): { snapshot: Snapshot } | { error: string; path: string } {
  const result = SnapshotSchema.safeParse(raw);
  if (result.success) return { snapshot: result.data };
  const issue = result.error.issues[0]!;
  return { error: issue.message, path: issue.path.join(".") || "(root)" };
}
