/**
 * The webhook delivery policy, apart from the I/O (webhooks/dispatcher.ts signs, POSTs and logs):
 * where deliveries go, what an attempt will do given the faults an outcome rule injects, what its
 * answer changes (the retry schedule on the merchant's clock), and which held events go out after a
 * delivery. All of it reads and writes only the merchant's state.
 *
 *   attempt  --no target-->  nothing (a first attempt marks the event no_url)
 *            --delay fault-->  deferred: a timer fires the real attempt later
 *            --out_of_order fault-->  held until another event is delivered
 *            --otherwise-->  sent (bad_signature: signed with a wrong key; drop: never sent)
 *   answer   --2xx-->  delivered, pending retries cancelled, held events released
 *            --else, a scheduled attempt-->  retry after retry_schedule_seconds[n], or failed
 */
import { touch } from "./changes.js";
import type { DomainContext } from "./context.js";
import { DomainError } from "./errors.js";
import type { WebhookEvent } from "./event-records.js";
import { takeRule } from "./outcomes.js";
import type { DeliveryTrigger, MerchantConfig } from "./records.js";
import type { TenantState } from "./state.js";
import { cancelTimers, schedule } from "./timers.js";

/** The delivery log's `url` for deliveries answered by the built-in capture (no webhook_url set). */
export const CAPTURE_URL = "sandbox:webhook-capture";
/**
 * The retry schedule (README "Sandbox choices"; a merchant can set its own): 1 min, 5 min, 30 min,
 * 2 h, 6 h, 24 h on the merchant's clock after each failed attempt, then the event is failed.
 */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [60, 300, 1_800, 7_200, 21_600, 86_400] as const;
/** How long a `delay` fault defers an attempt when its rule gives no delay_seconds. */
export const DEFAULT_FAULT_DELAY_SECONDS = 60;

/** Where a merchant's deliveries go: its webhook_url, else its built-in capture, else nowhere. */
export function deliveryTarget(config: MerchantConfig): string | null {
  return config.webhook_url ?? (config.webhook_capture ? CAPTURE_URL : null);
}

/** Timer refs of webhook attempts: a retry, or an attempt a delay fault deferred. */
export const attemptTimerRef = (eventId: string, why: "retry" | "delayed") => `${eventId}:${why}`;
export function parseAttemptTimerRef(ref: string): { eventId: string; trigger: DeliveryTrigger } {
  const [eventId = "", why] = ref.split(":");
  return { eventId, trigger: why === "delayed" ? "released" : "retry" };
}

export type AttemptPlan =
  | { kind: "none" }
  | { kind: "deferred"; url: string; at: number }
  | { kind: "held"; url: string }
  | { kind: "send"; url: string; fault: "duplicate" | "bad_signature" | "drop" | null };

/**
 * An attempt ready to go out: its id, nonce, body and signature drawn and made before any I/O, so that
 * sending it again (after a crash, by another process) sends the very same request.
 */
export interface PlannedAttempt {
  id: string;
  event_id: string;
  trigger: DeliveryTrigger;
  url: string;
  sent_at: number;
  fault: "duplicate" | "bad_signature" | "drop" | null;
  nonce: string;
  request_headers: Record<string, string>;
  request_body: string;
}

/**
 * What an attempt will do. Faults apply to the attempts the sandbox makes by itself (first attempts
 * and retries), not to those a developer asks for; taking one consumes the rule as it says.
 */
export function planAttempt(ctx: DomainContext, state: TenantState, event: WebhookEvent, trigger: DeliveryTrigger): AttemptPlan {
  const url = deliveryTarget(ctx.config);
  touch(state, "events", event.id);
  if (!url) {
    if (trigger === "initial") event.status = "no_url";
    return { kind: "none" };
  }
  const fault = trigger === "initial" || trigger === "retry" ? takeRule(ctx, state, "webhook", { event: event.type }) : undefined;
  if (fault?.outcome === "delay") {
    const at = ctx.now + (fault.delay_seconds ?? DEFAULT_FAULT_DELAY_SECONDS) * 1000;
    schedule(ctx, state, at, "webhook.attempt", attemptTimerRef(event.id, "delayed"));
    event.next_attempt_at = at;
    return { kind: "deferred", url, at };
  }
  if (fault?.outcome === "out_of_order") {
    event.status = "held";
    state.heldEvents.push(event.id);
    return { kind: "held", url };
  }
  const injected = fault?.outcome === "duplicate" || fault?.outcome === "bad_signature" || fault?.outcome === "drop" ? fault.outcome : null;
  return { kind: "send", url, fault: injected };
}

/** The `error` of an attempt the receiver did not answer in time (the transport writes it, the checks read it). */
export const timeoutError = (timeoutMs: number) => `Timed out after ${timeoutMs / 1000} s`;
export const isTimeoutError = (error: string | null) => error !== null && error.startsWith("Timed out after ");

/** A delivery counts when the receiver answered 2xx. */
export const isDelivered = (statusCode: number | null) => statusCode !== null && statusCode >= 200 && statusCode < 300;

/**
 * What an answer changes: the attempt is counted; a 2xx delivers the event and cancels its pending
 * attempts; a failed scheduled attempt (first or retry) schedules the next retry of the merchant's
 * schedule on its clock, or fails the event after the last. Redeliveries and duplicates never
 * schedule anything. Returns when the next retry is due, if one was scheduled.
 */
export function afterAttempt(ctx: DomainContext, state: TenantState, event: WebhookEvent, trigger: DeliveryTrigger, delivered: boolean): { next_retry_at: number | null } {
  const scheduled = trigger !== "redeliver" && trigger !== "duplicate" && trigger !== "test";
  touch(state, "events", event.id);
  event.attempts += 1;
  if (scheduled) event.scheduled_attempts += 1;
  // A test event has no retries: its one attempt decides it.
  if (trigger === "test" && !delivered) event.status = "failed";
  if (delivered) {
    event.status = "delivered";
    event.next_attempt_at = null;
    cancelTimers(state, "webhook.attempt", attemptTimerRef(event.id, "retry"));
    cancelTimers(state, "webhook.attempt", attemptTimerRef(event.id, "delayed"));
    return { next_retry_at: null };
  }
  if (!scheduled || event.status === "delivered") return { next_retry_at: null };
  const wait = ctx.config.webhook.retry_schedule_seconds[event.scheduled_attempts - 1];
  if (wait === undefined) {
    event.status = "failed";
    event.next_attempt_at = null;
    return { next_retry_at: null };
  }
  const at = ctx.now + wait * 1000;
  event.status = "pending";
  event.next_attempt_at = at;
  schedule(ctx, state, at, "webhook.attempt", attemptTimerRef(event.id, "retry"));
  return { next_retry_at: at };
}

/** The sandbox itself could not carry out an attempt of this event: it ends failed, with why. */
export function failEvent(state: TenantState, event: WebhookEvent, error: string): void {
  event.status = "failed";
  event.next_attempt_at = null;
  event.error = error.slice(0, 1000);
  touch(state, "events", event.id);
}

/** Events held by an out_of_order fault go out once another event has been delivered: these, now pending. */
export function releaseHeld(state: TenantState, deliveredId: string): WebhookEvent[] {
  // The delivered event itself (a held one can be redelivered) is never held any more.
  const ids = state.heldEvents.filter((id) => id !== deliveredId);
  state.heldEvents = [];
  const released = ids.map((id) => state.events.get(id)).filter((e): e is WebhookEvent => e !== undefined);
  for (const event of released) {
    event.status = "pending";
    touch(state, "events", event.id);
  }
  return released;
}

/** The built-in capture's answer when it takes a delivery (the webhook doctor's runs get it every time). */
export const CAPTURED = Object.freeze({ status_code: 200, error: null, latency_ms: 0, response_excerpt: "captured by the sandbox (no webhook_url set)" });

/** The built-in capture's answer: 500 for the first `fail_first` deliveries it gets, then 200. */
export function captureAnswer(config: MerchantConfig, state: TenantState) {
  const n = state.sequences.captured++;
  const failing = n < (config.webhook_capture?.fail_first ?? 0);
  return failing ? { ...CAPTURED, status_code: 500, response_excerpt: "failing on purpose (webhook_capture.fail_first)" } : { ...CAPTURED };
}

/** A delivery someone asks for (a redelivery, a test event) needs somewhere to go. */
export function assertDeliveryTarget(config: MerchantConfig): void {
  if (!deliveryTarget(config)) {
    throw new DomainError("INVALID_STATE", "No webhook_url is set for this merchant; set one (or webhook_capture) with PATCH /sandbox/v1/merchant.");
  }
}

/** Redelivery needs the event and somewhere to deliver it. */
export function eventToRedeliver(state: TenantState, config: MerchantConfig, eventId: string): WebhookEvent {
  const event = state.events.get(eventId);
  if (!event) throw new DomainError("NOT_FOUND", `No event ${eventId}.`);
  assertDeliveryTarget(config);
  return event;
}
