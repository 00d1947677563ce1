/**
 * The webhook doctor's battery, built without any I/O: each case sends what it says it sends, signed
 * (or not) exactly as the sandbox signs its own deliveries, with the sandbox's own payload shapes.
 */
import { describe, expect, it } from "vitest";
import { MAX_NARRATION } from "../../src/domain/bounds.js";
import { PaymentReceivedData } from "../../src/domain/event-records.js";
import { CASES, MAX_PAYER_FIELD, OUT_OF_ORDER_SECONDS, planBattery, STALE_SECONDS, UNKNOWN_EVENT_TYPE, type CaseId, type PlannedCase } from "../../src/doctor/battery.js";
import { createIds } from "../../src/engine/ids.js";
import { USER_AGENT } from "../../src/webhooks/dispatcher.js";
import { verifyWebhookSignature } from "../../src/webhooks/sign.js";
import { START } from "../helpers.js";

const SECRET = "whsec_battery_test";
const plan = (signature = {}) => planBattery({ secret: SECRET, signature, now: START, ids: createIds("battery") });
const byId = (battery: PlannedCase[], id: CaseId) => battery.find((c) => c.id === id)!;
const bodyOf = (c: PlannedCase, i = 0) => JSON.parse(c.deliveries[i]!.body) as { event: string; nonce: string; sent_at: string; data: Record<string, unknown> };
const verifies = (c: PlannedCase, i = 0, secret = SECRET, options = {}) =>
  verifyWebhookSignature(c.deliveries[i]!.body, c.deliveries[i]!.headers["x-webhook-signature"], secret, options);

describe("the cases", () => {
  it("are nine, in order, each saying what it sends, what it expects, why, and which faults it catches", () => {
    expect(CASES.map((c) => c.id)).toEqual([
      "valid_event",
      "duplicate_delivery",
      "missing_signature",
      "bad_signature",
      "tampered_body",
      "stale_sent_at",
      "unknown_event_type",
      "out_of_order",
      "large_payload",
    ]);
    for (const c of CASES) {
      for (const text of [c.title, c.sent, c.expected, c.why]) expect(text.length, c.id).toBeGreaterThan(10);
      expect(c.faults.length, c.id).toBeGreaterThan(0);
    }
    // A refusal case credits nothing; every case that expects a 2xx also catches a slow receiver.
    for (const c of CASES.filter((c) => c.expect === "refused")) expect(c.credits).toBe("none");
    for (const c of CASES.filter((c) => c.expect === "accepted")) expect(c.faults).toContain("slow");
  });
});

describe("the deliveries", () => {
  it("are built as the sandbox's own: its headers, its envelope, sent_at on the given clock, a fresh 32-hex nonce each", () => {
    const battery = plan();
    const all = battery.flatMap((c) => c.deliveries.map((_, i) => ({ c, i })));
    expect(all).toHaveLength(10);
    const nonces = all.map(({ c, i }) => bodyOf(c, i).nonce);
    expect(new Set(nonces).size).toBe(10);
    for (const n of nonces) expect(n).toMatch(/^[0-9a-f]{32}$/);
    for (const { c, i } of all) {
      expect(Object.keys(JSON.parse(c.deliveries[i]!.body))).toEqual(["event", "nonce", "sent_at", "data"]);
      expect(c.deliveries[i]!.headers).toMatchObject({ "content-type": "application/json", "user-agent": USER_AGENT });
    }
    expect(bodyOf(byId(battery, "valid_event")).sent_at).toBe(new Date(START).toISOString());
  });

  it("valid, duplicate, stale, unknown, out of order and large are signed with the secret; the duplicate repeats the valid event's transaction with a new nonce", () => {
    const battery = plan();
    for (const id of ["valid_event", "duplicate_delivery", "stale_sent_at", "unknown_event_type", "large_payload"] as const) expect(verifies(byId(battery, id)), id).toBe(true);
    const outOfOrder = byId(battery, "out_of_order");
    expect([verifies(outOfOrder, 0), verifies(outOfOrder, 1)]).toEqual([true, true]);

    const valid = bodyOf(byId(battery, "valid_event"));
    const duplicate = bodyOf(byId(battery, "duplicate_delivery"));
    expect(duplicate.data).toEqual(valid.data);
    expect(duplicate.nonce).not.toBe(valid.nonce);
    expect(byId(battery, "duplicate_delivery").transaction_ids).toEqual(byId(battery, "valid_event").transaction_ids);
  });

  it("every other case is about a transaction of its own, never met before", () => {
    const battery = plan();
    const ids = battery.filter((c) => c.id !== "duplicate_delivery").flatMap((c) => c.transaction_ids);
    expect(ids).toHaveLength(9);
    expect(new Set(ids).size).toBe(9);
    for (const c of battery) c.deliveries.forEach((_, i) => expect(c.transaction_ids).toContain(bodyOf(c, i).data.transaction_id));
  });

  it("missing_signature has no signature header; bad_signature a real HMAC with another key (it looks right and does not verify)", () => {
    const battery = plan();
    expect(byId(battery, "missing_signature").deliveries[0]!.headers).not.toHaveProperty("x-webhook-signature");
    const bad = byId(battery, "bad_signature");
    expect(bad.deliveries[0]!.headers["x-webhook-signature"]).toMatch(/^[0-9a-f]{64}$/);
    expect(verifies(bad)).toBe(false);
    expect(verifies(bad, 0, `${SECRET}-wrong`)).toBe(true);
  });

  it("tampered_body carries the signature of the body before its amount was changed, and nothing else differs", () => {
    const tampered = byId(plan(), "tampered_body");
    expect(verifies(tampered)).toBe(false);
    const body = bodyOf(tampered);
    expect(body.data.amount).toBe(500_000);
    const original = tampered.deliveries[0]!.body.replace('"amount":500000,', '"amount":5000,');
    expect(verifyWebhookSignature(original, tampered.deliveries[0]!.headers["x-webhook-signature"], SECRET)).toBe(true);
  });

  it("stale_sent_at is an hour old; out_of_order sends the newer payment, then the older one, still fresh", () => {
    const battery = plan();
    expect(Date.parse(bodyOf(byId(battery, "stale_sent_at")).sent_at)).toBe(START - STALE_SECONDS * 1000);
    const outOfOrder = byId(battery, "out_of_order");
    expect([bodyOf(outOfOrder, 0), bodyOf(outOfOrder, 1)].map((b) => Date.parse(b.sent_at))).toEqual([START, START - OUT_OF_ORDER_SECONDS * 1000]);
    expect(OUT_OF_ORDER_SECONDS).toBeLessThan(5 * 60);
  });

  it("unknown_event_type is a type the sandbox never sends, with a payment's data", () => {
    const unknown = bodyOf(byId(plan(), "unknown_event_type"));
    expect(unknown.event).toBe(UNKNOWN_EVENT_TYPE);
    expect(PaymentReceivedData.safeParse(unknown.data).success).toBe(true);
  });

  it("large_payload is the largest payment.received there is: every free-text field at its bound, in multi-byte text with escapes", () => {
    const large = bodyOf(byId(plan(), "large_payload"));
    expect(PaymentReceivedData.parse(large.data)).toEqual(large.data);
    const data = large.data as { reference: string; payer_name: string; payer_bank: string };
    expect([data.reference.length, data.payer_name.length, data.payer_bank.length]).toEqual([MAX_NARRATION, MAX_PAYER_FIELD, MAX_PAYER_FIELD]);
    expect(data.reference).toMatch(/\n/);
    expect(data.reference).toMatch(/\t/);
    expect(data.reference).toContain("/");
    expect(data.reference).toContain("₦");
    expect(data.reference).toContain("🇳🇬");
    const raw = byId(plan(), "large_payload").deliveries[0]!.body;
    expect(Buffer.byteLength(raw)).toBeGreaterThan(raw.length);
    // No surrogate pair is cut in half at a field's end.
    for (const text of [data.reference, data.payer_name, data.payer_bank]) expect(text).not.toMatch(/[\uD800-\uDBFF]$/);
  });

  it("every payment.received validates against the payload schema the sandbox sends", () => {
    for (const c of plan()) {
      c.deliveries.forEach((_, i) => {
        const body = bodyOf(c, i);
        if (body.event === "payment.received") expect(PaymentReceivedData.safeParse(body.data).success, c.id).toBe(true);
      });
    }
  });

  it("follows the merchant's signature settings: HMAC-SHA512 in base64", () => {
    const options = { algorithm: "sha512", encoding: "base64" } as const;
    const battery = plan(options);
    expect(verifies(byId(battery, "valid_event"), 0, SECRET, options)).toBe(true);
    expect(verifies(byId(battery, "valid_event"))).toBe(false);
    expect(verifies(byId(battery, "bad_signature"), 0, SECRET, options)).toBe(false);
  });
});
