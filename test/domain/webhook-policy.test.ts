import { describe, expect, it } from "vitest";
import { emit, type WebhookEvent } from "../../src/domain/events.js";
import { addRule } from "../../src/domain/outcomes.js";
import {
  afterAttempt,
  attemptTimerRef,
  CAPTURE_URL,
  captureAnswer,
  DEFAULT_RETRY_SCHEDULE_SECONDS,
  deliveryTarget,
  eventToRedeliver,
  isDelivered,
  parseAttemptTimerRef,
  planAttempt,
  releaseHeld,
} from "../../src/domain/webhook-policy.js";
import { expectRefusal, makeContext, setup, T0, type SetupOptions } from "./context.js";

const URL = "https://hooks.example/in";

function world(opts: SetupOptions = {}) {
  const w = setup({ settings: { webhook_url: URL }, ...opts });
  let n = 0;
  const newEvent = (): WebhookEvent =>
    emit(w.ctx, w.state, "payment.received", `TXN_${++n}`, {
      reference: "inv",
      amount: 10,
      currency: "NGN",
      virtual_account: "0000000018",
      payer_name: "OKAFOR CHINEDU EMMANUEL",
      payer_bank: "Guaranty Trust Bank",
      transaction_id: `TXN_${n}`,
      status: "successful",
    });
  return { ...w, newEvent };
}

describe("deliveryTarget", () => {
  it("is the webhook_url, else the built-in capture, else nowhere", () => {
    expect(deliveryTarget(makeContext({ settings: { webhook_url: URL, webhook_capture: { fail_first: 0 } } }).config)).toBe(URL);
    expect(deliveryTarget(makeContext({ settings: { webhook_capture: { fail_first: 0 } } }).config)).toBe(CAPTURE_URL);
    expect(deliveryTarget(makeContext().config)).toBeNull();
  });
});

describe("planAttempt", () => {
  it("with nowhere to deliver does nothing, marking a first attempt no_url", () => {
    const w = world({ settings: {} });
    const e = w.newEvent();
    expect(planAttempt(w.ctx, w.state, e, "retry")).toEqual({ kind: "none" });
    expect(e.status).toBe("pending");
    expect(planAttempt(w.ctx, w.state, e, "initial")).toEqual({ kind: "none" });
    expect(e.status).toBe("no_url");
  });

  it("sends without a fault when no rule applies", () => {
    const w = world();
    expect(planAttempt(w.ctx, w.state, w.newEvent(), "initial")).toEqual({ kind: "send", url: URL, fault: null });
  });

  it("a delay fault defers the attempt by a webhook.attempt timer (the rule's delay, else 60 s)", () => {
    const w = world();
    addRule(w.ctx, w.state, { target: "webhook", outcome: "delay", delay_seconds: 90, times: 1 });
    addRule(w.ctx, w.state, { target: "webhook", outcome: "delay", times: 1 });
    const a = w.newEvent();
    const b = w.newEvent();
    expect(planAttempt(w.ctx, w.state, a, "initial")).toEqual({ kind: "deferred", url: URL, at: T0 + 60_000 });
    expect(planAttempt(w.ctx, w.state, b, "retry")).toEqual({ kind: "deferred", url: URL, at: T0 + 90_000 });
    expect([a.next_attempt_at, a.status]).toEqual([T0 + 60_000, "pending"]);
    expect(w.state.timers.map((t) => [t.kind, t.ref, t.at])).toEqual([
      ["webhook.attempt", `${a.id}:delayed`, T0 + 60_000],
      ["webhook.attempt", `${b.id}:delayed`, T0 + 90_000],
    ]);
  });

  it("an out_of_order fault holds the event", () => {
    const w = world();
    addRule(w.ctx, w.state, { target: "webhook", outcome: "out_of_order" });
    const e = w.newEvent();
    expect(planAttempt(w.ctx, w.state, e, "initial")).toEqual({ kind: "held", url: URL });
    expect(e.status).toBe("held");
    expect(w.state.heldEvents).toEqual([e.id]);
  });

  it("duplicate, bad_signature and drop are sent with the fault named", () => {
    const w = world();
    for (const fault of ["duplicate", "bad_signature", "drop"] as const) {
      addRule(w.ctx, w.state, { target: "webhook", outcome: fault, times: 1 });
      expect(planAttempt(w.ctx, w.state, w.newEvent(), "initial")).toEqual({ kind: "send", url: URL, fault });
    }
  });

  it("faults apply only to first attempts and retries, and only to the event type a rule names", () => {
    const w = world();
    addRule(w.ctx, w.state, { target: "webhook", outcome: "drop", times: 5 });
    const e = w.newEvent();
    for (const trigger of ["redeliver", "duplicate", "released"] as const) {
      expect(planAttempt(w.ctx, w.state, e, trigger)).toEqual({ kind: "send", url: URL, fault: null });
    }
    expect(w.state.outcomeRules[0]!.times).toBe(5);
    addRule(w.ctx, w.state, { target: "webhook", match: { event: "payout.completed" }, outcome: "bad_signature" });
    expect(planAttempt(w.ctx, w.state, e, "retry")).toEqual({ kind: "send", url: URL, fault: "drop" });
    expect(w.state.outcomeRules[0]!.times).toBe(4);
  });
});

describe("afterAttempt", () => {
  it("retries a failing event on the merchant's clock through the whole schedule, then fails it", () => {
    const w = world();
    const e = w.newEvent();
    expect(DEFAULT_RETRY_SCHEDULE_SECONDS).toEqual([60, 300, 1_800, 7_200, 21_600, 86_400]);
    const dueTimes: number[] = [];
    let trigger: "initial" | "retry" = "initial";
    for (const wait of DEFAULT_RETRY_SCHEDULE_SECONDS) {
      const { next_retry_at } = afterAttempt(w.ctx, w.state, e, trigger, false);
      expect(next_retry_at).toBe(w.ctx.now + wait * 1_000);
      expect([e.status, e.next_attempt_at]).toEqual(["pending", next_retry_at]);
      expect(w.state.timers.at(-1)).toMatchObject({ at: next_retry_at, kind: "webhook.attempt", ref: `${e.id}:retry` });
      dueTimes.push(next_retry_at! - T0);
      w.ctx.now = next_retry_at!;
      trigger = "retry";
    }
    expect(afterAttempt(w.ctx, w.state, e, "retry", false)).toEqual({ next_retry_at: null });
    expect([e.status, e.next_attempt_at, e.attempts, e.scheduled_attempts]).toEqual(["failed", null, 7, 7]);
    expect(dueTimes).toEqual([60, 360, 2_160, 9_360, 30_960, 117_360].map((s) => s * 1_000));
    expect(w.state.timers).toHaveLength(6); // the engine pops them as they fire; none was added after the last
  });

  it("with an empty schedule a first failure fails the event", () => {
    const w = world({ settings: { webhook_url: URL, webhook: { retry_schedule_seconds: [] } } });
    const e = w.newEvent();
    expect(afterAttempt(w.ctx, w.state, e, "initial", false)).toEqual({ next_retry_at: null });
    expect(e.status).toBe("failed");
  });

  it("redeliveries and duplicates count as attempts but never schedule or fail anything", () => {
    const w = world();
    const e = w.newEvent();
    afterAttempt(w.ctx, w.state, e, "initial", false);
    const timers = [...w.state.timers];
    for (const trigger of ["redeliver", "duplicate"] as const) {
      expect(afterAttempt(w.ctx, w.state, e, trigger, false)).toEqual({ next_retry_at: null });
    }
    expect([e.status, e.attempts, e.scheduled_attempts, e.next_attempt_at]).toEqual(["pending", 3, 1, T0 + 60_000]);
    expect(w.state.timers).toEqual(timers);
  });

  it("a 2xx delivers the event and cancels its pending retry and deferred attempts, not other events'", () => {
    const w = world();
    addRule(w.ctx, w.state, { target: "webhook", outcome: "delay", times: 1 });
    const e = w.newEvent();
    const other = w.newEvent();
    planAttempt(w.ctx, w.state, e, "initial"); // deferred
    afterAttempt(w.ctx, w.state, e, "released", false); // then failed: a retry is due
    afterAttempt(w.ctx, w.state, other, "initial", false);
    expect(w.state.timers).toHaveLength(3);
    expect(afterAttempt(w.ctx, w.state, e, "redeliver", true)).toEqual({ next_retry_at: null });
    expect([e.status, e.next_attempt_at]).toEqual(["delivered", null]);
    expect(w.state.timers.map((t) => t.ref)).toEqual([`${other.id}:retry`]);
  });

  it("a late failure of a scheduled attempt does not undo a delivery", () => {
    const w = world();
    const e = w.newEvent();
    afterAttempt(w.ctx, w.state, e, "initial", true);
    expect(afterAttempt(w.ctx, w.state, e, "retry", false)).toEqual({ next_retry_at: null });
    expect([e.status, e.attempts, e.scheduled_attempts]).toEqual(["delivered", 2, 2]);
  });

  it("counts 2xx, and only 2xx, as delivered", () => {
    expect([200, 204, 299, 199, 300, 500, null].map(isDelivered)).toEqual([true, true, true, false, false, false, false]);
  });
});

describe("releaseHeld", () => {
  it("releases every held event, now pending, once another event is delivered", () => {
    const w = world();
    addRule(w.ctx, w.state, { target: "webhook", outcome: "out_of_order", times: 2 });
    const a = w.newEvent();
    const b = w.newEvent();
    const c = w.newEvent();
    planAttempt(w.ctx, w.state, a, "initial");
    planAttempt(w.ctx, w.state, b, "initial");
    expect(releaseHeld(w.state, c.id)).toEqual([a, b]);
    expect([a.status, b.status, w.state.heldEvents]).toEqual(["pending", "pending", []]);
    expect(releaseHeld(w.state, c.id)).toEqual([]);
  });

  // Fails today: releaseHeld returns early when the delivered event is the only held one, leaving it in
  // heldEvents; the next delivery of any event releases it again (status back to pending, sent again).
  it("a held event delivered by redelivery is no longer held", () => {
    const w = world();
    addRule(w.ctx, w.state, { target: "webhook", outcome: "out_of_order", times: 1 });
    const held = w.newEvent();
    planAttempt(w.ctx, w.state, held, "initial");
    afterAttempt(w.ctx, w.state, held, "redeliver", true);
    expect(releaseHeld(w.state, held.id)).toEqual([]);
    expect(w.state.heldEvents).toEqual([]);
    // Delivering another event later must not send the delivered one again.
    const next = w.newEvent();
    afterAttempt(w.ctx, w.state, next, "initial", true);
    expect(releaseHeld(w.state, next.id)).toEqual([]);
    expect(held.status).toBe("delivered");
  });
});

describe("captureAnswer", () => {
  it("answers 500 for the first fail_first deliveries, then 200", () => {
    const w = world({ settings: { webhook_capture: { fail_first: 2 } } });
    const codes = Array.from({ length: 4 }, () => captureAnswer(w.ctx.config, w.state).status_code);
    expect(codes).toEqual([500, 500, 200, 200]);
    expect(w.state.sequences.captured).toBe(4);
    expect(captureAnswer(w.ctx.config, w.state)).toEqual({ status_code: 200, error: null, latency_ms: 0, response_excerpt: "captured by the sandbox (no webhook_url set)" });
    expect(captureAnswer(makeContext().config, setup().state).status_code).toBe(200);
  });
});

describe("eventToRedeliver", () => {
  it("needs the event and somewhere to deliver it", () => {
    const w = world();
    const e = w.newEvent();
    expect(eventToRedeliver(w.state, w.ctx.config, e.id)).toBe(e);
    expect(expectRefusal(w.state, () => eventToRedeliver(w.state, w.ctx.config, "EVT_X"), "NOT_FOUND").message).toBe("No event EVT_X.");
    const err = expectRefusal(w.state, () => eventToRedeliver(w.state, makeContext().config, e.id), "INVALID_STATE");
    expect(err.message).toBe("No webhook_url is set for this merchant; set one (or webhook_capture) with PATCH /sandbox/v1/merchant.");
  });
});

describe("attempt timer refs", () => {
  it("name the event and why; a delayed attempt fires as released, anything else as a retry", () => {
    expect(attemptTimerRef("EVT_1", "retry")).toBe("EVT_1:retry");
    expect(parseAttemptTimerRef(attemptTimerRef("EVT_1", "delayed"))).toEqual({ eventId: "EVT_1", trigger: "released" });
    expect(parseAttemptTimerRef("EVT_1:retry")).toEqual({ eventId: "EVT_1", trigger: "retry" });
  });
});
