/**
 * Delivers a merchant's events: signs, POSTs (or hands to the built-in capture) and logs every
 * attempt, each a plan and a record kept by the store with the send between them, outside any change.
 * What an attempt does and what its answer changes is the policy's (domain/webhook-policy.ts).
 * API requests never wait for an attempt; `idle()` lets a clock advance (and tests) wait for the ones
 * in flight.
 */
import { MAX_DELIVERIES } from "../domain/bounds.js";
import { dropOldestDeliveries } from "../domain/delivery-log.js";
import { recordIncident } from "../domain/incidents.js";
import type { WebhookEvent } from "../domain/event-records.js";
import type { DeliveryTrigger, Timer, WebhookDelivery } from "../domain/records.js";
import type { DomainContext } from "../domain/context.js";
import type { TenantState } from "../domain/state.js";
import { afterAttempt, CAPTURE_URL, captureAnswer, failEvent, isDelivered, parseAttemptTimerRef, planAttempt, releaseHeld, type PlannedAttempt } from "../domain/webhook-policy.js";
import { LEASE_MARGIN_MS, type AttemptLeases } from "../engine/attempt-leases.js";
import { keepInBackground, MemoryTenantStore, type TenantStore } from "../engine/tenant-store.js";
import { contextOf, type Tenant } from "../engine/tenant.js";
import { signPayload } from "./sign.js";
import { createTransport, type Transport } from "./transport.js";

export const USER_AGENT = "merchant-sandbox-webhooks/1.0";

export interface DispatcherOptions {
  /** Sends the HTTP requests (default: a transport that reaches any address). */
  transport?: Transport;
  /** Called when attempts scheduled timers outside a request (so realtime wake-ups can be re-armed). */
  onTimersChanged?: (tenant: Tenant) => void;
  /** Where the phases of an attempt are kept, as changes of the merchant (default: memory). */
  store?: TenantStore;
  /** A shared store's leases on attempts in flight, so that another process sends an attempt again after this one died. */
  leases?: AttemptLeases;
}

/** The receiver's answer to an attempt, as the transport reports it. */
type AttemptAnswer = Awaited<ReturnType<Transport["post"]>>;

/** What a dropped attempt gets: no answer at all. */
const DROPPED = Object.freeze({ status_code: null, error: "Dropped by fault injection: treated as if the receiver were down", latency_ms: 0, response_excerpt: null });
/** What `drain` answers when nothing waits to be sent. */
const NOTHING_TO_SEND: Promise<void> = Promise.resolve();

/** A planned attempt to send, with the context it was planned in (its answer is applied as of then) and its place in the log. */
interface Sendable {
  attempt: PlannedAttempt;
  ctx: DomainContext & { state: TenantState };
  order: number;
}
type Planned = { logged: WebhookDelivery } | Sendable;

/** Whether an attempt sends an HTTP request (not a dropped attempt, nor one to the built-in capture, which the sandbox answers itself). */
const sendsRequest = (attempt: PlannedAttempt) => attempt.fault !== "drop" && attempt.url !== CAPTURE_URL;

export class WebhookDispatcher {
  private readonly inflight = new Map<string, Set<Promise<unknown>>>();
  /** When each logged attempt started (this process only; saved deliveries are all complete). */
  private readonly startOrder = new WeakMap<WebhookDelivery, number>();
  private started = 0;
  readonly transport: Transport;
  private readonly store: TenantStore;
  /** Keeps a change made in place (in-process stores); `undefined` in memory, where there is nothing to keep. */
  private readonly keep: ((tenant: Tenant) => void) | undefined;

  constructor(private readonly options: DispatcherOptions = {}) {
    this.transport = options.transport ?? createTransport({ blockPrivate: false });
    this.store = options.store ?? new MemoryTenantStore();
    this.keep = keepInBackground(this.store);
  }

  /** Server shutdown: every request in flight ends now (the attempts are logged as failed). */
  abortAll(): void {
    this.transport.abortAll();
  }

  /** Starts the first attempt of every new event; resolves when those attempts are done. */
  drain(tenant: Tenant): Promise<void> {
    if (this.store.shared) return this.drainShared(tenant);
    if (tenant.state.outbox.length === 0) return NOTHING_TO_SEND; // most requests: no promise made
    const started: Promise<unknown>[] = [];
    while (tenant.state.outbox.length > 0) {
      const event = tenant.state.events.get(tenant.state.outbox.shift()!);
      if (event) started.push(this.track(tenant, this.attempt(tenant, event, "initial"), event));
    }
    return Promise.all(started).then(() => undefined);
  }

  /**
   * A shared store: the events leave the outbox in the change that plans (and leases) their first
   * attempts, so an event is never taken off and then lost with a process that died. An outbox empty
   * here costs nothing: events another process's change emitted are its own to start (or, if it died,
   * its store's poller's).
   */
  private async drainShared(tenant: Tenant): Promise<void> {
    if (tenant.state.outbox.length === 0) return;
    let start: () => Promise<void>;
    try {
      start = await this.store.change(tenant, () => this.planOutbox(tenant));
    } catch (err) {
      // Nothing was taken off the outbox: the store's poller finds the merchant due and drains it later.
      console.error(`[merchant-sandbox] merchant ${tenant.id}: webhooks could not start:`, err instanceof Error ? err.message : err);
      return;
    }
    await start();
  }

  /**
   * Inside a change of a shared store: the outbox's events taken off and their first attempts planned
   * and leased, in that change; what it returns starts them (once the change is kept) and resolves when
   * they are done. A request's own change plans them this way, so the request and the plans are one commit.
   */
  async planOutbox(tenant: Tenant): Promise<() => Promise<void>> {
    const planned: Array<{ event: WebhookEvent; sendable: Sendable }> = [];
    while (tenant.state.outbox.length > 0) {
      const event = tenant.state.events.get(tenant.state.outbox.shift()!);
      if (!event) continue;
      const p = await this.planShared(tenant, event, "initial");
      if (!p || "logged" in p) continue;
      // Nothing to send: recorded in this same change (one commit for the request, the plan and the record).
      if (!sendsRequest(p.attempt)) await this.track(tenant, this.carryOut(tenant, event, "initial", p), event);
      else planned.push({ event, sendable: p });
    }
    return () => Promise.all(planned.map(({ event, sendable }) => this.track(tenant, this.carryOut(tenant, event, "initial", sendable), event))).then(() => undefined);
  }

  /**
   * An attempt whose lease ran out (taken over from a process that died): sent again as planned, the
   * same request, then recorded on the merchant as it stands.
   */
  resume(tenant: Tenant, attempt: PlannedAttempt): Promise<WebhookDelivery | undefined> {
    const event = tenant.state.events.get(attempt.event_id);
    const planned: Sendable = { attempt, ctx: { ...contextOf(tenant), state: tenant.state }, order: this.started++ };
    return this.track(tenant, this.carryOut(tenant, event, attempt.trigger, planned), event);
  }

  /** A `webhook.attempt` timer is due: a retry, or an attempt deferred by a delay fault. */
  onTimer(tenant: Tenant, timer: Timer): Promise<void> {
    const { eventId, trigger } = parseAttemptTimerRef(timer.ref);
    const event = tenant.state.events.get(eventId);
    if (!event || event.status === "delivered") return Promise.resolve();
    return this.track(tenant, this.attempt(tenant, event, trigger), event).then(() => undefined);
  }

  /** Sends an event again now, whatever its state; a success also stops its pending retries. */
  redeliver(tenant: Tenant, event: WebhookEvent): Promise<WebhookDelivery | undefined> {
    return this.track(tenant, this.attempt(tenant, event, "redeliver"), event);
  }

  /** The one attempt of a test event (events.ts `testEvent`): now, no faults, no retries. */
  sendTest(tenant: Tenant, event: WebhookEvent): Promise<WebhookDelivery | undefined> {
    return this.track(tenant, this.attempt(tenant, event, "test"), event);
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
        if (event) failEvent(tenant.state, event, err instanceof Error ? err.message : String(err));
        recordIncident(tenant.state, tenant.clock.now(), where, err);
        console.error(`[merchant-sandbox] merchant ${tenant.id}: ${where} failed:`, err);
        return undefined;
      })
      .finally(() => set.delete(tracked));
    set.add(tracked);
    return tracked;
  }

  /**
   * One attempt, in three phases: plan (the policy decides, ids are drawn, the request is signed),
   * send (the only I/O, outside any change), record (the answer's effects and the log entry). The
   * plan and the record are changes of the merchant, kept by the store.
   */
  private async attempt(tenant: Tenant, event: WebhookEvent, trigger: DeliveryTrigger): Promise<WebhookDelivery | undefined> {
    if (this.store.shared) {
      const outcome = await this.store.change(tenant, async (): Promise<{ done: WebhookDelivery | undefined } | { later: Sendable }> => {
        const planned = await this.planShared(tenant, event, trigger);
        if (!planned || "logged" in planned) return { done: planned?.logged };
        // Nothing to send (the built-in capture, a dropped attempt): planned and recorded in one change.
        if (!sendsRequest(planned.attempt)) return { done: await this.carryOut(tenant, event, trigger, planned) };
        return { later: planned };
      });
      return "later" in outcome ? this.carryOut(tenant, event, trigger, outcome.later) : outcome.done;
    }
    const planning = this.phase(tenant, () => this.plan(tenant, event, trigger), (p) => p !== undefined && "logged" in p);
    const planned = planning instanceof Promise ? await planning : planning;
    if (!planned) return undefined;
    if ("logged" in planned) return planned.logged;
    return this.carryOut(tenant, event, trigger, planned);
  }

  /** The plan, and with a shared store the lease on an attempt to send, in one change. */
  private async planShared(tenant: Tenant, event: WebhookEvent, trigger: DeliveryTrigger): Promise<Planned | undefined> {
    const planned = this.plan(tenant, event, trigger);
    // Leased only when a request goes out: an attempt with nothing to send is recorded in the change that planned it.
    if (planned && !("logged" in planned) && this.options.leases && sendsRequest(planned.attempt)) {
      await this.options.leases.take(tenant, planned.attempt, planned.ctx.config.webhook.timeout_seconds * 1000 + LEASE_MARGIN_MS);
    }
    return planned;
  }

  /** Send and record a planned attempt, then what it leads to (a duplicate, the release of held events). */
  private async carryOut(tenant: Tenant, event: WebhookEvent | undefined, trigger: DeliveryTrigger, planned: Sendable): Promise<WebhookDelivery | undefined> {
    const { attempt } = planned;
    const sending = this.send(planned);
    const answer = sending ? await sending : undefined;
    const recording = this.store.shared
      ? this.store.change(tenant, () => this.recordShared(tenant, planned, answer))
      : this.phase(tenant, () => this.record(tenant, event!, planned, answer), () => true);
    const recorded = recording instanceof Promise ? await recording : recording;
    if (!recorded) return undefined;
    const { delivery, event: current } = "delivery" in recorded ? recorded : { delivery: recorded, event: event! };

    if (attempt.fault === "duplicate") await this.attempt(tenant, current, "duplicate");
    if (delivery.outcome === "delivered" && trigger !== "duplicate") {
      const releasing = this.phase(tenant, () => releaseHeld(this.store.shared ? tenant.state : planned.ctx.state, current.id), () => false);
      for (const held of releasing instanceof Promise ? await releasing : releasing) await this.attempt(tenant, held, "released");
    }
    return delivery;
  }

  /**
   * A shared store's record: the lease given back first (when another process took the attempt over,
   * it records it), then the answer applied to the merchant as the store now holds it (another process
   * may have changed it while the attempt was in flight), with the settings the attempt started with.
   */
  private async recordShared(tenant: Tenant, planned: Sendable, answer: AttemptAnswer | undefined): Promise<{ delivery: WebhookDelivery; event: WebhookEvent } | undefined> {
    if (this.options.leases && sendsRequest(planned.attempt) && !(await this.options.leases.release(tenant, planned.attempt.id))) return undefined;
    const event = tenant.state.events.get(planned.attempt.event_id);
    if (!event) return undefined; // reset or replaced meanwhile: nothing left to record it on
    const current: Sendable = { ...planned, ctx: { ...planned.ctx, state: tenant.state } };
    return { delivery: this.record(tenant, event, current, answer), event };
  }

  /**
   * Runs one phase as a change of the merchant. A shared store keeps it before the attempt goes on. A
   * store in this process runs it at once, in place, and keeps it in the background when it logged an
   * attempt (a plan to send is kept with its record, a release with the released attempts'): the
   * attempts of one instant then draw ids and schedule timers in the order they always have.
   */
  private phase<T>(tenant: Tenant, work: () => T, logged: (result: T) => boolean): T | Promise<T> {
    if (this.store.shared) return this.store.change(tenant, work);
    const result = work();
    if (logged(result)) this.keep?.(tenant);
    return result;
  }

  /** Plan: an attempt logged at once (deferred by a delay fault, held by out_of_order), one to send, or none. */
  private plan(tenant: Tenant, event: WebhookEvent, trigger: DeliveryTrigger): Planned | undefined {
    const { state, config } = tenant;
    const ctx = contextOf(tenant);
    const plan = planAttempt(ctx, state, event, trigger);
    if (plan.kind === "none") return undefined;
    // Drawn before any I/O, so seeded runs give the same ids, and the log keeps attempts in the order
    // they started even when attempts of one instant run side by side and finish in any order.
    const slot = { id: tenant.ids.id("DLV"), order: this.started++ };
    if (plan.kind === "deferred") {
      this.options.onTimersChanged?.(tenant);
      return { logged: this.log(tenant, event, trigger, slot, { url: plan.url, sent_at: ctx.now, outcome: "deferred", fault: "delay", next_retry_at: plan.at }) };
    }
    if (plan.kind === "held") return { logged: this.log(tenant, event, trigger, slot, { url: plan.url, sent_at: ctx.now, outcome: "held", fault: "out_of_order" }) };

    const nonce = ctx.ids.hex(32);
    const body = JSON.stringify({ event: event.type, nonce, sent_at: new Date(ctx.now).toISOString(), data: event.data });
    const options = { algorithm: config.webhook.signature_algorithm, encoding: config.webhook.signature_encoding };
    // A bad signature is a real HMAC, just not with the merchant's secret: it looks right and fails to verify.
    const secret = plan.fault === "bad_signature" ? `${config.webhook_secret}-wrong` : config.webhook_secret;
    const headers = { "content-type": "application/json", "user-agent": USER_AGENT, "x-webhook-signature": signPayload(body, secret, options) };
    const attempt: PlannedAttempt = {
      id: slot.id,
      event_id: event.id,
      trigger,
      url: plan.url,
      sent_at: ctx.now,
      fault: plan.fault,
      nonce,
      request_headers: headers,
      request_body: body,
    };
    return { attempt, ctx: { ...ctx, state }, order: slot.order };
  }

  /** Send: the receiver's answer, or nothing when the sandbox answers itself (a dropped attempt, the built-in capture). */
  private send({ attempt, ctx }: Sendable): Promise<AttemptAnswer> | undefined {
    if (!sendsRequest(attempt)) return undefined;
    return this.transport.post(attempt.url, attempt.request_headers, attempt.request_body, ctx.config.webhook.timeout_seconds * 1000);
  }

  /** Record: what the answer changes, applied as of the attempt's start (its sent_at and the settings then), however long it took; then the log entry. */
  private record(tenant: Tenant, event: WebhookEvent, { attempt, ctx, order }: Sendable, answer: AttemptAnswer | undefined): WebhookDelivery {
    const result = answer ?? (attempt.fault === "drop" ? DROPPED : captureAnswer(ctx.config, ctx.state));
    const delivered = isDelivered(result.status_code);
    const { next_retry_at } = afterAttempt(ctx, ctx.state, event, attempt.trigger, delivered);
    if (next_retry_at !== null) this.options.onTimersChanged?.(tenant);
    return this.log(tenant, event, attempt.trigger, { id: attempt.id, order }, {
      url: attempt.url,
      sent_at: attempt.sent_at,
      nonce: attempt.nonce,
      request_headers: attempt.request_headers,
      request_body: attempt.request_body,
      ...result,
      outcome: delivered ? "delivered" : "failed",
      fault: attempt.fault ?? (attempt.trigger === "duplicate" ? "duplicate" : null),
      next_retry_at,
    });
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
    // The newest MAX_DELIVERIES are kept; the sandbox-wide log budget may then cut the largest logs.
    tenant.deliveryLogBytes.logged(delivery, dropOldestDeliveries(tenant.state, log.length - MAX_DELIVERIES));
    return delivery;
  }
}
