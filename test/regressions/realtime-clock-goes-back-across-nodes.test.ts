/**
 * Two nodes on one PostgreSQL, a realtime merchant: a node that caught up on the other's change set
 * the merchant's clock from the kept time and the wall time of the commit, read after the clock; and
 * a node whose wall clock is behind the other's put it back by the difference. A payout recorded next
 * then came before the previous one in the volume window, and the merchant no longer loaded ("is
 * earlier than the entry before it"): every later request for it answered 500. The clock now never
 * goes before the time the change was kept at.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Clock } from "../../src/engine/clock.js";
import { client } from "../client.js";
import { expectLedgerConsistent, START } from "../helpers.js";
import { SKIP_POSTGRES, usePostgres } from "../support/postgres.js";
import { pgNode, type PgNode } from "../support/pg-nodes.js";

describe("a clock restored from another process's change", () => {
  it("never goes before the kept time, even with this process's wall clock behind", () => {
    const wall = { now: START };
    const clock = new Clock({ mode: "realtime", speed: 1, now: START }, () => wall.now);
    clock.restoreAt({ mode: "realtime", speed: 1, now: START + 10_000 }, START + 80);
    expect(clock.now()).toBe(START + 10_000);
    wall.now += 5;
    expect(clock.now()).toBe(START + 10_005);
  });
});

const pg = usePostgres();

describe.skipIf(SKIP_POSTGRES)("a realtime merchant served by two nodes whose wall clocks differ", () => {
  // Node B's wall clock is 40 ms behind node A's; both move together.
  const wallA = { now: START };
  const wallB = { get now() { return wallA.now - 40; }, set now(v: number) { wallA.now = v + 40; } };
  let a: PgNode;
  let b: PgNode;
  beforeAll(async () => {
    a = await pgNode(pg.cluster.url, wallA, "ahead");
    b = await pgNode(pg.cluster.url, wallB, "behind");
  }, 30_000);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it("keeps its payouts in time order and loads on a fresh node", async () => {
    const m = await a.h.merchant({ wallet_balance: 100_000, clock: { mode: "realtime" }, limits: { payout_attempts_per_ip_per_hour: 0 } });
    for (let i = 0; i < 12; i++) {
      const node = i % 2 ? a : b;
      const res = await client(node.as(m)).payout({ amount: 200, reference: `skew-${i}` });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      wallA.now += 3;
    }
    const fresh = await pgNode(pg.cluster.url, wallA, "fresh");
    try {
      const got = await fresh.as(m).call("GET", "/sandbox/v1/snapshot");
      expect(got.status, JSON.stringify(got.body)).toBe(200);
      const entries = got.body.data.state.windows.payout_volume.entries as Array<{ at: number }>;
      expect(entries.map((e) => e.at)).toEqual([...entries.map((e) => e.at)].sort((x, y) => x - y));
      expectLedgerConsistent(fresh.as(m).tenant);
    } finally {
      await fresh.close();
    }
  });
});
