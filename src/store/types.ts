/**
 * Everything one merchant (tenant) owns. Records are plain data (times in ms since epoch, money in
 * minor units) so they can be persisted and restored; Maps keep insertion order for listings.
 */
import type { Minor } from "../domain/money.js";
import type { CardBrand } from "../domain/pan.js";
import type { ClockMode } from "../engine/clock.js";
import type { OutcomeRule, PayoutPlan, VtuPlan } from "../domain/outcomes.js";
import type { TimelineEntry } from "../domain/timeline.js";
import type { Timer } from "../domain/timers.js";
import { emptyVolume, type VolumeWindow } from "../domain/volume.js";

export type Capability = "payouts" | "vtu" | "virtual_cards" | "checkout";

export interface MerchantLimits {
  payout_min: Minor;
  payout_max: Minor;
  payout_hourly_amount: Minor;
  payout_daily_amount: Minor;
  /** 0 = no cap */
  payout_attempts_per_hour: number;
  /** The spec's 20 per hour per IP; counted per merchant and IP. 0 = no cap. */
  payout_attempts_per_ip_per_hour: number;
  payout_review_threshold: Minor;
  /** General per-minute request cap across all endpoints; 0 = off. */
  requests_per_minute: number;
}

export interface MerchantConfig {
  merchant_id: string;
  business_name: string;
  api_key: string;
  api_secret: string;
  webhook_secret: string;
  capabilities: Record<Capability, boolean>;
  kyc: { bvn: string | null; nin: string | null };
  ip_allowlist: string[];
  webhook_url: string | null;
  /**
   * The sandbox's own receiver, used while no webhook_url is set: deliveries are signed and logged as
   * if sent, and answered 500 for the first `fail_first`, then 200 (a scenario's `webhook_capture`).
   */
  webhook_capture: { fail_first: number } | null;
  limits: MerchantLimits;
  /** USD cents charged per card funding, on top of the amount. */
  card_funding_fee: Minor;
  /** Naira per US dollar used to charge card funding to the NGN wallet (and credit unloads). */
  usd_ngn_rate: number;
  clock: { mode: ClockMode; speed: number };
  webhook: WebhookSettings;
  /** Default lifecycle delays, in sim seconds; an outcome rule's delay_seconds overrides them. */
  delays: MerchantDelays;
  created_at: number;
  /** Set for merchants a `--scenario` file made at start, so a restart with `--data` can find them again. */
  scenario_origin: ScenarioOrigin | null;
}

export interface ScenarioOrigin {
  /** The file's absolute path, and the merchant's alias in it. */
  file: string;
  alias: string;
  /** SHA-256 of the file's text when the merchant was made: a restart compares it to tell of edits. */
  digest: string;
}

export interface WebhookSettings {
  /** HMAC algorithm of X-Webhook-Signature. */
  signature_algorithm: "sha256" | "sha512";
  signature_encoding: "hex" | "base64";
  /** Wall-clock seconds to wait for the receiver's answer. */
  timeout_seconds: number;
  /** Sim seconds after each failed attempt before the next; its length is the number of retries. */
  retry_schedule_seconds: number[];
}

export interface MerchantDelays {
  payout_settlement_seconds: number;
  vtu_settlement_seconds: number;
  kyc_approval_seconds: number;
}

export type LedgerKind =
  | "wallet_funding"
  | "va_payment"
  | "checkout_payment"
  | "payout"
  | "payout_fee"
  | "payout_reversal"
  | "vtu_purchase"
  | "vtu_refund"
  | "card_funding"
  | "card_funding_fee"
  | "card_unload";

export interface LedgerEntry {
  entry_id: number;
  at: number;
  kind: LedgerKind;
  /** Signed: credits positive, debits negative. */
  amount: Minor;
  balance_after: Minor;
  transaction_id: string;
  description: string;
}

export interface Identity {
  type: "bvn" | "nin" | "cac";
  value: string;
  /** Whether the customer's own identifier was used or the merchant's KYC fallback. */
  source: "customer" | "merchant_kyc";
}

export interface VirtualAccount {
  account_number: string;
  account_name: string;
  bank_name: string;
  customer_type: "individual" | "business";
  customer_name: string;
  customer_email: string;
  reference: string;
  status: "Enabled";
  identity: Identity;
  created_at: number;
}

export interface VaPayment {
  transaction_id: string;
  reference: string;
  amount: Minor;
  currency: "NGN";
  status: "pending" | "processing" | "success" | "failed";
  payer_name: string;
  payer_bank: string;
  virtual_account: string;
  created_at: number;
}

export interface Checkout {
  reference: string;
  transaction_id: string;
  amount: Minor;
  description: string | null;
  redirect_url: string | null;
  customer_email: string | null;
  customer_name: string | null;
  account_number: string;
  account_name: string;
  bank_name: string;
  /** `expired` is derived from the clock when read; only `pending` and `paid` are stored. */
  status: "pending" | "paid";
  created_at: number;
  expires_at: number;
  paid_at: number | null;
}

export type PayoutStatus = "pending" | "pending_approval" | "processing" | "completed" | "failed";

export interface Payout {
  reference: string;
  order_no: string;
  amount: Minor;
  fee: Minor;
  total_deducted: Minor;
  status: PayoutStatus;
  bank_code: string;
  bank_name: string;
  account_number: string;
  account_name: string;
  narration: string | null;
  source: "api" | "dashboard";
  client_ip: string;
  created_at: number;
  processed_at: number | null;
  error: string | null;
  /** How it will settle, decided at creation (outcome rules, magic values, default). */
  plan: PayoutPlan;
}

export type VtuService = "airtime" | "data" | "cable" | "electricity" | "exam";

export interface ExamPin {
  pin: string;
  serial: string;
}

export interface VtuPurchase {
  reference: string;
  transaction_id: string;
  service: VtuService;
  amount: Minor;
  status: "success" | "processing" | "fail";
  message: string;
  description: string;
  token: string | null;
  pins: ExamPin[] | null;
  /** The request's own fields (phone, network, plan id, meter...), kept for the record. */
  details: Record<string, string | number | null>;
  /** What a success delivers: a prepaid token, exam pins (`details.quantity` of them) or nothing. */
  issues: "token" | "pins" | null;
  /** For a processing purchase: how it settles. */
  plan: Pick<VtuPlan, "then" | "delay_ms"> | null;
  created_at: number;
  settled_at: number | null;
}

export interface Cardholder {
  cardholder_id: number;
  first_name: string;
  last_name: string;
  full_name: string;
  email: string;
  phone: string | null;
  kyc_status: "PENDING" | "APPROVED";
  created_at: number;
}

export type CardStatus = "active" | "frozen" | "terminated";

export interface Card {
  card_id: number;
  cardholder_id: number;
  brand: CardBrand;
  pan: string;
  masked_pan: string;
  expiry_month: number;
  expiry_year: number;
  currency: "USD";
  /** US cents */
  balance: Minor;
  status: CardStatus;
  label: string | null;
  created_at: number;
}

export interface CardTransaction {
  transaction_id: string;
  card_id: number;
  type: "funding" | "unload" | "spend";
  status: "success" | "declined";
  /** US cents, always positive; `type` says the direction. */
  amount: Minor;
  balance_after: Minor;
  description: string;
  merchant_name: string | null;
  decline_reason: string | null;
  created_at: number;
}

export type EventStatus = "pending" | "delivered" | "failed" | "no_url" | "held";

/** An event of the merchant's, stored before any delivery is attempted. */
export interface WebhookEvent {
  id: string;
  type: string;
  /** The object's transaction_id (order_no for payouts): the same on every delivery of the event. */
  transaction_id: string;
  /** The payload's `data`, as every delivery sends it. */
  data: Record<string, unknown>;
  created_at: number;
  status: EventStatus;
  /** Attempts that reached (or tried to reach) the receiver, redeliveries and duplicates included. */
  attempts: number;
  /** Scheduled attempts made so far (initial + retries), which drives the retry schedule. */
  scheduled_attempts: number;
  next_attempt_at: number | null;
}

export type DeliveryTrigger = "initial" | "retry" | "redeliver" | "duplicate" | "released";

/** One attempt to deliver an event, with everything a developer needs to debug their receiver. */
export interface WebhookDelivery {
  id: string;
  event_id: string;
  event_type: string;
  trigger: DeliveryTrigger;
  url: string;
  sent_at: number;
  nonce: string | null;
  request_headers: Record<string, string>;
  request_body: string | null;
  status_code: number | null;
  error: string | null;
  latency_ms: number | null;
  response_excerpt: string | null;
  /** delivered (2xx) | failed (anything else) | deferred (delay fault) | held (out_of_order fault) */
  outcome: "delivered" | "failed" | "deferred" | "held";
  fault: string | null;
  next_retry_at: number | null;
}

/** Sliding windows for the rate limits: timestamps of admitted attempts, oldest first. */
export interface RateWindows {
  minute: number[];
  payoutAttempts: number[];
  payoutAttemptsByIp: Map<string, number[]>;
  /** Payouts of the last 24 hours with running sums, for the hourly and daily amount limits. */
  payoutVolume: VolumeWindow;
}

export interface TenantState {
  ledger: LedgerEntry[];
  virtualAccounts: Map<string, VirtualAccount>;
  /** merchant reference -> account number */
  virtualAccountsByReference: Map<string, string>;
  /** narration -> payments carrying it, oldest first (narrations are not unique) */
  vaPayments: Map<string, VaPayment[]>;
  checkouts: Map<string, Checkout>;
  /** one-time account number -> checkout reference */
  checkoutsByAccount: Map<string, string>;
  payouts: Map<string, Payout>;
  vtu: Map<string, VtuPurchase>;
  cardholders: Map<number, Cardholder>;
  cardholdersByEmail: Map<string, number>;
  cards: Map<number, Card>;
  cardTransactions: Map<number, CardTransaction[]>;
  /** `captured`: deliveries the built-in capture has answered (for its `fail_first`). */
  sequences: { cardholder: number; card: number; timer: number; rule: number; captured: number };
  /** Pending timers: a min-heap by (at, seq); see domain/timers.ts. */
  timers: Timer[];
  /** Outcome rules set through the control API, oldest first (the newest matching one wins). */
  outcomeRules: OutcomeRule[];
  events: Map<string, WebhookEvent>;
  /** Ids of new events whose first delivery attempt has not started yet. */
  outbox: string[];
  /** Ids of events held by an out_of_order fault until another event is delivered. */
  heldEvents: string[];
  deliveries: WebhookDelivery[];
  /** A loaded scenario's simulated events, in declaration order. */
  timeline: TimelineEntry[];
  windows: RateWindows;
}

export function emptyState(): TenantState {
  return {
    ledger: [],
    virtualAccounts: new Map(),
    virtualAccountsByReference: new Map(),
    vaPayments: new Map(),
    checkouts: new Map(),
    checkoutsByAccount: new Map(),
    payouts: new Map(),
    vtu: new Map(),
    cardholders: new Map(),
    cardholdersByEmail: new Map(),
    cards: new Map(),
    cardTransactions: new Map(),
    sequences: { cardholder: 0, card: 0, timer: 0, rule: 0, captured: 0 },
    timers: [],
    outcomeRules: [],
    events: new Map(),
    outbox: [],
    heldEvents: [],
    deliveries: [],
    timeline: [],
    windows: { minute: [], payoutAttempts: [], payoutAttemptsByIp: new Map(), payoutVolume: emptyVolume() },
  };
}
