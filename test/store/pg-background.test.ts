/**
 * Background work without an owner node (src/persistence/pg-background.ts), on a real PostgreSQL with
 * in-process nodes: a node that dies (its pool closed at once, as SIGKILL closes its sockets) leaves its
 * due timers and its webhook attempt in flight to the survivors, which run them as it would have.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { client } from "../client.js";
import { expectLedgerConsistent, receivers } from "../helpers.js";
import { neverAnswer, type Receiver } from "../receiver.js";
import { SKIP_POSTGRES, usePostgres } from "../support/postgres.js";
import { pgNode, sharedWall, type PgNode } from "../support/pg-nodes.js";

const pg = usePostgres();
const receiver = receivers();

describe.skipIf(SKIP_POSTGRES)("background work on a PostgreSQL cluster", () => {
  const wall = sharedWall();
  let b: PgNode;
  const others: PgNode[] = [];
  beforeAll(async () => {
    b = await pgNode(pg.cluster.url, wall, "survivor");
  }, 30_000);
  afterEach(async () => {
    await Promise.all(others.splice(0).map((n) => n.close().catch(() => undefined)));
  });
  afterAll(async () => {
    await b?.close();
  });

  const doomed = async (name: string) => {
    const n = await pgNode(pg.cluster.url, wall, name);
    others.push(n);
    return n;
  };

  it("a realtime merchant's settlement falls due after its node died, and another node fires it", async () => {
    const a = await doomed("doomed-1");
    const m = await a.h.merchant({ wallet_balance: 50_000, clock: { mode: "realtime" } });
    const payout = await client(m).processingPayout({ amount: 2_000, reference: "after-death" });
    expect(payout.status).toBe("processing");
    await a.kill();

    wall.now += 10 * 60_000; // well past any settlement delay
    await b.background.pollOnce();
    const onB = b.as(m);
    expect(b.h.registry.get(m.id), "the survivor loaded the merchant to run its due work").toBeDefined();
    expect(onB.tenant.state.payouts.get("after-death")!.status).not.toBe("processing");
    expectLedgerConsistent(onB.tenant);
    // Nothing is left due: the next look finds nothing to do for it.
    const [row] = await b.sql<{ next_due_wall: number | null }[]>`select next_due_wall from msb_merchants where merchant_id = ${m.id}`;
    expect(row!.next_due_wall === null || row!.next_due_wall > wall.now).toBe(true);
  });

  it("a webhook attempt in flight when its node died is sent again by another node: the same request, then recorded once", async () => {
    let hook!: Receiver;
    hook = await receiver((n) => (n === 0 ? neverAnswer(n, hook.received[0]!) : { status: 200 }));
    const a = await doomed("doomed-2");
    const m = await a.h.merchant({ wallet_balance: 50_000, webhook_url: `${hook.url}/hooks`, webhook: { timeout_seconds: 30 } });
    const c = client(m);
    await c.transferIn((await c.virtualAccount()).account_number, 1_000);
    const [first] = await hook.waitFor(1);
    const [leased] = await b.sql<{ leased_by: string }[]>`select leased_by from msb_webhook_attempts where merchant_id = ${m.id}`;
    expect(leased?.leased_by, "the attempt in flight is leased to its node").toBe("doomed-2");
    await a.kill();

    // The lease runs out (the database's own clock decides; the test moves it along).
    await b.sql`update msb_webhook_attempts set lease_until = clock_timestamp() - interval '1 second' where merchant_id = ${m.id}`;
    await b.background.pollOnce();
    const [, again] = await hook.waitFor(2);
    expect(again!.raw.equals(first!.raw), "the very same body (nonce, sent_at, transaction_id)").toBe(true);
    expect(again!.headers["x-webhook-signature"]).toBe(first!.headers["x-webhook-signature"]);
    await expect.poll(async () => (await b.sql`select 1 from msb_webhook_attempts where merchant_id = ${m.id}`).length).toBe(0);
    const onB = b.as(m);
    const events = await client(onB).events();
    expect(events.every((e) => e.status === "delivered"), JSON.stringify(events)).toBe(true);
    expect(onB.tenant.state.deliveries.filter((d) => d.outcome === "delivered")).toHaveLength(1);
  });

  it("a node that stops beating leaves the nodes table; a draining node says so", async () => {
    const a = await doomed("doomed-3");
    await a.background.pollOnce();
    const names = async () => (await b.sql<{ node_id: string; state: string }[]>`select node_id, state from msb_nodes order by node_id`).map((r) => `${r.node_id}:${r.state}`);
    expect(await names()).toContain("doomed-3:serving");
    await a.background.drain();
    expect(await names()).toContain("doomed-3:draining");
    await a.background.leave();
    expect((await names()).some((n) => n.startsWith("doomed-3:"))).toBe(false);
  });
});
