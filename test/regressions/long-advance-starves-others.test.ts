/**
 * A long clock advance starved every other merchant.
 * Webhook attempts that fail without I/O (the built-in capture, a `drop` fault) never gave the event
 * loop back, so a ten-year advance over 1,000 payouts froze every tenant for 2-5 s; the attempts of
 * one advance ran one after another (events x retries x timeout); and SIGTERM waited for them with
 * no deadline. Now a run of timers yields every few milliseconds, the attempts of one instant run
 * side by side (up to 32), and a stop cuts webhook requests in flight.
 */
import { serve, type ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { createRuntime, type Runtime } from "../../src/runtime.js";
import { client, payoutBody } from "../client.js";
import { closedAfterEach, harness, httpCall, receivers, signUpAt, START, until } from "../helpers.js";
import { neverAnswer } from "../receiver.js";
import { startServerProcess, type StartedServer } from "../support/processes.js";

// "After" hooks run in the reverse order of registration: servers stop first, then runtimes, then receivers.
const receiver = receivers();
const stoppedAfter = closedAfterEach((runtime: Runtime) => runtime.stop());
const closedAfter = closedAfterEach((server: ServerType) => new Promise<void>((resolve) => server.close(() => resolve())));
const stoppedProcessAfter = closedAfterEach((server: StartedServer) => server.stop(0));
const NO_CAPS = { payout_attempts_per_hour: 0, payout_attempts_per_ip_per_hour: 0, requests_per_minute: 0, payout_hourly_amount: 100_000_000_000, payout_daily_amount: 100_000_000_000 };

describe("a long advance of one merchant", () => {
  it("does not hold up another merchant: B's reply comes back while A's ten-year advance is still running", async () => {
    const runtime = stoppedAfter(createRuntime());
    const h = harness({ realWall: true, runtime });

    // A: 1,000 processing payouts whose webhooks fail every attempt without any I/O (the built-in
    // capture, and a `drop` fault on every attempt), each retried 20 times.
    const a = client(
      await h.merchant({
        wallet_balance: 10_000_000,
        limits: NO_CAPS,
        webhook_capture: { fail_first: 100 },
        webhook: { retry_schedule_seconds: Array.from({ length: 20 }, (_, i) => 60 * (i + 1)) },
      }),
    );
    await a.rule({ target: "webhook", outcome: "drop" });
    for (let i = 0; i < 1_000; i++) {
      const res = await a.payout({ amount: 100, reference: `po-${i}` });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const b = await h.merchant({ wallet_balance: 4_321 });
    const tenantA = a.tenant;
    expect(tenantA.state.timers).toHaveLength(1_000);

    const server: ServerType = await new Promise((resolve) => {
      const s = serve({ fetch: h.app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
    });
    closedAfter(server);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const order: string[] = [];
    let advanceSettled = false;

    const advanceA = httpCall(base, "POST", "/sandbox/v1/clock/advance", { keys: a.merchant.keys, body: { by: "3650d" } }).then((res) => {
      advanceSettled = true;
      order.push("A");
      return res;
    });
    // Wait (turn by turn of the event loop) until A's advance is under way: its clock has moved.
    // Code that never yields gets here only once the whole advance is over.
    await until(() => tenantA.clock.now() !== START || advanceSettled, "A's advance to be under way", 60_000);

    const balanceB = httpCall(base, "GET", "/api/v1/wallet/balance", { keys: b.keys }).then((res) => {
      order.push("B");
      return { ...res, pendingOfA: tenantA.state.timers.length };
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
    const r = await receiver(neverAnswer);
    const c = client(await harness().merchant({ webhook_url: r.url, webhook: { timeout_seconds: 1, retry_schedule_seconds: [] }, limits: NO_CAPS }));
    const m = c.merchant;
    for (let i = 0; i < 10; i++) expect((await c.payout({ amount: 100, reference: `po-${i}` })).status).toBe(201);

    // The ten payouts settle at the same instant; each one's payout.completed goes to a receiver that
    // never answers. One after another, each would wait out its 1 s timeout before the next began.
    const res = await m.call("POST", "/sandbox/v1/clock/advance", { body: { by: "30s" } });
    expect(res.status).toBe(200);
    expect(res.body.data.fired).toBe(10);

    expect(r.received).toHaveLength(10);
    expect(r.maxOpen).toBe(10);
    const deliveries = (await m.call("GET", "/sandbox/v1/webhook-deliveries")).body.data;
    expect(deliveries).toHaveLength(10);
    for (const d of deliveries) expect(d).toMatchObject({ event_type: "payout.completed", outcome: "failed", status_code: null, error: "Timed out after 1 s" });
    const events = (await m.call("GET", "/sandbox/v1/events")).body.data;
    expect(events.map((e: { status: string }) => e.status)).toEqual(Array(10).fill("failed"));
  });
});

describe("stopping the CLI with webhook requests in flight", () => {
  it("SIGTERM exits 0 long before the receiver's 60 s timeout", async () => {
    const r = await receiver(neverAnswer);
    const server = stoppedProcessAfter(await startServerProcess(process.execPath, ["dist/cli.mjs", "start", "--port", "0"], { cwd: process.cwd() }));

    const m = await signUpAt(server.url, { webhook_url: r.url, webhook: { timeout_seconds: 60 } });
    // An advance whose three payouts settle, and whose deliveries it then waits for: once the
    // receiver holds one, the advance request is open on the server, waiting for it.
    for (let i = 0; i < 3; i++) expect((await m.call("POST", "/api/v1/payout/transfer", { body: payoutBody({ amount: 100, reference: `po-${i}` }) })).status).toBe(201);
    const advance = m.call("POST", "/sandbox/v1/clock/advance", { body: { by: "30s" } }).catch((err: unknown) => err);
    await r.waitFor(1);
    expect(r.open).toBeGreaterThanOrEqual(1);

    const code = await server.stop(15_000); // SIGKILL after 15 s would give null
    expect(code).toBe(0);
    expect(server.output()).not.toContain("did not stop within");
    await advance; // answered or cut: either way it no longer hangs
  }, 30_000);
});
