/**
 * Everything one merchant owns, live: the records of records.ts held in Maps (insertion order gives
 * listings their order) with the indexes the rules need. store/snapshot.ts turns it into plain data
 * and back.
 */
import type { ChangeMarks } from "./changes.js";
import type { WebhookEvent } from "./event-records.js";
import type {
  Card,
  CardTransaction,
  Cardholder,
  Checkout,
  Incident,
  LedgerEntry,
  OutcomeRule,
  Payout,
  TimelineEntry,
  Timer,
  VaPayment,
  VirtualAccount,
  VolumeWindow,
  VtuPurchase,
  WebhookDelivery,
} from "./records.js";
import { emptyVolume } from "./volume.js";

/**
 * Sliding windows for the payout limits, on the merchant's clock: timestamps of admitted attempts,
 * oldest first. (The general request cap counts wall-clock time, outside the state: engine/tenant.ts.)
 */
export interface RateWindows {
  payoutAttempts: number[];
  payoutAttemptsByIp: Map<string, number[]>;
  /** Payouts of the last 24 hours with running sums, for the hourly and daily amount limits. */
  payoutVolume: VolumeWindow;
}

export interface Sequences {
  cardholder: number;
  card: number;
  timer: number;
  rule: number;
  /** Deliveries the built-in capture has answered (for its `fail_first`). */
  captured: number;
}

export interface TenantState {
  ledger: LedgerEntry[];
  virtualAccounts: Map<string, VirtualAccount>;
  /** merchant reference -> account number */
  virtualAccountsByReference: Map<string, string>;
  /** transaction_id -> payment into a virtual account, in the order they arrived */
  vaPayments: Map<string, VaPayment>;
  /** narration -> payments carrying it, oldest first (narrations are not unique) */
  vaPaymentsByReference: Map<string, VaPayment[]>;
  checkouts: Map<string, Checkout>;
  /** one-time account number -> checkout reference */
  checkoutsByAccount: Map<string, string>;
  payouts: Map<string, Payout>;
  vtu: Map<string, VtuPurchase>;
  cardholders: Map<number, Cardholder>;
  cardholdersByEmail: Map<string, number>;
  cards: Map<number, Card>;
  cardTransactions: Map<number, CardTransaction[]>;
  sequences: Sequences;
  /** Pending timers: a min-heap by (at, seq); see timers.ts. */
  timers: Timer[];
  /** Outcome rules set through the control API, oldest first (the newest matching one wins). */
  outcomeRules: OutcomeRule[];
  events: Map<string, WebhookEvent>;
  /** Ids of new events whose first delivery attempt has not started yet. */
  outbox: string[];
  /** Ids of events held by an out_of_order fault until another event is delivered. */
  heldEvents: string[];
  /** The newest MAX_DELIVERIES delivery attempts, oldest first. */
  deliveries: WebhookDelivery[];
  /** A loaded scenario's simulated events, in declaration order. */
  timeline: TimelineEntry[];
  /** The newest MAX_INCIDENTS background failures, oldest first. */
  incidents: Incident[];
  windows: RateWindows;
  /** Records changed since the `--data` store last wrote (changes.ts); unset without a store. */
  changed?: ChangeMarks;
}

export function emptyState(): TenantState {
  return {
    ledger: [],
    virtualAccounts: new Map(),
    virtualAccountsByReference: new Map(),
    vaPayments: new Map(),
    vaPaymentsByReference: new Map(),
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
    incidents: [],
    windows: { payoutAttempts: [], payoutAttemptsByIp: new Map(), payoutVolume: emptyVolume() },
  };
}
