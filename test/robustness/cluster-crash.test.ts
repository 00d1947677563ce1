/**
 * Three sandbox processes on one PostgreSQL (`start --data postgres://…`), a mixed load sent to all of
 * them, and one killed with SIGKILL in the middle of it. Every operation acknowledged is there exactly
 * once, every ledger adds up, the survivors never answer a 5xx, and the dead node's work goes on
 * elsewhere: payouts it was settling settle, webhooks it was delivering are delivered (at least once,
 * the same request). A second case stops a node with SIGTERM under load: it drains, and no request
 * that reached it fails.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fromSnapshot, parseSnapshot } from "../../src/domain/snapshot.js";
import { payoutBody } from "../client.js";
import { receivers, REPO_ROOT } from "../helpers.js";
import type { Receiver } from "../receiver.js";
import { startServerProcess, type StartedServer } from "../support/processes.js";
import { SKIP_POSTGRES, usePostgres } from "../support/postgres.js";

const pg = usePostgres();
const receiver = receivers();
const running: StartedServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.kill()));
});

const startNode = async (url: string, id: string, drainSeconds = 0) => {
  const node = await startServerProcess(
    process.execPath,
    ["--import", "tsx", "src/main.ts", "start", "--port", "0", "--data", url, "--node-id", id, "--drain-seconds", String(drainSeconds), "--signups-per-minute", "0"],
    { cwd: REPO_ROOT, ready: "Webhook secret", timeoutMs: 60_000 },
  );
  running.push(node);
  return node;
};

interface Keys {
  "x-api-key": string;
  "x-api-secret": string;
}

/** A request to a node: its status and body, or null when the node could not be reached (not acknowledged). */
async function send(base: string, method: string, path: string, keys?: Keys, body?: unknown): Promise<{ status: number; body: any } | null> {
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(keys ?? {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  } catch {
    return null;
  }
}

const settings = (hooks: Receiver) => ({
  wallet_balance: 5_000_000,
  clock: { mode: "realtime" },
  delays: { payout_settlement_seconds: 1 },
  webhook_url: `${hooks.url}/hooks`,
  webhook: { retry_schedule_seconds: [1, 1, 2], timeout_seconds: 2 },
  limits: { requests_per_minute: 0, payout_attempts_per_hour: 0, payout_attempts_per_ip_per_hour: 0 },
});

describe.skipIf(SKIP_POSTGRES)("a cluster of three nodes on one PostgreSQL", () => {
  it("survives a SIGKILL of one node under load: nothing acknowledged lost, every ledger exact, its timers and webhooks carried on", async () => {
    const hooks = await receiver((n) => (n % 3 === 2 ? { status: 500 } : { status: 200 }));
    const nodes = await Promise.all(["n1", "n2", "n3"].map((id) => startNode(pg.cluster.url, id)));
    const urls = nodes.map((n) => n.url);

    const merchants: { id: string; keys: Keys; account: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const made = await send(urls[i % 3]!, "POST", "/sandbox/v1/merchants", undefined, settings(hooks));
      expect(made?.status, JSON.stringify(made?.body)).toBe(201);
      const keys = { "x-api-key": made!.body.data.api_key, "x-api-secret": made!.body.data.api_secret };
      const va = await send(urls[(i + 1) % 3]!, "POST", "/api/v1/virtual-account/create", keys, {
        email: "ada@example.com", reference: `cust-${i}`, bank: "partnerbank", first_name: "Ada", last_name: "Obi", bvn: "22212345678",
      });
      expect(va?.status, JSON.stringify(va?.body)).toBe(200);
      merchants.push({ id: made!.body.data.merchant_id, keys, account: va!.body.data.account_number });
    }

    const acked = { payouts: new Map<string, string[]>(), transfers: new Map<string, string[]>() };
    for (const m of merchants) {
      acked.payouts.set(m.id, []);
      acked.transfers.set(m.id, []);
    }
    const survivorsAnswers: number[] = [];
    const failures: string[] = [];
    let killed: number | null = null;
    let stop = false;
    let seq = 0;
    const worker = async (w: number) => {
      while (!stop) {
        const n = (w + seq++) % 3;
        const m = merchants[seq % merchants.length]!;
        const kind = seq % 4;
        let res;
        if (kind === 0 || kind === 1) {
          const reference = `w${w}-${seq}`;
          res = await send(urls[n]!, "POST", "/api/v1/payout/transfer", m.keys, payoutBody({ amount: 100 + (seq % 50), reference }));
          if (res?.status === 201) acked.payouts.get(m.id)!.push(reference);
        } else if (kind === 2) {
          res = await send(urls[n]!, "POST", `/sandbox/v1/virtual-accounts/${m.account}/transfers`, m.keys, { amount: 1_000, narration: "Order", payer_name: "BELLO HALIMA", payer_bank: "Zenith Bank" });
          if (res?.status === 201) acked.transfers.get(m.id)!.push(res.body.data.transaction_id);
        } else {
          res = await send(urls[n]!, "GET", "/api/v1/wallet/balance", m.keys);
        }
        if (res && n !== killed) survivorsAnswers.push(res.status);
        if (res && n !== killed && res.status >= 500) failures.push(`${n}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    };
    const load = Array.from({ length: 6 }, (_, w) => worker(w));
    const ackedCount = () => [...acked.payouts.values(), ...acked.transfers.values()].reduce((s, l) => s + l.length, 0);
    await expect.poll(ackedCount, { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(150);
    killed = 1;
    await nodes[1]!.kill();
    const before = ackedCount();
    await expect.poll(ackedCount, { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(before + 100);
    stop = true;
    await Promise.all(load);

    const logged = nodes.flatMap((node, i) => (i === killed ? [] : node.output().split("\n").filter((l) => /error|failed/i.test(l)).slice(0, 5)));
    expect({ failures: failures.slice(0, 5), logged }, "survivors answered no 5xx").toEqual({ failures: [], logged });
    expect(survivorsAnswers.filter((s) => s >= 500)).toEqual([]);

    // Timers (1 s settlements, retries) and leased webhook attempts of the dead node run on the survivors.
    const snapshotOf = async (m: (typeof merchants)[number]) => {
      const got = await send(urls[0]!, "GET", "/sandbox/v1/snapshot", m.keys);
      expect(got?.status).toBe(200);
      const parsed = parseSnapshot(got!.body.data);
      if ("error" in parsed) throw new Error(parsed.error);
      return fromSnapshot(parsed.snapshot).state;
    };
    for (const m of merchants) {
      await expect
        .poll(
          async () => {
            const s = await snapshotOf(m);
            const processing = [...s.payouts.values()].filter((p) => p.status === "processing").length;
            // Delivered, or failed after its last retry (the receiver may fail one event's every attempt): none left midway.
            const undelivered = [...s.events.values()].filter((e) => e.status !== "delivered" && e.status !== "failed");
            return { processing, undelivered: undelivered.map((e) => ({ id: e.id, status: e.status, attempts: e.attempts, outbox: s.outbox.includes(e.id), timers: s.timers.filter((t) => t.ref.includes(e.id)).map((t) => t.at - Date.now()) })) };
          },
          { timeout: 45_000, interval: 500 },
        )
        .toEqual({ processing: 0, undelivered: [] });
      const s = await snapshotOf(m);
      for (const reference of acked.payouts.get(m.id)!) expect(s.payouts.has(reference), `payout ${reference} acknowledged`).toBe(true);
      const transfers = new Set(acked.transfers.get(m.id)!);
      expect([...s.vaPayments.keys()].filter((id) => transfers.has(id)).length, "every acknowledged transfer once").toBe(transfers.size);
      let running = 0;
      for (const entry of s.ledger) {
        running += entry.amount;
        expect(entry.balance_after).toBe(running);
        expect(entry.balance_after).toBeGreaterThanOrEqual(0);
      }
      // Every payout debited once: no double spend, no lost debit.
      const debits = s.ledger.filter((e) => e.kind === "payout").map((e) => e.transaction_id);
      expect(new Set(debits).size, "no payout debited twice").toBe(debits.length);
      expect(debits.length, "one debit per payout").toBe(s.payouts.size);
    }
    // Every event the receiver saw was delivered; the same event may have come twice (at least once), with the same body.
    const byEvent = new Map<string, string>();
    for (const r of hooks.received) {
      const id = String(r.body?.data?.transaction_id ?? r.body?.data?.reference ?? "");
      if (!id) continue;
      const seen = byEvent.get(`${r.body.event}:${id}`);
      if (seen) expect(JSON.parse(seen).data, "a repeat carries the same data").toEqual(r.body.data);
      byEvent.set(`${r.body.event}:${id}`, r.raw.toString());
    }
    // Retries ran: attempts after a failed first one, on whichever node held the merchant.
    const retried = (await Promise.all(merchants.map(async (m) => (await snapshotOf(m)).deliveries.filter((d) => d.trigger === "retry").length))).reduce((a, b) => a + b, 0);
    expect(retried).toBeGreaterThan(0);
    const health = await send(urls[0]!, "GET", "/health");
    expect(health?.body).toMatchObject({ status: "ok", node: "n1", store: { kind: "postgres", state: "ok" } });
    expect(JSON.stringify(health?.body)).not.toContain(new URL(pg.cluster.url).password);
  }, 180_000);

  it("drains on SIGTERM: /health says so, and no request that reached the node fails", async () => {
    const [a, b] = [await startNode(pg.cluster.url, "d1", 2), await startNode(pg.cluster.url, "d2")];
    const made = await send(b.url, "POST", "/sandbox/v1/merchants", undefined, { limits: { requests_per_minute: 0 } });
    const keys = { "x-api-key": made!.body.data.api_key, "x-api-secret": made!.body.data.api_secret };
    const answers: number[] = [];
    let stop = false;
    const load = (async () => {
      while (!stop) {
        const res = await send(a.url, "GET", "/api/v1/wallet/balance", keys);
        if (res) answers.push(res.status);
      }
    })();
    await expect.poll(() => answers.length).toBeGreaterThan(20);
    const stopped = a.stop(20_000);
    await expect.poll(async () => (await send(a.url, "GET", "/health"))?.body?.store?.state, { timeout: 5_000 }).toBe("draining");
    expect(await stopped).toBe(0);
    stop = true;
    await load;
    expect(answers.filter((s) => s !== 200), "every request that reached the draining node was answered").toEqual([]);
    expect((await send(b.url, "GET", "/api/v1/wallet/balance", keys))?.status).toBe(200);
  }, 60_000);
});
