/**
 * Two sandbox processes on one PostgreSQL database (in this test process: test/support/pg-nodes.ts):
 * any node answers for any merchant as one node would, a change made through one is seen by the
 * other, concurrent payouts through both keep the ledger exact, and the database going away is
 * answered with 503s that stop by themselves once it is back.
 */
import { describe, expect, it } from "vitest";
import { client } from "../client.js";
import { expectError, expectLedgerConsistent, type Merchant } from "../helpers.js";
import { SKIP_POSTGRES, usePostgres } from "../support/postgres.js";
import { pgNode, useTwoNodes } from "../support/pg-nodes.js";

const pg = usePostgres();

describe.skipIf(SKIP_POSTGRES)("two nodes on one PostgreSQL", () => {
  const two = useTwoNodes(pg);

  /** A merchant signed up through node A, and its handle on each node. */
  async function merchant(settings: Record<string, unknown> = {}): Promise<{ onA: Merchant; onB: Merchant }> {
    const m = await two.a.h.merchant({ wallet_balance: 10_000, ...settings });
    return { onA: m, onB: two.b.as(m) };
  }

  it("a merchant signed up on one node is served by the other, and each sees the other's changes", async () => {
    const { onA, onB } = await merchant();
    expect(two.b.h.registry.get(onA.id), "node B has not seen it yet").toBeUndefined();
    await client(onB).fund(2_500);
    expect(await client(onA).balance()).toBe(12_500);
    const account = await client(onA).virtualAccount();
    await client(onB).transferIn(account.account_number, 1_000);
    expect(await client(onA).balance()).toBe(13_500);
    await client(onA).flush();
    expect((await onB.call("GET", "/sandbox/v1/snapshot")).body).toEqual((await onA.call("GET", "/sandbox/v1/snapshot")).body);
  });

  it("payouts sent at once through both nodes spend the balance exactly once", async () => {
    const { onA, onB } = await merchant({ wallet_balance: 10_000 });
    // Each from its own address: the per-address cap on payout attempts is not what this test is about.
    const replies = await Promise.all(
      Array.from({ length: 16 }, (_, i) => client(i % 2 ? onA : onB).payout({ amount: 1_000, reference: `race-${i}` }, { ip: `10.0.0.${i + 1}` })),
    );
    for (const r of replies) expect([201, 422], JSON.stringify(r.body)).toContain(r.status);
    const accepted = replies.flatMap((r, i) => (r.status === 201 ? [`race-${i}`] : []));
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.length).toBeLessThan(16);
    // A reference taken through one node is refused through the other.
    expectError(await client(onB).payout({ amount: 1_000, reference: accepted[0] }, { ip: "10.0.1.1" }), 409, "DUPLICATE_REFERENCE");
    await client(onB).flush();
    const fromA = await onA.call("GET", "/sandbox/v1/snapshot");
    const fromB = await onB.call("GET", "/sandbox/v1/snapshot");
    expect(fromA.body).toEqual(fromB.body);
    expectLedgerConsistent(onA.tenant);
    expect([...onA.tenant.state.payouts.keys()].sort()).toEqual(accepted.sort());
  });

  it("a payment link made on one node is paid on the other node's page", async () => {
    const { onA, onB } = await merchant();
    const link = await client(onA).checkout({ amount: 2_000 });
    const page = await two.b.h.app.request(`/pay/${link.reference}`);
    expect(page.status).toBe(200);
    expect((await client(onB).payLink(link.reference)).status).toBe(200);
    expect((await client(onA).checkoutStatus(link.reference)).status).toBe("paid");
  });

  it("the clock advanced through each node moves once per advance", async () => {
    const { onA, onB } = await merchant();
    const start = Date.parse((await client(onA).advance(0)).now);
    await Promise.all([client(onA).advance(5), client(onB).advance(5)]);
    expect(Date.parse((await client(onB).advance(0)).now) - start).toBe(10_000);
  });

  it("a merchant deleted through one node is unknown to the other at once", async () => {
    const { onA, onB } = await merchant();
    expect((await client(onB).balance())).toBe(10_000);
    expect((await onA.call("DELETE", "/sandbox/v1/merchant")).status).toBe(200);
    expectError(await onB.call("GET", "/api/v1/wallet/balance"), 401, "INVALID_CREDENTIALS");
    expectError(await onB.call("POST", "/sandbox/v1/wallet/fund", { body: { amount: 1 } }), 401, "INVALID_CREDENTIALS");
    expect(two.b.h.registry.get(onA.id)).toBeUndefined();
  });

  it("a third node started later loads every merchant as the others left it", async () => {
    const { onA, onB } = await merchant();
    await client(onB).payout({ amount: 700, reference: "late-node" });
    const c = await pgNode(pg.cluster.url, two.wall, "node-c");
    try {
      const onC = c.as(onA);
      const got = await onC.call("GET", "/sandbox/v1/snapshot");
      expect(got.status).toBe(200);
      expect(got.body).toEqual((await onA.call("GET", "/sandbox/v1/snapshot")).body);
    } finally {
      await c.close();
    }
  });
});
