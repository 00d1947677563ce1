/**
 * An object's whole story: its fields as the API shows them, and a timeline on the merchant's clock
 * pieced together from what the sandbox already keeps: the record's own times, its webhook events and
 * every delivery attempt, the requests of the request log that touched it, and what is still due for
 * it (timers, a link's expiry). Reads only: nothing here changes the state.
 */
import { cardholderView, cardTransactionView, cardView } from "./cards.js";
import { checkoutStatus, checkoutView } from "./checkout.js";
import type { WebhookEvent } from "./event-records.js";
import { thousands, toMajor, type Minor } from "./money.js";
import { payoutStatusView } from "./payouts.js";
import { spokenSeconds } from "./prose.js";
import type { Card, CardTransaction, Checkout, Payout, VaPayment, VtuPurchase, WebhookDelivery } from "./records.js";
import type { LoggedRequest, TouchedObject } from "./request-log.js";
import type { TenantState } from "./state.js";
import { vaPaymentView } from "./va-payments.js";
import { vtuRecordView } from "./vtu.js";
import { CAPTURE_URL, parseAttemptTimerRef } from "./webhook-policy.js";

/** The objects that have a story, and how a reader names one of them. */
export const STORY_OBJECTS = {
  payout: { noun: "payout", idName: "reference", plural: "payouts" },
  vtu: { noun: "VTU purchase", idName: "reference", plural: "VTU purchases" },
  checkout: { noun: "payment link", idName: "reference", plural: "payment links" },
  va_payment: { noun: "transfer in", idName: "transaction id", plural: "transfers in" },
  card: { noun: "card", idName: "id", plural: "cards" },
} as const;
export type StoryObjectKind = keyof typeof STORY_OBJECTS;

export interface StoryInput {
  state: TenantState;
  /** The merchant's request log, oldest first (RequestLog.all()). */
  requests: readonly LoggedRequest[];
  kind: StoryObjectKind;
  /** Payout, VTU and payment-link reference; a transfer in's transaction_id; a card's id in decimal. */
  id: string;
  /** The merchant's clock, in ms. */
  now: number;
}

export interface StoryAmount {
  value: number;
  currency: "NGN" | "USD";
}

/** One fact of the record. `time` values are ISO texts; `money` values major units of `currency`. */
export type StoryField =
  | { label: string; format: "text" | "mono"; value: string | number | null }
  | { label: string; format: "time"; value: string | null }
  | { label: string; format: "money"; value: number; currency: "NGN" | "USD" };

export type StoryEntryKind = "created" | "state" | "event" | "delivery" | "request" | "scheduled";
export type StoryTone = "ok" | "bad" | "info";

/** A delivery attempt and the receiver's answer. */
export interface StoryDelivery {
  id: string;
  event_id: string;
  event_type: string;
  trigger: WebhookDelivery["trigger"];
  url: string;
  /** Answered by the sandbox's built-in capture (no webhook_url set). */
  capture: boolean;
  outcome: WebhookDelivery["outcome"];
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
  response_excerpt: string | null;
  fault: string | null;
  next_retry_at: number | null;
}

/** A request of the log that touched the object, without its headers and bodies. */
export interface StoryRequest {
  seq: number;
  method: string;
  path: string;
  query: string;
  operation: string | null;
  status: number | null;
  error_code: string | null;
  delivery: LoggedRequest["delivery"];
  sample: boolean;
}

export interface StoryEntry {
  /** Stable across renders (a live update merges by it). */
  key: string;
  kind: StoryEntryKind;
  /** On the merchant's clock, in ms. */
  at: number;
  title: string;
  tone: StoryTone;
  detail: string | null;
  /** Money this step moved, when it moved some. */
  amount: (StoryAmount & { sign: "+" | "−" }) | null;
  /** The event an `event` or `delivery` entry belongs to. */
  event_id: string | null;
  delivery: StoryDelivery | null;
  request: StoryRequest | null;
}

export interface Story {
  kind: StoryObjectKind;
  id: string;
  /** The status for its colour, as the record stores it, and as the API shows it. */
  status: string;
  status_label: string;
  /** The amount the header shows: what was paid or bought, or a card's balance. */
  amount: StoryAmount & { label: string };
  fields: StoryField[];
  /** Ids of the object's webhook events, oldest first. */
  events: string[];
  /** Oldest first; what is still due comes last. */
  timeline: StoryEntry[];
}

/** Whether the merchant has the object: `storyOf` is null exactly when this is false. */
export function hasStory(state: TenantState, kind: StoryObjectKind, id: string): boolean {
  return recordOf(state, kind, id) !== undefined;
}

export function storyOf(input: StoryInput): Story | null {
  const found = recordOf(input.state, input.kind, input.id);
  if (!found) return null;
  const { drafts, traffic, ...told } = tell(found, input);
  return { kind: found.kind, ...told, events: traffic.events, timeline: finish([...drafts, ...traffic.drafts]) };
}

/** What each kind tells of its object; `storyOf` adds the traffic's entries to its own and puts them in order. */
interface Told extends Omit<Story, "kind" | "events" | "timeline"> {
  drafts: Draft[];
  traffic: Traffic;
}

function tell(found: Found, { state, requests, now }: StoryInput): Told {
  switch (found.kind) {
    case "payout":
      return payoutStory(state, requests, found.record);
    case "vtu":
      return vtuStory(state, requests, found.record);
    case "checkout":
      return checkoutStory(state, requests, found.record, now);
    case "va_payment":
      return vaPaymentStory(state, requests, found.record);
    case "card":
      return cardStory(state, requests, found.record);
  }
}

type Found =
  | { kind: "payout"; record: Payout }
  | { kind: "vtu"; record: VtuPurchase }
  | { kind: "checkout"; record: Checkout }
  | { kind: "va_payment"; record: VaPayment }
  | { kind: "card"; record: Card };

function recordOf(state: TenantState, kind: StoryObjectKind, id: string): Found | undefined {
  const wrap = <K extends Found["kind"]>(k: K, record: Extract<Found, { kind: K }>["record"] | undefined) => (record ? ({ kind: k, record } as Found) : undefined);
  switch (kind) {
    case "payout":
      return wrap("payout", state.payouts.get(id));
    case "vtu":
      return wrap("vtu", state.vtu.get(id));
    case "checkout":
      return wrap("checkout", state.checkouts.get(id));
    case "va_payment":
      return wrap("va_payment", state.vaPayments.get(id));
    case "card": {
      // Only the canonical decimal: "007" or "7.0" name no card.
      const n = /^[1-9]\d{0,15}$/.test(id) ? Number(id) : NaN;
      return Number.isSafeInteger(n) ? wrap("card", state.cards.get(n)) : undefined;
    }
  }
}

// ---- The timeline's parts ----------------------------------------------------------------------------

/** At one instant, the order things happen in: a request causes the record, its change, its event, the event's delivery. */
const RANK: Record<StoryEntryKind, number> = { request: 0, created: 1, state: 2, event: 3, delivery: 4, scheduled: 5 };
/** A read that caused nothing comes after what happened at its instant. */
const PASSIVE_REQUEST_RANK = 6;

type Draft = Omit<StoryEntry, "amount" | "event_id" | "delivery" | "request"> & Partial<Pick<StoryEntry, "amount" | "event_id" | "delivery" | "request">> & { rank?: number };

function finish(drafts: Draft[]): StoryEntry[] {
  const ranked = drafts.map((d, i) => ({ d, i, rank: d.rank ?? RANK[d.kind] }));
  ranked.sort((a, b) => a.d.at - b.d.at || a.rank - b.rank || a.i - b.i);
  return ranked.map(({ d: { rank: _, ...entry } }) => ({ amount: null, event_id: null, delivery: null, request: null, ...entry }));
}

/** An amount in a sentence, as the domain's messages write it: "NGN 5,000.00". */
const inText = (currency: "NGN" | "USD", minor: Minor) => `${currency} ${thousands(Math.floor(minor / 100))}.${String(minor % 100).padStart(2, "0")}`;

/** The object's webhook events (by the transaction id they carry), each with its deliveries, oldest first. */
function eventEntries(state: TenantState, transactionId: string): { ids: string[]; drafts: Draft[] } {
  const events: WebhookEvent[] = [];
  for (const e of state.events.values()) if (e.transaction_id === transactionId) events.push(e);
  const ids = new Set(events.map((e) => e.id));
  const deliveries = new Map<string, WebhookDelivery[]>();
  for (const d of state.deliveries) {
    if (!ids.has(d.event_id)) continue;
    const list = deliveries.get(d.event_id);
    if (list) list.push(d);
    else deliveries.set(d.event_id, [d]);
  }
  const drafts: Draft[] = [];
  for (const e of events) {
    const sent = deliveries.get(e.id) ?? [];
    drafts.push(eventEntry(e, sent.length));
    for (const d of sent) drafts.push(deliveryEntry(d));
  }
  return { ids: [...ids], drafts };
}

function eventEntry(e: WebhookEvent, deliveries: number): Draft {
  const attempts = `${e.attempts} attempt${e.attempts === 1 ? "" : "s"}`;
  const detail: Record<WebhookEvent["status"], string> = {
    pending: e.next_attempt_at === null ? "Waiting for its first attempt." : "Not delivered yet: another attempt is due.",
    delivered: `Delivered (${attempts}).`,
    failed: `Not delivered: gave up after ${attempts}.${e.error ? ` ${e.error}` : ""}`,
    no_url: "No webhook URL was set, so it was logged and not sent.",
    held: "Held by an out_of_order fault until another event is delivered.",
  };
  return {
    key: `event:${e.id}`,
    kind: "event",
    at: e.created_at,
    title: e.status === "no_url" && deliveries === 0 ? `Webhook ${e.type} logged, not sent` : `Webhook ${e.type} sent`,
    tone: e.status === "delivered" ? "ok" : e.status === "failed" ? "bad" : "info",
    detail: detail[e.status],
    event_id: e.id,
  };
}

const TRIGGERS: Record<WebhookDelivery["trigger"], string> = {
  initial: "First attempt",
  retry: "Retry",
  redeliver: "Redelivery on request",
  duplicate: "Duplicate (webhook fault)",
  released: "Attempt after a delay fault",
  test: "Test event",
};

function deliveryEntry(d: WebhookDelivery): Draft {
  const capture = d.url === CAPTURE_URL;
  const where = capture ? "the sandbox's built-in capture" : d.url;
  const answer = d.status_code !== null ? `HTTP ${d.status_code}${d.latency_ms === null ? "" : ` in ${Math.round(d.latency_ms)} ms`}` : (d.error ?? "no answer");
  const title: Record<WebhookDelivery["outcome"], string> = {
    delivered: `Delivered to ${where}: ${answer}`,
    failed: `Not delivered to ${where}: ${answer}`,
    deferred: `Held back by a delay fault before going to ${where}`,
    held: `Held by an out_of_order fault before going to ${where}`,
  };
  const notes = [TRIGGERS[d.trigger] + "."];
  if (d.fault) notes.push(`Fault: ${d.fault}.`);
  return {
    key: `delivery:${d.id}`,
    kind: "delivery",
    at: d.sent_at,
    title: title[d.outcome],
    tone: d.outcome === "delivered" ? "ok" : d.outcome === "failed" ? "bad" : "info",
    detail: notes.join(" "),
    event_id: d.event_id,
    delivery: {
      id: d.id,
      event_id: d.event_id,
      event_type: d.event_type,
      trigger: d.trigger,
      url: d.url,
      capture,
      outcome: d.outcome,
      status_code: d.status_code,
      latency_ms: d.latency_ms,
      error: d.error,
      response_excerpt: d.response_excerpt,
      fault: d.fault,
      next_retry_at: d.next_retry_at,
    },
  };
}

/** The logged requests that touched the object (by the ids it goes by) or caused one of its events. */
function requestsOf(requests: readonly LoggedRequest[], kind: TouchedObject["kind"], ids: readonly string[], eventIds: readonly string[]): LoggedRequest[] {
  const events = new Set(eventIds);
  return requests.filter((r) => r.objects.some((o) => o.kind === kind && ids.includes(o.id)) || r.events.some((e) => events.has(e)));
}

function requestEntry(r: LoggedRequest, causal: boolean): Draft {
  const answered = r.status !== null && r.status < 400;
  const answer = r.status === null ? (r.delivery === "connection_reset" ? "no answer (connection reset)" : "no answer") : String(r.status);
  return {
    key: `request:${r.seq}`,
    kind: "request",
    at: r.at,
    rank: causal ? RANK.request : PASSIVE_REQUEST_RANK,
    title: `${r.method} ${r.path} → ${answer}${r.error_code ? ` ${r.error_code}` : ""}`,
    tone: answered ? "ok" : "bad",
    detail: r.delivery === "slow_response" ? "Answered late on purpose (a response outcome rule)." : null,
    request: {
      seq: r.seq,
      method: r.method,
      path: r.path,
      query: r.query,
      operation: r.operation,
      status: r.status,
      error_code: r.error_code,
      delivery: r.delivery,
      sample: r.sample,
    },
  };
}

/** The status an answer carried (`data.status`, or top level), when the log kept a JSON body. */
function answeredStatus(r: LoggedRequest): string | undefined {
  if (r.response_body === null || r.response_body_truncated) return undefined;
  try {
    const body = JSON.parse(r.response_body) as { status?: unknown; data?: { status?: unknown } };
    const status = body.data?.status ?? body.status;
    return typeof status === "string" ? status : undefined;
  } catch {
    return undefined;
  }
}

const timersOf = (state: TenantState, kind: string, ref: string) => state.timers.filter((t) => t.kind === kind && t.ref === ref).sort((a, b) => a.at - b.at || a.seq - b.seq);

/** Attempts of the object's events still due (retries, attempts a delay fault deferred). */
function attemptsDue(state: TenantState, eventIds: readonly string[]): Draft[] {
  const ids = new Set(eventIds);
  return state.timers
    .filter((t) => t.kind === "webhook.attempt" && ids.has(parseAttemptTimerRef(t.ref).eventId))
    .sort((a, b) => a.at - b.at || a.seq - b.seq)
    .map((t) => {
      const { eventId, trigger } = parseAttemptTimerRef(t.ref);
      return {
        key: `timer:${t.seq}`,
        kind: "scheduled",
        at: t.at,
        title: trigger === "retry" ? "Webhook retry due" : "Webhook attempt due (held back by a delay fault)",
        tone: "info",
        detail: `Event ${eventId}.`,
        event_id: eventId,
      } satisfies Draft;
    });
}

/**
 * Events, their deliveries, the requests and the attempts still due: what every story shares. A read
 * comes after what happened at its instant, unless it caused one of the events or settled the object as
 * its Nth status read (at `settledByReadAt`); any other request the log ties to the object changed it
 * (the log ties no refusal to anything), so it comes first.
 */
function traffic(
  state: TenantState,
  requests: readonly LoggedRequest[],
  kind: TouchedObject["kind"],
  ids: readonly string[],
  transactionId: string | null,
  settledByReadAt: number | null = null,
) {
  const events = transactionId === null ? { ids: [], drafts: [] } : eventEntries(state, transactionId);
  const touched = requestsOf(requests, kind, ids, events.ids);
  const settler = settledByReadAt === null ? undefined : touched.find((r) => r.method === "GET" && r.at === settledByReadAt && r.status !== null && r.status < 300);
  const causal = (r: LoggedRequest) => r.method !== "GET" || r === settler || r.events.some((e) => events.ids.includes(e));
  return { events: events.ids, touched, drafts: [...events.drafts, ...touched.map((r) => requestEntry(r, causal(r))), ...attemptsDue(state, events.ids)] };
}
type Traffic = ReturnType<typeof traffic>;

const field = (label: string, value: string | number | null, format: "text" | "mono" = "text"): StoryField => ({ label, value, format });
const time = (label: string, value: string | null): StoryField => ({ label, value, format: "time" });
const money = (label: string, value: number, currency: "NGN" | "USD" = "NGN"): StoryField => ({ label, value, format: "money", currency });

// ---- Payouts ---------------------------------------------------------------------------------------

function payoutStory(state: TenantState, requests: readonly LoggedRequest[], p: Payout): Told {
  const v = payoutStatusView(p);
  const t = traffic(state, requests, "payout", [p.reference], p.order_no, p.plan.queries === 0 ? p.processed_at : null);
  const creation = t.touched.find((r) => r.operation === "createPayout" && r.status !== null && r.status < 300);
  const initial = creation ? answeredStatus(creation) : p.status === "pending_approval" ? "pending_approval" : undefined;
  const drafts: Draft[] = [
    {
      key: "created",
      kind: "created",
      at: p.created_at,
      title: "Payout created",
      tone: "info",
      detail:
        initial === "pending_approval"
          ? "Held for approval: at or above the review threshold."
          : initial === "processing"
            ? "Sent to the beneficiary's bank: processing."
            : null,
      amount: { value: toMajor(p.total_deducted), currency: "NGN", sign: "−" },
    },
  ];
  // Approval is not stamped on the record; a pending settlement timer gives its time exactly (approval + the planned delay).
  const [settle] = timersOf(state, "payout.settle", p.reference);
  if (settle && p.status === "processing") {
    const approvedAt = settle.at - p.plan.delay_ms;
    if (initial === "pending_approval" || approvedAt > p.created_at) {
      drafts.push({ key: "state:approved", kind: "state", at: approvedAt, title: "Approved: status changed to processing", tone: "info", detail: null });
    }
  }
  if (p.processed_at !== null) {
    const failed = p.status === "failed";
    drafts.push({
      key: `state:${p.status}`,
      kind: "state",
      at: p.processed_at,
      title: `Status changed to ${p.status}`,
      tone: failed ? "bad" : "ok",
      detail: failed ? `${p.error ?? "Failed"}. ${inText("NGN", p.total_deducted)} (amount and fee) returned to the wallet.` : null,
      amount: failed ? { value: toMajor(p.total_deducted), currency: "NGN", sign: "+" } : null,
    });
  }
  if (settle) {
    drafts.push({
      key: `timer:${settle.seq}`,
      kind: "scheduled",
      at: settle.at,
      title: p.plan.outcome === "failed" ? "Due to settle: failed" : "Due to settle: completed",
      tone: "info",
      detail: p.plan.outcome === "failed" && p.plan.error ? p.plan.error : null,
    });
  }
  return {
    id: p.reference,
    status: p.status,
    status_label: p.status.replaceAll("_", " "),
    amount: { label: "Amount", value: v.amount, currency: "NGN" },
    fields: [
      field("Reference", v.reference, "mono"),
      field("Order no.", v.order_no, "mono"),
      field("Status", v.status),
      money("Amount", v.amount),
      money("Fee", v.fee),
      money("Total deducted", v.total_deducted),
      field("Beneficiary", v.account_name),
      field("Account", `${v.bank_name} ${v.account}`),
      field("Narration", v.narration),
      time("Created", v.created_at),
      time("Processed", v.processed_at),
      field("Error", v.error),
      ...(p.status === "processing" || p.status === "pending_approval" ? [field("Plan", payoutPlan(p))] : []),
    ],
    drafts,
    traffic: t,
  };
}

/** How the payout will settle, as decided when it was made (outcome rules, magic values, the default). */
function payoutPlan(p: Payout): string {
  const { plan } = p;
  if (plan.outcome === "hold") return "Stays processing until completed or failed here.";
  const outcome = plan.outcome === "completed" ? "Completes" : plan.error ? `Fails (${plan.error})` : "Fails";
  const sent = p.status === "pending_approval" ? " once approved" : "";
  if (plan.queries !== null) return `${outcome} on status read number ${plan.queries} from now${sent}.`;
  return `${outcome} ${spokenSeconds(plan.delay_ms / 1000)} after it is sent${sent}.`;
}

// ---- VTU purchases -----------------------------------------------------------------------------------

function vtuStory(state: TenantState, requests: readonly LoggedRequest[], p: VtuPurchase): Told {
  const v = vtuRecordView(p);
  const t = traffic(state, requests, "vtu", [p.transaction_id, p.reference], p.transaction_id, p.plan?.queries === 0 ? p.settled_at : null);
  const drafts: Draft[] = [
    { key: "created", kind: "created", at: p.created_at, title: "VTU purchase created", tone: "info", detail: p.description, amount: { value: v.amount, currency: "NGN", sign: "−" } },
  ];
  if (p.settled_at !== null) {
    const failed = p.status === "fail";
    drafts.push({
      key: `state:${p.status}`,
      kind: "state",
      at: p.settled_at,
      title: `Status changed to ${v.status}`,
      tone: failed ? "bad" : "ok",
      detail: failed ? `${inText("NGN", p.amount)} refunded to the wallet.` : p.token ? `Token ${p.token}.` : p.pins ? `${p.pins.length} pin${p.pins.length === 1 ? "" : "s"} issued.` : null,
      amount: failed ? { value: v.amount, currency: "NGN", sign: "+" } : null,
    });
  }
  for (const timer of timersOf(state, "vtu.settle", p.reference)) {
    drafts.push({ key: `timer:${timer.seq}`, kind: "scheduled", at: timer.at, title: `Due to settle: ${p.plan?.then === "fail" ? "Failed" : "Success"}`, tone: "info", detail: null });
  }
  const plan = p.status === "processing" && p.plan ? vtuPlan(p.plan) : null;
  return {
    id: p.reference,
    status: p.status,
    status_label: v.status,
    amount: { label: "Amount", value: v.amount, currency: "NGN" },
    fields: [
      field("Reference", v.reference, "mono"),
      field("Transaction", v.transaction_id, "mono"),
      field("Service", v.service),
      field("Status", v.status),
      money("Amount", v.amount),
      field("Description", v.description),
      time("Date", v.date),
      ...(v.token ? [field("Token", v.token, "mono")] : []),
      ...(p.pins ? [field("Pins", p.pins.map((x) => `${x.pin} (${x.serial})`).join(", "), "mono")] : []),
      ...(plan ? [field("Plan", plan)] : []),
    ],
    drafts,
    traffic: t,
  };
}

function vtuPlan(plan: NonNullable<VtuPurchase["plan"]>): string {
  if (plan.then === "hold") return "Stays processing until it succeeds or fails here.";
  const outcome = plan.then === "fail" ? "Fails (refunded)" : "Succeeds";
  return plan.queries !== null ? `${outcome} on status read number ${plan.queries} from now.` : `${outcome} ${spokenSeconds(plan.delay_ms / 1000)} after purchase.`;
}

// ---- Payment links -----------------------------------------------------------------------------------

function checkoutStory(state: TenantState, requests: readonly LoggedRequest[], c: Checkout, now: number): Told {
  const v = checkoutView(c, now);
  const status = checkoutStatus(c, now);
  const t = traffic(state, requests, "checkout", [c.reference], c.transaction_id);
  const drafts: Draft[] = [
    {
      key: "created",
      kind: "created",
      at: c.created_at,
      title: "Payment link created",
      tone: "info",
      detail: `Pay exactly ${inText("NGN", c.amount)} into ${c.bank_name} ${c.account_number}.`,
    },
  ];
  if (c.paid_at !== null) {
    drafts.push({ key: "state:paid", kind: "state", at: c.paid_at, title: "Paid: status changed to paid", tone: "ok", detail: null, amount: { value: v.amount, currency: "NGN", sign: "+" } });
  } else if (status === "expired") {
    drafts.push({ key: "state:expired", kind: "state", at: c.expires_at, title: "Expired unpaid: status changed to expired", tone: "info", detail: "A transfer to its account is now refused." });
  } else {
    drafts.push({ key: "due:expiry", kind: "scheduled", at: c.expires_at, title: "Expires unless paid", tone: "info", detail: null });
  }
  return {
    id: c.reference,
    status,
    status_label: status,
    amount: { label: "Amount", value: v.amount, currency: "NGN" },
    fields: [
      field("Reference", v.reference, "mono"),
      field("Transaction", v.transaction_id, "mono"),
      field("Status", v.status),
      money("Amount", v.amount),
      field("Description", v.description),
      field("Customer", [v.customer_name, v.customer_email].filter((x) => x !== null).join(", ") || null),
      field("Pay into", `${v.bank_name} ${v.account_number} (${v.account_name})`),
      field("Redirect URL", v.redirect_url, "mono"),
      time("Created", v.created_at),
      time("Expires", v.expires_at),
      time("Paid", v.paid_at),
    ],
    drafts,
    traffic: t,
  };
}

// ---- Transfers into virtual accounts ---------------------------------------------------------------------

function vaPaymentStory(state: TenantState, requests: readonly LoggedRequest[], p: VaPayment): Told {
  const v = vaPaymentView(p);
  const t = traffic(state, requests, "va_payment", [p.transaction_id], p.transaction_id);
  const open = p.status === "pending" || p.status === "processing";
  const drafts: Draft[] = [
    {
      key: "created",
      kind: "created",
      at: p.created_at,
      title: "Transfer received",
      tone: "info",
      detail: `From ${p.payer_name} (${p.payer_bank}) into ${p.virtual_account}. ${
        p.plan === null ? "Arrived successful." : open ? `Arrived ${p.status}: nothing credited until the payer's bank confirms.` : "Arrived pending or processing: nothing credited until the payer's bank confirmed."
      }`,
    },
  ];
  // The credit is the change to success; a failed transfer leaves no trace of when it failed.
  const credit = state.ledger.find((e) => e.kind === "va_payment" && e.transaction_id === p.transaction_id);
  if (credit) {
    drafts.push({ key: "state:success", kind: "state", at: credit.at, title: "Status changed to success: credited to the wallet", tone: "ok", detail: null, amount: { value: toMajor(credit.amount), currency: "NGN", sign: "+" } });
  }
  for (const timer of timersOf(state, "va_payment.settle", p.transaction_id)) {
    const fails = p.plan?.outcome === "failed";
    drafts.push({
      key: `timer:${timer.seq}`,
      kind: "scheduled",
      at: timer.at,
      title: fails ? "Due to settle: failed (returned to the payer)" : "Due to settle: success (credited)",
      tone: "info",
      detail: null,
    });
  }
  return {
    id: p.transaction_id,
    status: p.status,
    status_label: p.status,
    amount: { label: "Amount", value: v.amount, currency: "NGN" },
    fields: [
      field("Transaction", v.transaction_id, "mono"),
      field("Narration", v.reference === "" ? "(empty)" : v.reference),
      field("Status", p.status === "failed" ? "failed: returned to the payer, never credited" : v.status),
      money("Amount", v.amount),
      field("Payer", `${v.payer_name} (${v.payer_bank})`),
      field("Into account", v.virtual_account, "mono"),
      time("Received", v.created_at),
    ],
    drafts,
    traffic: t,
  };
}

// ---- Cards ---------------------------------------------------------------------------------------------

/** Card operations whose success changes the card's status, and the status it leaves. */
const CARD_STATUS_CHANGES: Record<string, Card["status"]> = { freezeVirtualCard: "frozen", unfreezeVirtualCard: "active", terminateVirtualCard: "terminated" };

function cardStory(state: TenantState, requests: readonly LoggedRequest[], c: Card): Told {
  const v = cardView(c);
  const holder = state.cardholders.get(c.cardholder_id);
  const h = holder ? cardholderView(holder) : null;
  // Cards have no webhook events.
  const t = traffic(state, requests, "card", [String(c.card_id)], null);
  const drafts: Draft[] = [
    {
      key: "created",
      kind: "created",
      at: c.created_at,
      title: "Card issued",
      tone: "info",
      detail: `${c.brand} ${c.masked_pan} for ${h ? h.full_name : `cardholder ${c.cardholder_id}`}.`,
    },
  ];
  for (const txn of state.cardTransactions.get(c.card_id) ?? []) drafts.push(cardTransactionEntry(txn));
  // Status changes are not stamped on the card: the requests that made them are.
  for (const r of t.touched) {
    const to = r.operation ? CARD_STATUS_CHANGES[r.operation] : undefined;
    if (to && r.status !== null && r.status < 300) {
      drafts.push({ key: `state:request:${r.seq}`, kind: "state", at: r.at, title: `Status changed to ${to}`, tone: to === "active" ? "ok" : "info", detail: null });
    }
  }
  return {
    id: String(c.card_id),
    status: c.status,
    status_label: c.status,
    amount: { label: "Balance", value: v.balance, currency: "USD" },
    fields: [
      field("Card", v.card_id),
      field("Number", v.masked_pan, "mono"),
      field("Brand", v.brand),
      field("Label", v.label),
      field("Expires", `${String(v.expiry_month).padStart(2, "0")}/${v.expiry_year}`),
      field("Status", v.status),
      money("Balance", v.balance, "USD"),
      field("Cardholder", h ? `${h.full_name} (${h.email}), KYC ${h.kyc_status}` : String(c.cardholder_id)),
      time("Issued", v.created_at),
    ],
    drafts,
    traffic: t,
  };
}

function cardTransactionEntry(txn: CardTransaction): Draft {
  const t = cardTransactionView(txn);
  const declined = t.status === "declined";
  const title = declined
    ? `Declined: ${t.description}${t.decline_reason ? ` (${t.decline_reason})` : ""}`
    : t.type === "funding"
      ? "Funded from the wallet"
      : t.type === "unload"
        ? `${t.description}: moved to the wallet`
        : `Spent: ${t.description}`;
  return {
    key: `transaction:${t.transaction_id}`,
    kind: "state",
    at: txn.created_at,
    title,
    tone: declined ? "bad" : "ok",
    detail: `Balance after: ${inText("USD", txn.balance_after)}. Transaction ${t.transaction_id}.`,
    amount: declined ? null : { value: t.amount, currency: "USD", sign: t.type === "funding" ? "+" : "−" },
  };
}
