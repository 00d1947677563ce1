/**
 * Webhook attempts and timers ran in promises that nothing
 * awaited or caught, so one throw in one merchant's background work ended the process for every
 * tenant. Triggers seen: a snapshot whose clock was past the Date range (`toISOString` threw), an
 * event payload nested 6,000 deep (`JSON.stringify` threw), and ~26,600 ten-year clock advances then
 * one transfer. The old code took the first two through PUT /sandbox/v1/snapshot (types only), let the
 * clock run past year 275760, and had no catch around background work. Now: the snapshot and clock
 * are bounded (1970 to the end of 9998, MAX_CLOCK), and whatever still throws in the background is
 * caught and recorded per merchant (GET /sandbox/v1/incidents, the event's `error`).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_CLOCK } from "../../src/domain/bounds.js";
import type { Payout } from "../../src/domain/records.js";
import { schedule } from "../../src/domain/timers.js";
import { createRuntime } from "../../src/runtime.js";
import { parseSnapshot } from "../../src/domain/snapshot.js";
import { contextOf } from "../../src/engine/tenant.js";
import type { PostResult, Transport } from "../../src/webhooks/transport.js";
import { client, type EventView, type TestClient } from "../client.js";
import { expectError, harness, START } from "../helpers.js";

const END = new Date(MAX_CLOCK).toISOString(); // 9998-12-31T23:59:59.999Z
const PAST_DATE_RANGE = 8.64e15 + 1; // new Date(this).toISOString() throws RangeError
const YEAR_275760 = 8.64e15; // +275760-09-13T00:00:00.000Z: a valid Date, far outside the clock's range

/** Errors nobody caught, collected while each test runs (the old code's process killers). */
const unhandled: unknown[] = [];
const onUnhandled = (err: unknown) => void unhandled.push(err);
beforeEach(() => {
  unhandled.length = 0;
  process.on("unhandledRejection", onUnhandled);
});
afterEach(() => {
  process.off("unhandledRejection", onUnhandled);
  vi.restoreAllMocks();
});

/** A merchant with a payment link, a virtual account and a payment event, and its snapshot (GET's `data`). */
async function merchantWithEvent() {
  const h = harness();
  const m = await h.merchant({ kyc: { bvn: "12345678901" } });
  await m.call("POST", "/api/v1/checkout/create", { body: { amount: 1500 } });
  const va = await m.call("POST", "/api/v1/virtual-account/create", {
    body: { email: "ada@example.com", reference: "cust-1", bank: "partnerbank", first_name: "Ada", last_name: "Obi" },
  });
  expect(va.status, JSON.stringify(va.body)).toBe(200);
  const paid = await m.call("POST", `/sandbox/v1/virtual-accounts/${va.body.data.account_number}/transfers`, { body: { amount: 2500, narration: "order 7" } });
  expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  return { h, m, before: await client(m).snapshot() };
}

describe("a snapshot past the Date range", () => {
  it.each([
    ["clock.now", PAST_DATE_RANGE],
    ["clock.now", YEAR_275760],
    ["merchant.created_at", YEAR_275760],
    ["state.checkouts.0.expires_at", PAST_DATE_RANGE],
    ["state.ledger.0.at", YEAR_275760],
  ])("PUT with %s = %d is refused with that path, and nothing changes", async (path, value) => {
    const { m, before } = await merchantWithEvent();
    const edited = structuredClone(before);
    const keys = path.split(".");
    let target = edited;
    for (const key of keys.slice(0, -1)) target = target[key];
    target[keys.at(-1)!] = value;

    const err = expectError(await m.call("PUT", "/sandbox/v1/snapshot", { body: edited }), 422, "VALIDATION_ERROR");
    expect(Object.keys(err.errors ?? {})).toContain(path);
    expect(err.errors![path]!.join(" ")).toMatch(/Too big/);
    expect(await client(m).snapshot()).toEqual(before);
    // The clock still reads as a date.
    expect((await m.call("GET", "/sandbox/v1/clock")).body.data.now).toBe(new Date(START).toISOString());
  });
});

describe("an event payload nested 6,000 deep", () => {
  it("is refused by the JSON depth check before the snapshot schema sees it (422, errors.body)", async () => {
    const { m, before } = await merchantWithEvent();
    const text = JSON.stringify(before);
    const deep = `${'{"x":'.repeat(6_000)}1${"}".repeat(6_000)}`;
    // The payment.received event's data gets a field holding the nested object.
    const raw = text.replace('"data":{"reference":"order 7"', `"data":{"nested":${deep},"reference":"order 7"`);
    expect(raw.length).toBeGreaterThan(text.length + 6_000);

    const err = expectError(await m.call("PUT", "/sandbox/v1/snapshot", { raw, headers: { "content-type": "application/json" } }), 422, "VALIDATION_ERROR");
    expect(err.message).toBe("The request body nests deeper than 32 levels.");
    expect(err.errors).toEqual({ body: ["Must nest at most 32 levels deep."] });
    expect(await client(m).snapshot()).toEqual(before);
  });

  it("nesting that fits the depth limit is refused by the typed payload, naming the field", async () => {
    const { m, before } = await merchantWithEvent();
    const edited = structuredClone(before);
    let nested: unknown = "order 7";
    for (let i = 0; i < 20; i++) nested = { x: nested };
    edited.state.events[0].data.reference = nested;

    const err = expectError(await m.call("PUT", "/sandbox/v1/snapshot", { body: edited }), 422, "VALIDATION_ERROR");
    expect(Object.keys(err.errors ?? {})).toEqual(["state.events.0.data.reference"]);
    expect(await client(m).snapshot()).toEqual(before);
  });
});

describe("the end of the clock's range", () => {
  it("an advance past it is refused with a clear message; a transfer and its webhook at the end still work", async () => {
    const h = harness();
    const m = await h.merchant({ webhook_capture: { fail_first: 0 }, kyc: { bvn: "12345678901" } });
    const oneDayBefore = new Date(MAX_CLOCK - 86_400_000).toISOString();
    expect((await m.call("POST", "/sandbox/v1/clock/advance", { body: { to: oneDayBefore } })).status).toBe(200);
    const last = await m.call("POST", "/sandbox/v1/clock/advance", { body: { by: "1d" } });
    expect(last.status, JSON.stringify(last.body)).toBe(200);
    expect(last.body.data.now).toBe(END);

    const message = `The clock cannot go past ${END}.`;
    for (const [field, value] of [["seconds", 0.001], ["by", "1s"], ["to", "9999-01-01T00:00:00.000Z"]] as const) {
      const err = expectError(await m.call("POST", "/sandbox/v1/clock/advance", { body: { [field]: value } }), 422, "VALIDATION_ERROR");
      expect(err.errors).toEqual({ [field]: [message] });
    }
    expect((await m.call("GET", "/sandbox/v1/clock")).body.data.now).toBe(END);

    // Business at the last instant: dates print, the webhook is signed and delivered.
    const va = await m.call("POST", "/api/v1/virtual-account/create", {
      body: { email: "ada@example.com", reference: "cust-1", bank: "partnerbank", first_name: "Ada", last_name: "Obi" },
    });
    const account = va.body.data.account_number as string;
    const transfer = await m.call("POST", `/sandbox/v1/virtual-accounts/${account}/transfers`, { body: { amount: 5000 } });
    expect(transfer.status, JSON.stringify(transfer.body)).toBe(201);
    expect(transfer.body.data.created_at).toBe(END);
    const payout = await client(m).payout({ amount: 1000 });
    expect(payout.status, JSON.stringify(payout.body)).toBe(201);
    expect(payout.body.data.created_at).toBe(END);
    expect((await m.call("POST", "/sandbox/v1/clock/advance", { body: { seconds: 0 } })).status).toBe(200);

    const events = (await m.call("GET", "/sandbox/v1/events")).body.data;
    expect(events.map((e: any) => [e.type, e.status, e.error, e.created_at])).toEqual([["payment.received", "delivered", null, END]]);
    const [delivery] = (await m.call("GET", "/sandbox/v1/webhook-deliveries")).body.data;
    expect(delivery).toMatchObject({ url: "sandbox:webhook-capture", status_code: 200, outcome: "delivered", sent_at: END });
    expect(JSON.parse(delivery.request_body)).toMatchObject({ event: "payment.received", sent_at: END, data: { amount: 5000, virtual_account: account } });
    expect((await m.call("GET", "/sandbox/v1/incidents")).body.data).toEqual([]);

    // The payout's settlement falls after the end: it waits, and the merchant still saves and loads.
    const snapshot = await client(m).snapshot();
    expect(snapshot.state.timers).toEqual([expect.objectContaining({ kind: "payout.settle", at: MAX_CLOCK + 30_000 })]);
    expect(parseSnapshot(JSON.parse(JSON.stringify(snapshot)))).not.toHaveProperty("error");
    expect(unhandled).toEqual([]);
  });

  it("a fast realtime clock stops at the end instead of running past it", async () => {
    const h = harness();
    const m = await h.merchant({ clock: { mode: "realtime", speed: 100_000, now: new Date(MAX_CLOCK - 1_000).toISOString() } });
    h.wall.now += 10 * 365 * 86_400_000;
    expect((await m.call("GET", "/sandbox/v1/clock")).body.data.now).toBe(END);
    const funded = await m.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 10 } });
    expect(funded.status).toBe(200);
    expect(funded.body.data.updated_at).toBe(END);
  });
});

describe("background work that throws", () => {
  it("a timer that throws for merchant A is an incident of A; the advance answers, A's other timers fire, B is served", async () => {
    const h = harness();
    const a = await h.merchant();
    const b = await h.merchant();
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const payout = { amount: 1000 };

    const bFirst = await client(b).payout(payout);
    expect(bFirst.status).toBe(201);

    // A real payout, and a broken one (no plan) put straight into A's state with its settlement timer.
    const good = await client(a).payout(payout);
    expect(good.status).toBe(201);
    const broken = { ...a.tenant.state.payouts.get(good.body.data.reference)!, reference: "broken-1", order_no: "ORD_BROKEN_1" } as Payout;
    (broken as { plan?: unknown }).plan = undefined;
    a.tenant.state.payouts.set(broken.reference, broken);
    schedule(contextOf(a.tenant), a.tenant.state, START + 10_000, "payout.settle", broken.reference);

    const advanced = await a.call("POST", "/sandbox/v1/clock/advance", { body: { by: "1m" } });
    expect(advanced.status, JSON.stringify(advanced.body)).toBe(200);
    expect(advanced.body.data).toMatchObject({ now: new Date(START + 60_000).toISOString(), fired: 2, pending_timers: 0 });

    const incidents = (await a.call("GET", "/sandbox/v1/incidents")).body.data;
    expect(incidents).toEqual([
      { at: new Date(START + 10_000).toISOString(), where: "timer payout.settle broken-1", error: expect.stringMatching(/^TypeError: .*outcome/) },
    ]);
    expect(error).toHaveBeenCalledWith(expect.stringContaining(`merchant ${a.id}: timer payout.settle broken-1 failed`), expect.any(TypeError));
    // The throw changed nothing of the broken payout; the real one settled.
    expect(a.tenant.state.payouts.get("broken-1")!.status).toBe("processing");
    const status = await a.call("GET", `/api/v1/payout/status?reference=${good.body.data.reference}`);
    expect(status.body.data.status).toBe("completed");

    // B: untouched by A's failure, served before and after.
    expect((await b.call("GET", "/sandbox/v1/incidents")).body.data).toEqual([]);
    expect((await b.call("POST", "/sandbox/v1/clock/advance", { body: { by: "1m" } })).body.data).toMatchObject({ fired: 1 });
    const bStatus = await b.call("GET", `/api/v1/payout/status?reference=${bFirst.body.data.reference}`);
    expect(bStatus.body.data.status).toBe("completed");
    expect((await client(b).payout(payout)).status).toBe(201);
    expect(unhandled).toEqual([]);
  });

  it("a webhook transport that rejects for A fails A's events with the error and an incident; B's are delivered", async () => {
    const s = sandboxWith(({ url }) => {
      if (!url.startsWith("https://a.example/")) return { status_code: 200, error: null, latency_ms: 1, response_excerpt: "ok" };
      // A's receiver: the first attempt gets a 500 (a retry is scheduled), every later one a broken transport.
      return s.postsTo("https://a.example/") === 1 ? { status_code: 500, error: null, latency_ms: 1, response_excerpt: "down" } : new Error("transport exploded");
    });
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { c: a, account: aAccount } = await s.merchant({ webhook_url: "https://a.example/hooks" });
    const { c: b, account: bAccount } = await s.merchant({ webhook_url: "https://b.example/hooks" });

    await b.transferIn(bAccount, 100);
    await b.flush();
    expect((await b.events()).map((e) => e.status)).toEqual(["delivered"]);

    // A's first event: answered 500, then its retry (a timer, during the advance) hits the broken transport.
    await a.transferIn(aAccount, 200);
    await a.flush();
    expect((await a.events())[0]).toMatchObject({ status: "pending", attempts: 1, error: null });
    expect(await a.advance("2m")).toMatchObject({ fired: 1, pending_timers: 0 });
    // A's second event: its first attempt (started after the reply, awaited by nobody) hits it too.
    await a.transferIn(aAccount, 300);
    await a.flush();

    const [first, second] = (await a.events()) as [EventView, EventView];
    expect(first).toMatchObject({ status: "failed", next_attempt_at: null, error: "transport exploded" });
    expect(second).toMatchObject({ status: "failed", next_attempt_at: null, error: "transport exploded" });
    expect((await a.call("GET", "/sandbox/v1/incidents")).body.data).toEqual([
      { at: new Date(START + 60_000).toISOString(), where: `webhook payment.received ${first.id}`, error: "Error: transport exploded" },
      { at: new Date(START + 120_000).toISOString(), where: `webhook payment.received ${second.id}`, error: "Error: transport exploded" },
    ]);
    expect(error).toHaveBeenCalledWith(expect.stringContaining(`merchant ${a.merchant.id}: webhook payment.received ${first.id} failed`), expect.any(Error));

    // B is served normally after, on the same app and transport.
    await b.transferIn(bAccount, 400);
    expect(await b.advance("1m")).toMatchObject({ pending_timers: 0 });
    expect((await b.events()).map((e) => [e.status, e.error])).toEqual([["delivered", null], ["delivered", null]]);
    expect((await b.call("GET", "/sandbox/v1/incidents")).body.data).toEqual([]);
    expect(s.postsTo("https://b.example/")).toBe(2);
    expect(unhandled).toEqual([]);
  });
});

/**
 * A harness whose webhooks go through a transport of the test's own: `answer` gives each post's
 * result, or an Error to reject with (a transport breaking its never-reject contract).
 */
function sandboxWith(answer: (post: { url: string }) => PostResult | Error) {
  const posts: string[] = [];
  const transport: Transport = {
    post: async (url) => {
      posts.push(url);
      const result = answer({ url });
      if (result instanceof Error) throw result;
      return result;
    },
    get: async () => ({ status_code: null, error: "no GET in this test", latency_ms: 0, response_excerpt: null, body: null, truncated: false }),
    abortAll: () => undefined,
    inflight: () => 0,
  };
  const h = harness({ runtime: createRuntime({ transport }) });

  return {
    postsTo: (prefix: string) => posts.filter((u) => u.startsWith(prefix)).length,
    /** A merchant's test client (KYC done, `settings` added), and a virtual account of its own to pay into. */
    async merchant(settings: Record<string, unknown>): Promise<{ c: TestClient; account: string }> {
      const c = client(await h.merchant({ kyc: { bvn: "12345678901" }, ...settings }));
      return { c, account: (await c.virtualAccount({ email: "payer@example.com", reference: "payer-1", first_name: "Bola", last_name: "Ade" })).account_number };
    },
  };
}
