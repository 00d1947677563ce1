/**
 * Delivers a merchant's events to its webhook URL: signed POSTs, a timeout, retries on the merchant's
 * clock, every attempt logged, and the faults an outcome rule injects. API requests never wait for an
 * attempt; `idle()` lets a clock advance (and tests) wait for the ones in flight.
 */
import { MAX_DELIVERIES } from "../domain/bounds.js";
import { recordIncident } from "../domain/incidents.js";
import { takeRule } from "../domain/outcomes.js";
import type { OutcomeRule } from "../domain/records.js";
import type { Timer } from "../domain/records.js";
import { cancelTimers, schedule } from "../domain/timers.js";
import { contextOf, type Tenant } from "../engine/tenant.js";
import type { WebhookEvent } from "../domain/events.js";
import type { DeliveryTrigger, WebhookDelivery } from "../domain/records.js";
import { signPayload } from "./sign.js";
import { createTransport, type Transport } from "./transport.js";

export const USER_AGENT = "merchant-sandbox-webhooks/1.0";
/** The delivery log's `url` for deliveries answered by the built-in capture (no webhook_url set). */
export const CAPTURE_URL = "sandbox:webhook-capture";

/** Where a merchant's deliveries go: its webhook_url, else its built-in capture, else nowhere. */
export function deliveryTarget(config: Tenant["config"]): string | null {
  return config.webhook_url ?? (config.webhook_capture ? CAPTURE_URL : null);
}
const DEFAULT_FAULT_DELAY_SECONDS = 60;

export interface DispatcherOptions {
  /** Sends the HTTP requests (default: a transport that reaches any address). */
  transport?: Transport;
  /** Called when attempts scheduled timers outside a request (so realtime wake-ups can be re-armed). */
  onTimersChanged?: (tenant: Tenant) => void;
  /** Called after every logged attempt (persistence saves the merchant). */
  onStateChanged?: (tenant: Tenant) => void;
}

export class WebhookDispatcher {
  private readonly inflight = new Map<string, Set<Promise<unknown>>>();
  /** When each logged attempt started (this process only; saved deliveries are all complete). */
  private readonly startOrder = new WeakMap<WebhookDelivery, number>();
  private started = 0;
  readonly transport: Transport;

  constructor(private readonly options: DispatcherOptions = {}) {
    this.transport = options.transport ?? createTransport({ blockPrivate: false });
  }

  /** Server shutdown: every request in flight ends now (the attempts are logged as failed). */
  abortAll(): void {
    this.transport.abortAll();
  }

  /** Starts the first attempt of every new event; resolves when those attempts are done. */
  drain(tenant: Tenant): Promise<void> {
    const started: Promise<unknown>[] = [];
    while (tenant.state.outbox.length > 0) {
      const event = tenant.state.events.get(tenant.state.outbox.shift()!);
      if (event) started.push(this.track(tenant, this.attempt(tenant, event, "initial"), event));
    }
    return Promise.all(started).then(() => undefined);
  }

  /** A `webhook.attempt` timer is due: a retry, or an attempt deferred by a delay fault. */
  onTimer(tenant: Tenant, timer: Timer): Promise<void> {
    const [eventId, why] = timer.ref.split(":") as [string, "retry" | "delayed"];
    const event = tenant.state.events.get(eventId);
    if (!event || event.status === "delivered") return Promise.resolve();
    return this.track(tenant, this.attempt(tenant, event, why === "delayed" ? "released" : "retry"), event).then(() => undefined);
  }

  /** Sends an event again now, whatever its state; a success also stops its pending retries. */
  redeliver(tenant: Tenant, event: WebhookEvent): Promise<WebhookDelivery | undefined> {
    return this.track(tenant, this.attempt(tenant, event, "redeliver"), event);
  }

  /** Resolves once no attempt of this merchant is in flight (including attempts those attempts started). */
  async idle(tenant: Tenant): Promise<void> {
    for (let set = this.inflight.get(tenant.id); set && set.size > 0; set = this.inflight.get(tenant.id)) {
      await Promise.allSettled([...set]);
    }
  }

  /**
   * Every attempt goes through here: it is tracked (so `idle()` can wait for it) and can never reject.
   * A failure of the sandbox's own (not the receiver's answer) fails the event, with the error on it,
   * is recorded as an incident of the merchant and logged with its id; the rest carries on.
   */
  private track<T>(tenant: Tenant, work: Promise<T>, event?: WebhookEvent): Promise<T | undefined> {
    let set = this.inflight.get(tenant.id);
    if (!set) this.inflight.set(tenant.id, (set = new Set()));
    const tracked: Promise<T | undefined> = work
      .catch((err: unknown) => {
        const where = event ? `webhook ${event.type} ${event.id}` : "webhook delivery";
        if (event) {
          event.status = "failed";
          event.next_attempt_at = null;
          event.error = err instanceof Error ? err.message.slice(0, 1000) : String(err);
        }
        recordIncident(tenant.state, tenant.clock.now(), where, err);
        console.error(`[merchant-sandbox] merchant ${tenant.id}: ${where} failed:`, err);
        return undefined;
      })
      .finally(() => set.delete(tracked));
    set.add(tracked);
    return tracked;
  }

  private async attempt(tenant: Tenant, event: WebhookEvent, trigger: DeliveryTrigger): Promise<WebhookDelivery | undefined> {
    const { state, config } = tenant;
    const url = deliveryTarget(config);
    if (!url) {
      if (trigger === "initial") event.status = "no_url";
      return undefined;
    }
    const ctx = contextOf(tenant);
    // Drawn before any I/O, so seeded runs give the same ids, and the log keeps attempts in the order
    // they started even when attempts of one instant run side by side and finish in any order.
    const slot = { id: tenant.ids.id("DLV"), order: this.started++ };
    const scheduled = trigger !== "redeliver" && trigger !== "duplicate";
    // Faults apply to attempts the sandbox makes by itself, not to the ones a developer asks for.
    const fault: OutcomeRule | undefined =
      trigger === "initial" || trigger === "retry" ? takeRule(state, "webhook", { event: event.type }) : undefined;

    if (fault?.outcome === "delay") {
      const at = ctx.now + (fault.delay_seconds ?? DEFAULT_FAULT_DELAY_SECONDS) * 1000;
      schedule(ctx, state, at, "webhook.attempt", `${event.id}:delayed`);
      event.next_attempt_at = at;
      this.options.onTimersChanged?.(tenant);
      return this.log(tenant, event, trigger, slot, { url, sent_at: ctx.now, outcome: "deferred", fault: "delay", next_retry_at: at });
    }
    if (fault?.outcome === "out_of_order") {
      event.status = "held";
      state.heldEvents.push(event.id);
      return this.log(tenant, event, trigger, slot, { url, sent_at: ctx.now, outcome: "held", fault: "out_of_order" });
    }

    const payload = { event: event.type, nonce: ctx.ids.hex(32), sent_at: new Date(ctx.now).toISOString(), data: event.data };
    const body = JSON.stringify(payload);
    const options = { algorithm: config.webhook.signature_algorithm, encoding: config.webhook.signature_encoding };
    // A bad signature is a real HMAC, just not with the merchant's secret: it looks right and fails to verify.
    const secret = fault?.outcome === "bad_signature" ? `${config.webhook_secret}-wrong` : config.webhook_secret;
    const headers = { "content-type": "application/json", "user-agent": USER_AGENT, "x-webhook-signature": signPayload(body, secret, options) };

    const result =
      fault?.outcome === "drop"
        ? { status_code: null, error: "Dropped by fault injection: treated as if the receiver were down", latency_ms: 0, response_excerpt: null }
        : url === CAPTURE_URL
          ? capture(tenant)
          : await this.transport.post(url, headers, body, config.webhook.timeout_seconds * 1000);
    const delivered = result.status_code !== null && result.status_code >= 200 && result.status_code < 300;
    event.attempts += 1;

    let next_retry_at: number | null = null;
    if (scheduled) event.scheduled_attempts += 1;
    if (delivered) {
      event.status = "delivered";
      event.next_attempt_at = null;
      cancelTimers(state, "webhook.attempt", `${event.id}:retry`);
      cancelTimers(state, "webhook.attempt", `${event.id}:delayed`);
    } else if (scheduled && event.status !== "delivered") {
      const retries = config.webhook.retry_schedule_seconds;
      const wait = retries[event.scheduled_attempts - 1];
      if (wait === undefined) {
        event.status = "failed";
        event.next_attempt_at = null;
      } else {
        next_retry_at = ctx.now + wait * 1000;
        event.status = "pending";
        event.next_attempt_at = next_retry_at;
        schedule(ctx, state, next_retry_at, "webhook.attempt", `${event.id}:retry`);
        this.options.onTimersChanged?.(tenant);
      }
    }
    const delivery = this.log(tenant, event, trigger, slot, {
      url,
      sent_at: ctx.now,
      nonce: payload.nonce,
      request_headers: headers,
      request_body: body,
      ...result,
      outcome: delivered ? "delivered" : "failed",
      fault: fault ? fault.outcome : trigger === "duplicate" ? "duplicate" : null,
      next_retry_at,
    });

    if (fault?.outcome === "duplicate") await this.attempt(tenant, event, "duplicate");
    if (delivered && trigger !== "duplicate") await this.release(tenant, event.id);
    return delivery;
  }

  /** Events held by an out_of_order fault go out once a later event has been delivered. */
  private async release(tenant: Tenant, deliveredId: string): Promise<void> {
    const held = tenant.state.heldEvents.filter((id) => id !== deliveredId);
    if (held.length === 0) return;
    tenant.state.heldEvents = [];
    for (const id of held) {
      const event = tenant.state.events.get(id);
      if (event) {
        event.status = "pending";
        await this.attempt(tenant, event, "released");
      }
    }
  }

  private log(
    tenant: Tenant,
    event: WebhookEvent,
    trigger: DeliveryTrigger,
    slot: { id: string; order: number },
    fields: Partial<WebhookDelivery> & Pick<WebhookDelivery, "url" | "sent_at" | "outcome">,
  ): WebhookDelivery {
    const delivery: WebhookDelivery = {
      id: slot.id,
      event_id: event.id,
      event_type: event.type,
      trigger,
      nonce: null,
      request_headers: {},
      request_body: null,
      status_code: null,
      error: null,
      latency_ms: null,
      response_excerpt: null,
      fault: null,
      next_retry_at: null,
      ...fields,
    };
    const log = tenant.state.deliveries;
    let at = log.length;
    while (at > 0 && (this.startOrder.get(log[at - 1]!) ?? -1) > slot.order) at--;
    log.splice(at, 0, delivery);
    this.startOrder.set(delivery, slot.order);
    if (log.length > MAX_DELIVERIES) log.splice(0, log.length - MAX_DELIVERIES); // the newest are kept
    this.options.onStateChanged?.(tenant);
    return delivery;
  }
}

/** The built-in capture's answer: 500 for the first `fail_first` deliveries it gets, then 200. No I/O. */
function capture(tenant: Tenant) {
  const n = tenant.state.sequences.captured++;
  const failing = n < (tenant.config.webhook_capture?.fail_first ?? 0);
  return {
    status_code: failing ? 500 : 200,
    error: null,
    latency_ms: 0,
    response_excerpt: failing ? "failing on purpose (webhook_capture.fail_first)" : "captured by the sandbox (no webhook_url set)",
  };
}
