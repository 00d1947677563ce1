/**
 * Issue 11 ("Never down, never corrupt"): a long clock advance starved every other merchant.
 * Webhook attempts that fail without I/O (the built-in capture, a `drop` fault) never gave the event
 * loop back, so a ten-year advance over 1,000 payouts froze every tenant for 2-5 s; the attempts of
 * one advance ran one after another (events x retries x timeout); and SIGTERM waited for them with
 * no deadline. Now a run of timers yields every few milliseconds, the attempts of one instant run
 * side by side (up to 32), and a stop cuts webhook requests in flight.
 */
import { serve, type ServerType } from "@hono/node-server";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { createRuntime, type Runtime } from "../../src/runtime.js";
import { buildRegistry } from "../../src/server.js";
import { harness, makeNuban, START } from "../helpers.js";
import { startServerProcess, type StartedServer } from "../support/processes.js";

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

const payout = (i: number) => ({
  amount: 100,
  bank_code: "058",
  account_number: makeNuban("058", "012345678"),
  account_name: "OKAFOR ADAEZE",
  bank_name: "Guaranty Trust Bank",
  reference: `po-${i}`,
});
const NO_CAPS = { payout_attempts_per_hour: 0, payout_attempts_per_ip_per_hour: 0, requests_per_minute: 0, payout_hourly_amount: 100_000_000_000, payout_daily_amount: 100_000_000_000 };

/** A webhook receiver that never answers: every request stays open until the client gives up. */
async function silentReceiver() {
  const open = new Set<IncomingMessage>();
  const stats = { total: 0, open: 0, maxOpen: 0 };
  const arrivals: Array<() => void> = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    stats.total++;
    open.add(req);
    stats.open = open.size;
    stats.maxOpen = Math.max(stats.maxOpen, open.size);
    res.on("close", () => {
      open.delete(req);
      stats.open = open.size;
    });
    req.resume(); // read the body, answer never
    for (const wake of arrivals.splice(0)) wake();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  /** Resolves once `count` requests have arrived. */
  const waitFor = async (count: number) => {
    while (stats.total < count) await new Promise<void>((resolve) => arrivals.push(resolve));
  };
  return { url, stats, close, waitFor };
}

describe("a long advance of one merchant", () => {
  it("does not hold up another merchant: B's reply comes back while A's ten-year advance is still running", async () => {
    const { registry } = buildRegistry({}, Date.now);
    const runtime: Runtime = createRuntime();
    const app = createApp({ registry, runtime });
    const call = async (method: string, path: string, keys: Record<string, string>, body?: unknown) => {
      const res = await app.request(path, { method, headers: { ...keys, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as any };
    };
    const signUp = async (settings: Record<string, unknown>) => {
      const res = await call("POST", "/sandbox/v1/merchants", {}, { clock: { now: new Date(START).toISOString() }, ...settings });
      expect(res.status).toBe(201);
      return { id: res.body.data.merchant_id as string, keys: { "x-api-key": res.body.data.api_key, "x-api-secret": res.body.data.api_secret } };
    };

    // A: 1,000 processing payouts whose webhooks fail every attempt without any I/O (the built-in
    // capture, and a `drop` fault on every attempt), each retried 20 times.
    const a = await signUp({
      wallet_balance: 10_000_000,
      limits: NO_CAPS,
      webhook_capture: { fail_first: 100 },
      webhook: { retry_schedule_seconds: Array.from({ length: 20 }, (_, i) => 60 * (i + 1)) },
    });
    expect((await call("POST", "/sandbox/v1/outcomes", a.keys, { target: "webhook", outcome: "drop" })).status).toBe(201);
    for (let i = 0; i < 1_000; i++) {
      const res = await call("POST", "/api/v1/payout/transfer", a.keys, payout(i));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const b = await signUp({ wallet_balance: 4_321 });
    const tenantA = registry.get(a.id)!;
    expect(tenantA.state.timers).toHaveLength(1_000);

    const server: ServerType = await new Promise((resolve) => {
      const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
    });
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())), () => runtime.stop());
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const order: string[] = [];
    let advanceSettled = false;

    const advanceA = fetch(`${base}/sandbox/v1/clock/advance`, {
      method: "POST",
      headers: { ...a.keys, "content-type": "application/json" },
      body: JSON.stringify({ by: "3650d" }),
    }).then(async (res) => {
      advanceSettled = true;
      order.push("A");
      return { status: res.status, body: (await res.json()) as any };
    });
    // Wait (turn by turn of the event loop) until A's advance is under way: its clock has moved.
    // Code that never yields gets here only once the whole advance is over.
    while (tenantA.clock.now() === START && !advanceSettled) await new Promise((resolve) => setImmediate(resolve));

    const balanceB = fetch(`${base}/api/v1/wallet/balance`, { headers: b.keys }).then(async (res) => {
      order.push("B");
      return { status: res.status, body: (await res.json()) as any, pendingOfA: tenantA.state.timers.length };
    });
    const [replyB, replyA] = await Promise.all([balanceB, advanceA]);

    expect(order).toEqual(["B", "A"]);
    expect(replyB.status).toBe(200);
    expect(replyB.body.data.balance).toBe(4_321);
    expect(replyB.pendingOfA).toBeGreaterThan(0); // A still had timers to fire when B was answered

    // A's advance still did all of its work: every payout settled, every attempt of every event made.
    expect(replyA.status, JSON.stringify(replyA.body)).toBe(200);
    expect(replyA.body.data).toMatchObject({ fired: 1_000 + 1_000 * 20, pending_timers: 0 });
    expect(replyA.body.data.now).toBe(new Date(START + 3650 * 86_400_000).toISOString());
    const payouts = [...tenantA.state.payouts.values()];
    expect(payouts.filter((p) => p.status === "completed")).toHaveLength(1_000);
    const events = [...tenantA.state.events.values()];
    expect(events).toHaveLength(1_000);
    expect(events.every((e) => e.status === "failed" && e.attempts === 21)).toBe(true);
  }, 60_000);

  it("runs the webhook attempts of one instant side by side", async () => {
    const receiver = await silentReceiver();
    cleanups.push(receiver.close);
    const h = harness();
    const m = await h.merchant({ webhook_url: receiver.url, webhook: { timeout_seconds: 1, retry_schedule_seconds: [] }, limits: NO_CAPS });
    for (let i = 0; i < 10; i++) expect((await m.call("POST", "/api/v1/payout/transfer", { body: payout(i) })).status).toBe(201);

    // The ten payouts settle at the same instant; each one's payout.completed goes to a receiver that
    // never answers. One after another, each would wait out its 1 s timeout before the next began.
    const res = await m.call("POST", "/sandbox/v1/clock/advance", { body: { by: "30s" } });
    expect(res.status).toBe(200);
    expect(res.body.data.fired).toBe(10);

    expect(receiver.stats.total).toBe(10);
    expect(receiver.stats.maxOpen).toBe(10);
    const deliveries = (await m.call("GET", "/sandbox/v1/webhook-deliveries")).body.data;
    expect(deliveries).toHaveLength(10);
    for (const d of deliveries) expect(d).toMatchObject({ event_type: "payout.completed", outcome: "failed", status_code: null, error: "Timed out after 1 s" });
    const events = (await m.call("GET", "/sandbox/v1/events")).body.data;
    expect(events.map((e: { status: string }) => e.status)).toEqual(Array(10).fill("failed"));
  });
});

describe("stopping the CLI with webhook requests in flight", () => {
  it("SIGTERM exits 0 long before the receiver's 60 s timeout", async () => {
    const receiver = await silentReceiver();
    cleanups.push(receiver.close);
    const server: StartedServer = await startServerProcess(process.execPath, ["dist/cli.mjs", "start", "--port", "0"], { cwd: process.cwd() });
    cleanups.push(() => server.stop(0));
    const post = async (path: string, body: unknown, keys: Record<string, string> = {}) => {
      const res = await fetch(`${server.url}${path}`, { method: "POST", headers: { ...keys, "content-type": "application/json" }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as any };
    };

    const made = await post("/sandbox/v1/merchants", { webhook_url: receiver.url, webhook: { timeout_seconds: 60 } });
    expect(made.status).toBe(201);
    const keys = { "x-api-key": made.body.data.api_key, "x-api-secret": made.body.data.api_secret };
    // An advance whose three payouts settle, and whose deliveries it then waits for: once the
    // receiver holds one, the advance request is open on the server, waiting for it.
    for (let i = 0; i < 3; i++) expect((await post("/api/v1/payout/transfer", payout(i), keys)).status).toBe(201);
    const advance = post("/sandbox/v1/clock/advance", { by: "30s" }, keys).catch((err: unknown) => err);
    await receiver.waitFor(1);
    expect(receiver.stats.open).toBeGreaterThanOrEqual(1);

    const code = await server.stop(15_000); // SIGKILL after 15 s would give null
    expect(code).toBe(0);
    expect(server.output()).not.toContain("did not stop within");
    await advance; // answered or cut: either way it no longer hangs
  }, 30_000);
});
