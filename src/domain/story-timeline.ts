/**
 * The parts an object's timeline is built from, and what every kind's story shares: the entries and
 * their order at one instant, the webhook events with each delivery, the requests of the log, what is
 * still due, and the field helpers of the story's header.
 */
import type { WebhookEvent } from "./event-records.js";
import { thousands, type Minor } from "./money.js";
import type { WebhookDelivery } from "./records.js";
import type { LoggedRequest, TouchedObject } from "./request-log.js";
import type { TenantState } from "./state.js";
import { CAPTURE_URL, parseAttemptTimerRef } from "./webhook-policy.js";

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

/** What a story's header shows, whatever the kind. */
export interface StoryHeader {
  id: string;
  /** The status for its colour, as the record stores it, and as the API shows it. */
  status: string;
  status_label: string;
  /** The amount the header shows: what was paid or bought, or a card's balance. */
  amount: StoryAmount & { label: string };
  fields: StoryField[];
}

/** What each kind tells of its object; `storyOf` adds the traffic's entries to its own and puts them in order. */
export interface Told extends StoryHeader {
  drafts: Draft[];
  traffic: Traffic;
}

/** At one instant, the order things happen in: a request causes the record, its change, its event, the event's delivery. */
const RANK: Record<StoryEntryKind, number> = { request: 0, created: 1, state: 2, event: 3, delivery: 4, scheduled: 5 };
/** A read that caused nothing comes after what happened at its instant. */
const PASSIVE_REQUEST_RANK = 6;

export type Draft = Omit<StoryEntry, "amount" | "event_id" | "delivery" | "request"> & Partial<Pick<StoryEntry, "amount" | "event_id" | "delivery" | "request">> & { rank?: number };

export function finish(drafts: Draft[]): StoryEntry[] {
  const ranked = drafts.map((d, i) => ({ d, i, rank: d.rank ?? RANK[d.kind] }));
  ranked.sort((a, b) => a.d.at - b.d.at || a.rank - b.rank || a.i - b.i);
  return ranked.map(({ d: { rank: _, ...entry } }) => ({ amount: null, event_id: null, delivery: null, request: null, ...entry }));
}

/** An amount in a sentence, as the domain's messages write it: "NGN 5,000.00". */
export const inText = (currency: "NGN" | "USD", minor: Minor) => `${currency} ${thousands(Math.floor(minor / 100))}.${String(minor % 100).padStart(2, "0")}`;

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
export function answeredStatus(r: LoggedRequest): string | undefined {
  if (r.response_body === null || r.response_body_truncated) return undefined;
  try {
    const body = JSON.parse(r.response_body) as { status?: unknown; data?: { status?: unknown } };
    const status = body.data?.status ?? body.status;
    return typeof status === "string" ? status : undefined;
  } catch {
    return undefined;
  }
}

export const timersOf = (state: TenantState, kind: string, ref: string) => state.timers.filter((t) => t.kind === kind && t.ref === ref).sort((a, b) => a.at - b.at || a.seq - b.seq);

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
export function traffic(
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
export type Traffic = ReturnType<typeof traffic>;

export const field = (label: string, value: string | number | null, format: "text" | "mono" = "text"): StoryField => ({ label, value, format });
export const time = (label: string, value: string | null): StoryField => ({ label, value, format: "time" });
export const money = (label: string, value: number, currency: "NGN" | "USD" = "NGN"): StoryField => ({ label, value, format: "money", currency });
